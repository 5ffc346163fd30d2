import type { QuestionToken } from './text.js';
import type { ValueOperator } from './schema.js';

/**
 * Comparison phrases that may precede a value, longest first within each operator. Matching runs
 * on the case-folded words just before the value, after dropping filler words ("the", "a").
 */
const PRECEDING: { words: string[]; operator: ValueOperator; pattern?: 'prefix' | 'suffix' | 'contains' }[] = [
  ...phrases('>=', ['at least', 'no less than', 'not less than', 'no fewer than', 'not fewer than', 'minimum of', 'since']),
  ...phrases('<=', ['at most', 'no more than', 'not more than', 'up to', 'maximum of', 'no later than']),
  ...phrases('>', [
    'greater than', 'more than', 'higher than', 'larger than', 'bigger than', 'later than', 'older than',
    'longer than', 'heavier than', 'exceeding', 'exceeds', 'exceed', 'above', 'over', 'after', 'beyond',
  ]),
  ...phrases('<', [
    'less than', 'fewer than', 'lower than', 'smaller than', 'earlier than', 'younger than', 'shorter than',
    'lighter than', 'below', 'under', 'before', 'beneath',
  ]),
  ...phrases('!=', ['not equal to', 'different from', 'other than', 'except', 'excluding', 'not', 'isn', 'aren']),
  ...phrases('like', ['starting with', 'starts with', 'start with', 'beginning with', 'begins with', 'begin with', 'prefix'], 'prefix'),
  ...phrases('like', ['ending with', 'ends with', 'end with', 'suffix'], 'suffix'),
  ...phrases('like', ['containing', 'contains', 'contain', 'including', 'includes', 'include', 'like', 'word', 'words', 'substring', 'phrase'], 'contains'),
];

function phrases(operator: ValueOperator, list: string[], pattern?: 'prefix' | 'suffix' | 'contains') {
  return list
    .map((p) => ({ words: p.split(' '), operator, pattern }))
    .sort((a, b) => b.words.length - a.words.length);
}

const FILLER = new Set(['the', 'a', 'an', 'value', 'values', 'of', 'is', 'be', 'equal', 'equals', 'to', 'exactly', 'than', 't']);

export interface DetectedOperator {
  operator: ValueOperator;
  /** For `like`: where the wildcard goes. */
  pattern?: 'prefix' | 'suffix' | 'contains';
  /** For `between`: index of the token holding the upper bound. */
  upperIndex?: number;
}

/** Operator for the value at `tokens[at]`, read from the words around it. */
export function detectOperator(tokens: readonly QuestionToken[], at: number): DetectedOperator {
  const before = precedingWords(tokens, at, 5);
  const prev = before[before.length - 1];
  // between X and Y / from X to Y over two values of the same kind.
  if (prev === 'between' || prev === 'from') {
    const joiner = tokens[at + 1];
    const upper = tokens[at + 2];
    if (
      joiner?.kind === 'word' &&
      (joiner.lower === 'and' || joiner.lower === 'to') &&
      upper &&
      upper.kind === tokens[at].kind &&
      (upper.kind === 'number' || upper.kind === 'quoted')
    ) {
      return { operator: 'between', upperIndex: upper.index };
    }
  }
  const next1 = tokens[at + 1];
  const next2 = tokens[at + 2];
  if (next1?.kind === 'word' && next1.lower === 'or' && next2?.kind === 'word') {
    if (['more', 'above', 'higher', 'greater', 'over', 'later', 'after'].includes(next2.lower)) return { operator: '>=' };
    if (['less', 'fewer', 'below', 'lower', 'under', 'earlier', 'before'].includes(next2.lower)) return { operator: '<=' };
  }
  const trimmed = [...before];
  while (trimmed.length > 0 && FILLER.has(trimmed[trimmed.length - 1])) {
    // "than" and "to" are fillers only after the phrase head was seen; keep them for matching.
    if (PRECEDING.some((p) => endsWith(trimmed, p.words))) break;
    trimmed.pop();
  }
  for (const p of PRECEDING) {
    if (endsWith(trimmed, p.words)) return { operator: p.operator, ...(p.pattern ? { pattern: p.pattern } : {}) };
  }
  return { operator: '=' };
}

function endsWith(words: readonly string[], tail: readonly string[]): boolean {
  if (tail.length > words.length) return false;
  const offset = words.length - tail.length;
  return tail.every((w, i) => words[offset + i] === w);
}

/** Up to `max` case-folded words before `at`, stopping at punctuation or another value. */
function precedingWords(tokens: readonly QuestionToken[], at: number, max: number): string[] {
  const out: string[] = [];
  for (let i = at - 1; i >= 0 && out.length < max; i--) {
    const t = tokens[i];
    if (t.kind !== 'word') break;
    out.unshift(t.lower);
  }
  return out;
}
