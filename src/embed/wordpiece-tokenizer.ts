import { BadInputError } from '../util/errors.js';

/**
 * Minimal BERT tokenizer (BasicTokenizer + WordPiece), enough for sentence-embedding models
 * exported with a vocab.txt: clean control characters, split CJK ideographs, optionally
 * lower-case and strip accents, split punctuation, then greedy longest-match WordPiece with
 * '##' continuations; [CLS] ... [SEP], truncated to maxLength.
 */
export interface WordPieceOptions {
  /** Uncased models (the common case) want lower-case, accent-stripped input. */
  lowercase?: boolean;
  /** Including [CLS] and [SEP] (default 128). */
  maxLength?: number;
}

const MAX_CHARS_PER_WORD = 100;

export class WordPieceTokenizer {
  readonly clsId: number;
  readonly sepId: number;
  readonly padId: number;
  readonly unkId: number;
  readonly lowercase: boolean;
  readonly maxLength: number;

  constructor(
    private readonly vocab: ReadonlyMap<string, number>,
    options: WordPieceOptions = {},
    /** For error messages: where the vocabulary came from. */
    source = 'vocab.txt',
  ) {
    const special = (token: string): number => {
      const id = vocab.get(token);
      if (id === undefined) throw new BadInputError(`${source}: missing special token ${token}`, { path: source });
      return id;
    };
    this.clsId = special('[CLS]');
    this.sepId = special('[SEP]');
    this.padId = special('[PAD]');
    this.unkId = special('[UNK]');
    this.lowercase = options.lowercase ?? true;
    this.maxLength = options.maxLength ?? 128;
    if (!Number.isInteger(this.maxLength) || this.maxLength < 3) {
      throw new BadInputError('WordPiece maxLength must be an integer >= 3', { field: 'maxLength' });
    }
  }

  /** vocab.txt: one token per line, id = line number. */
  static fromVocabText(text: string, options: WordPieceOptions = {}, source = 'vocab.txt'): WordPieceTokenizer {
    const vocab = new Map<string, number>();
    const lines = text.split(/\r?\n/);
    if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    lines.forEach((token, id) => {
      if (!vocab.has(token)) vocab.set(token, id);
    });
    return new WordPieceTokenizer(vocab, options, source);
  }

  /** Token ids of one text, with [CLS] and [SEP], at most maxLength long. */
  encode(text: string): number[] {
    const ids = [this.clsId];
    const budget = this.maxLength - 2;
    outer: for (const word of this.basicTokens(text)) {
      for (const id of this.wordPiece(word)) {
        if (ids.length - 1 >= budget) break outer;
        ids.push(id);
      }
    }
    ids.push(this.sepId);
    return ids;
  }

  /** BasicTokenizer: words and single punctuation characters. */
  basicTokens(text: string): string[] {
    let cleaned = '';
    for (const ch of text) {
      const cp = ch.codePointAt(0)!;
      if (cp === 0 || cp === 0xfffd || isControl(ch)) continue;
      if (isCjk(cp)) cleaned += ` ${ch} `;
      else cleaned += /\s/u.test(ch) ? ' ' : ch;
    }
    const out: string[] = [];
    for (let word of cleaned.split(' ')) {
      if (!word) continue;
      if (this.lowercase) word = word.toLowerCase().normalize('NFD').replace(/\p{Mn}/gu, '');
      let current = '';
      for (const ch of word) {
        if (isPunctuation(ch)) {
          if (current) out.push(current);
          out.push(ch);
          current = '';
        } else current += ch;
      }
      if (current) out.push(current);
    }
    return out;
  }

  /** Greedy longest-match-first; a word with an unmatchable piece becomes a single [UNK]. */
  wordPiece(word: string): number[] {
    const chars = Array.from(word);
    if (chars.length > MAX_CHARS_PER_WORD) return [this.unkId];
    const ids: number[] = [];
    let start = 0;
    while (start < chars.length) {
      let end = chars.length;
      let found: number | undefined;
      while (start < end) {
        const piece = (start > 0 ? '##' : '') + chars.slice(start, end).join('');
        found = this.vocab.get(piece);
        if (found !== undefined) break;
        end--;
      }
      if (found === undefined) return [this.unkId];
      ids.push(found);
      start = end;
    }
    return ids;
  }
}

function isControl(ch: string): boolean {
  if (ch === '\t' || ch === '\n' || ch === '\r') return false;
  return /[\p{Cc}\p{Cf}]/u.test(ch);
}

/** BERT counts all non-alphanumeric ASCII as punctuation, plus Unicode P* categories. */
function isPunctuation(ch: string): boolean {
  const cp = ch.codePointAt(0)!;
  if ((cp >= 33 && cp <= 47) || (cp >= 58 && cp <= 64) || (cp >= 91 && cp <= 96) || (cp >= 123 && cp <= 126)) {
    return true;
  }
  return /\p{P}/u.test(ch);
}

function isCjk(cp: number): boolean {
  return (
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x20000 && cp <= 0x2a6df) ||
    (cp >= 0x2a700 && cp <= 0x2b73f) ||
    (cp >= 0x2b740 && cp <= 0x2b81f) ||
    (cp >= 0x2b820 && cp <= 0x2ceaf) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x2f800 && cp <= 0x2fa1f)
  );
}
