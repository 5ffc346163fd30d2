/**
 * Per-column and per-table facts computed once at ingest, so that pair scoring is cheap.
 */
import { MinHash } from '../sketch/minhash.js';
import {
  FAMILY_INDEX,
  hasValueSketch,
  oneToOneKey,
  isJoinEligible,
  isKeyLike,
  typeFamily,
  valueSpecificity,
  type TypeFamily,
} from './columnTraits.js';
import { identifierTerms, isGenericToken, isNumberToken, tokeniseIdentifier } from './tokens.js';
import type { GraphColumn, GraphOptions, GraphTable } from './types.js';

export interface PreparedColumn {
  col: GraphColumn;
  table: PreparedTable;
  tokens: ReadonlySet<string>;
  /** Non-generic name tokens. */
  coreTokens: string[];
  /** True when every name token is generic (`id`, `name`, `code`, ...) or there are none. */
  genericOnly: boolean;
  /** Tokens joined, for edit similarity (`CountryCode` and `country_code` -> `countrycode`). */
  compactName: string;
  /** Tokens joined with spaces: a cache key for name-only similarities. */
  tokenKey: string;
  /** Interned number of tokenKey (same name, same number, for this process). */
  nameId: number;
  family: TypeFamily;
  familyIndex: number;
  /**
   * The family joins compare in: a text column whose values are all integer literals (ids kept
   * as text by a CSV writer) joins integer keys, since both sketch to the same value strings.
   */
  joinFamily: TypeFamily;
  joinFamilyIndex: number;
  keyLike: boolean;
  joinEligible: boolean;
  hasSketch: boolean;
  /** `oneToOneKey`: count and range of a unique integer column (null for other columns). */
  oneToOneKey: string | null;
  specificity: number;
  embedding: Float64Array | null;
}

export interface PreparedTable {
  table: GraphTable;
  /**
   * Table-name words (`identifierTerms`: a file's hash-like part and single letters dropped) without
   * digit-only tokens (`game_part_2` -> game, part; `Forms_297f151b` -> form).
   */
  nameTokens: ReadonlySet<string>;
  /** Table-name tokens without shard/copy words (`game_part1` -> game): compares shard names. */
  stemTokens: ReadonlySet<string>;
  /** Non-generic table-name tokens: the "key table name" evidence for joins. */
  coreNameTokens: string[];
  /**
   * Words that close a compound table-name token (`hero`, `power` of superhero, superpower): its
   * non-generic tails of 4+ letters after a head of 3+, so `order` is not one of `border`'s. A
   * column naming one refers to this table as if it named the whole word (`hero_id`).
   */
  compoundTails: ReadonlySet<string>;
  /** Columns in ordinal order (ties by id), so scoring never depends on input order. */
  columns: PreparedColumn[];
  /** Non-generic column-name tokens of all columns: what the header LSH indexes. */
  headerTokens: ReadonlySet<string>;
  /** Sorted column-name token lists, one per column: equal strings = identical headers. */
  headerShape: string;
}

/** Words that lake builders add to shard or copy names; not part of what the table is about. */
export const SHARD_WORDS: ReadonlySet<string> = new Set(['part', 'shard', 'chunk', 'split', 'piece', 'partition', 'copy']);

/** See `PreparedTable.compoundTails`. */
function compoundTails(word: string): string[] {
  const out: string[] = [];
  if (/\d/.test(word)) return out;
  for (let head = 3; word.length - head >= 4; head++) if (!isGenericToken(word.slice(head))) out.push(word.slice(head));
  return out;
}

/** MinHash of the header tokens; null when the header has no non-generic token. */
export function headerSignature(table: PreparedTable, numPerm: number): Uint32Array | null {
  if (table.headerTokens.size === 0) return null;
  const mh = new MinHash(numPerm);
  for (const t of table.headerTokens) mh.add(t);
  return mh.signature;
}

