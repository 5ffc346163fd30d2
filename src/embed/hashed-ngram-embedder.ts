import { parseColumnEmbeddingText } from './column-text.js';
import { type DocumentFrequency, DocumentFrequencyTable, inverseDocumentFrequency } from './document-frequency.js';
import { EMBEDDING_DIM, type Embedder } from './embedder.js';
import { addHashedFeature } from './feature-hash.js';
import { headerLemmas, wordFeatures } from './header-features.js';

/**
 * Relative weights of the three parts of a column text. Each part is hashed into its own
 * 256-d block, scaled to unit length, multiplied by its weight, and the sum normalised: the
 * header decides where a column lands; the table name and the values only nudge it. With these
 * weights two columns with identical headers keep a cosine >= 1 / (1 + 0.25² + 0.4²) ≈ 0.82
 * whatever their tables and values.
 */
export const HEADER_WEIGHT = 1;
export const TABLE_WEIGHT = 0.25;
export const VALUES_WEIGHT = 0.4;

/** Feature for a text with no usable token, so that even '' maps to a (fixed) unit vector. */
const EMPTY_FEATURE = 'e:';

export interface HashedNgramEmbedderOptions {
  /** Document frequencies over the catalog's headers; without it every idf is 1. */
  documentFrequency?: DocumentFrequency;
}

/**
 * Built-in embedder that needs no model weights: TF-IDF-weighted header words (lemmatised) and
 * their character 3-grams, the table name's words and sample-value tokens/shapes, feature-hashed
 * with signed hashing directly into 256 dimensions (see README). Deterministic and fast.
 *
 * Texts in the `columnEmbeddingText` layout are split into header, table and values; any other
 * text (a question) is treated like a header, so questions and columns share one space.
 */
export class HashedNgramEmbedder implements Embedder {
  readonly id = 'builtin-hash-v1';
  readonly dim = EMBEDDING_DIM;
  private documentFrequency?: DocumentFrequency;

  constructor(options: HashedNgramEmbedderOptions = {}) {
    this.documentFrequency = options.documentFrequency;
  }

  /**
   * Refits the IDF weights on a corpus of column texts (`columnEmbeddingText` layout; other
   * texts count as headers). The catalog calls this with every column it holds, so vectors
   * depend on what the catalog contains, never on the order it was ingested in.
   */
  fit(texts: string[]): void {
    this.documentFrequency = DocumentFrequencyTable.fromHeaders(texts.map((t) => parseColumnEmbeddingText(t)?.column ?? t));
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => this.embedSync(t));
  }

  /** A question (or any free text), embedded like a header: its words and their 3-grams. */
  async embedQuery(text: string): Promise<Float32Array> {
    return this.embedSync(text);
  }

  embedSync(text: string): Float32Array {
    const parsed = parseColumnEmbeddingText(text);
    const out = new Float64Array(EMBEDDING_DIM);
    if (!parsed) {
      addBlock(out, this.headerBlock(text), HEADER_WEIGHT);
    } else {
      addBlock(out, this.headerBlock(parsed.column), HEADER_WEIGHT);
      addBlock(out, tableBlock(parsed.table), TABLE_WEIGHT);
      addBlock(out, valuesBlock(parsed.values), VALUES_WEIGHT);
    }
    return toUnitFloat32(out);
  }

  private headerBlock(text: string): Float64Array {
    const block = new Float64Array(EMBEDDING_DIM);
    const lemmas = headerLemmas(text);
    if (lemmas.length === 0) {
      addHashedFeature(block, EMPTY_FEATURE, 1);
      return block;
    }
    for (const lemma of lemmas) {
      for (const { feature, weight } of wordFeatures(lemma)) {
        addHashedFeature(block, feature, weight * inverseDocumentFrequency(this.documentFrequency, feature));
      }
    }
    return block;
  }
}

/** Table-name words, in the same 'w:' space as header words: players.id leans towards player_id. */
function tableBlock(table: string): Float64Array {
  const block = new Float64Array(EMBEDDING_DIM);
  for (const lemma of headerLemmas(table)) addHashedFeature(block, `w:${lemma}`, 1);
  return block;
}

/**
 * Values: a shape per value ('2021-03-04' -> 's:9-9-9', 'AB12' -> 's:a9') and its tokens —
 * words in the 'w:' space (so a question naming a value leans towards the column holding it),
 * numbers as their digit count ('n:4' for years). Not lemmatised: values are too many to
 * lemmatise at 10k columns/s. Repeated features count sub-linearly (sqrt).
 */
function valuesBlock(values: string): Float64Array {
  const block = new Float64Array(EMBEDDING_DIM);
  if (values.length === 0) return block;
  const counts = new Map<string, number>();
  const bump = (f: string) => counts.set(f, (counts.get(f) ?? 0) + 1);
  for (const value of values.split(', ')) {
    const v = value.trim();
    if (!v) continue;
    bump(`s:${valueShape(v)}`);
    for (const m of v.toLowerCase().matchAll(/\p{L}+|\p{N}+/gu)) {
      const tok = m[0];
      if (/^\p{N}/u.test(tok)) bump(`n:${Math.min(tok.length, 12)}`);
      else if (tok.length > 1) bump(`w:${tok}`);
    }
  }
  for (const [feature, count] of counts) addHashedFeature(block, feature, Math.sqrt(count));
  return block;
}

/** Letters -> 'a', digits -> '9', runs collapsed, other characters kept; capped at 12 chars. */
export function valueShape(value: string): string {
  const shape = value
    .replace(/\p{L}+/gu, 'a')
    .replace(/\p{N}+/gu, '9')
    .replace(/\s+/g, ' ');
  return shape.slice(0, 12);
}

function addBlock(out: Float64Array, block: Float64Array, weight: number): void {
  let sq = 0;
  for (let i = 0; i < block.length; i++) sq += block[i] * block[i];
  if (sq === 0) return;
  const scale = weight / Math.sqrt(sq);
  for (let i = 0; i < block.length; i++) out[i] += block[i] * scale;
}

function toUnitFloat32(v: Float64Array): Float32Array {
  let sq = 0;
  for (let i = 0; i < v.length; i++) sq += v[i] * v[i];
  const out = new Float32Array(v.length);
  if (sq === 0) {
    // Only reachable if every block cancelled to zero, which hashing makes practically
    // impossible; fall back to a fixed unit vector rather than an unnormalisable one.
    out[0] = 1;
    return out;
  }
  const inv = 1 / Math.sqrt(sq);
  for (let i = 0; i < v.length; i++) out[i] = v[i] * inv;
  return out;
}