function normaliseEmbedding(e: ArrayLike<number> | undefined): Float64Array | null {
  if (!e || e.length === 0) return null;
  const out = Float64Array.from(e as ArrayLike<number>);
  let norm = 0;
  for (let i = 0; i < out.length; i++) norm += out[i] * out[i];
  norm = Math.sqrt(norm);
  if (!(norm > 0)) return null;
  // Inputs are meant to be L2-normalised already; renormalising makes cosine a dot product.
  for (let i = 0; i < out.length; i++) out[i] /= norm;
  return out;
}

const nameIds = new Map<string, number>();

/** Process-wide number for a column name's token list (keys the name-similarity cache). */
function internName(tokenKey: string): number {
  let id = nameIds.get(tokenKey);
  if (id === undefined) nameIds.set(tokenKey, (id = nameIds.size));
  return id;
}

export function prepareTable(table: GraphTable, opts: GraphOptions): PreparedTable {
  const nameTokens = new Set(identifierTerms(table.name).filter((t) => !isNumberToken(t)));
  const prepared: PreparedTable = {
    table,
    nameTokens,
    stemTokens: new Set([...nameTokens].filter((t) => !SHARD_WORDS.has(t))),
    coreNameTokens: [...nameTokens].filter((t) => !isGenericToken(t)),
    compoundTails: new Set([...nameTokens].flatMap(compoundTails)),
    columns: [],
    headerTokens: new Set(),
    headerShape: '',
  };
  const cols = [...table.columns].sort((a, b) => a.ordinal - b.ordinal || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const headerTokens = new Set<string>();
  const shapes: string[] = [];
  for (const col of cols) {
    const tokenList = tokeniseIdentifier(col.name);
    const tokens = new Set(tokenList);
    for (const t of tokens) if (!isGenericToken(t)) headerTokens.add(t);
    shapes.push([...tokens].sort().join('_'));
    const coreTokens = [...tokens].filter((t) => !isGenericToken(t));
    const family = typeFamily(col.logicalType);
    const joinFamily = family === 'text' && holdsIntegerText(col) ? 'numeric' : family;
    prepared.columns.push({
      col,
      table: prepared,
      tokens,
      coreTokens,
      genericOnly: coreTokens.length === 0,
      compactName: tokenList.join(''),
      tokenKey: tokenList.join(' '),
      nameId: internName(tokenList.join(' ')),
      family,
      familyIndex: FAMILY_INDEX[family],
      joinFamily,
      joinFamilyIndex: FAMILY_INDEX[joinFamily],
      keyLike: isKeyLike(col, opts),
      joinEligible: isJoinEligible(col, opts),
      hasSketch: hasValueSketch(col),
      oneToOneKey: oneToOneKey(col, opts),
      specificity: joinFamily === family ? valueSpecificity(col) : integerTextSpecificity(col),
      embedding: normaliseEmbedding(col.embedding),
    });
  }
  prepared.headerTokens = headerTokens;
  prepared.headerShape = shapes.sort().join('|');
  return prepared;
}

/** Integers kept as text are as specific as the numbers: only long ones (4 digits 0.5, 6+ digits 1). */
function integerTextSpecificity(col: GraphColumn): number {
  const digits = col.avgLength;
  return digits < 4 ? 0 : Math.min(1, (digits - 2) / 4);
}

/** Every sampled value is an integer literal (`42`, `-7`, no leading zeros: `007` is a code, not a number). */
function holdsIntegerText(col: GraphColumn): boolean {
  return col.sampleValues.length > 0 && col.sampleValues.every((v) => /^\s*-?(0|[1-9]\d{0,17})\s*$/.test(v));
}

export function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** Header-embedding evidence in [0,1]: 0 at or below the cosine floor, 1 at cosine 1. */
export function embeddingEvidence(a: PreparedColumn, b: PreparedColumn, opts: GraphOptions): number {
  if (!a.embedding || !b.embedding || a.embedding.length !== b.embedding.length) return 0;
  const cos = dot(a.embedding, b.embedding);
  const x = (cos - opts.embeddingCosFloor) / (1 - opts.embeddingCosFloor);
  return x <= 0 ? 0 : x >= 1 ? 1 : x;
}
