/**
 * Text primitives shared by the vocabulary indexes and the question tokeniser. Both sides must
 * normalise identically, or an n-gram from the question never meets the key a name was filed under.
 */
import { foldCase } from '../text/index.js';

/**
 * Function words, question scaffolding, comparison and aggregation words. Comparison words are
 * consumed by operator detection; aggregation words name an operation, not a schema element.
 * Not here on purpose: "name", "id", "number", "year", "type" — they are common column names.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a an the this that these those there here it its they them their theirs he him his she her
  hers we us our ours you your yours i me my mine who whom whose which what whatever when where why how
  is are was were be been being am do does did done doing have has had having will would shall should
  can could may might must of in on at to from by with without for about into onto over under above
  below up down out off than then as per via within across along among between through during before
  after since until upon and or nor but not no yes if so also only just very too all any each every
  both either neither some such other another same own more most less least fewer fewest many much
  few several lot lots top list show find give get return display tell print provide retrieve see know
  want need please whats s t d ll re ve m
  greater larger bigger higher lower smaller older younger longer shorter above below equal equals
  exceed exceeds exceeding exceeded
  average avg mean maximum max minimum min total sum count counts counted
  highest lowest largest smallest biggest oldest youngest earliest latest longest shortest
  different distinct unique respective respectively corresponding overall
  ordered sorted sort descending ascending desc asc
  one ones thing things something anything everything`
    .split(/\s+/)
    .filter((w) => w !== ''),
);

/** Words that split n-gram windows: a name never spans a coordination. */
export const SEGMENT_BREAK_WORDS: ReadonlySet<string> = new Set(['and', 'or', 'nor', 'but', 'versus', 'vs']);

export type QuestionTokenKind = 'word' | 'number' | 'quoted' | 'break';

export interface QuestionToken {
  kind: QuestionTokenKind;
  /** Surface text (inside the quotes for `quoted`). */
  text: string;
  /** Case-folded text; for numbers the digits without thousands separators. */
  lower: string;
  /** Character offsets [start, end) in the question (quotes included for `quoted`). */
  start: number;
  end: number;
  /** Position in the token list. */
  index: number;
}

const QUOTED_RES: RegExp[] = [
  /"([^"]+)"/g,
  /“([^”]+)”/g,
  /«([^»]+)»/g,
  /(?<=^|[\s([{,:;=])'(.+?)'(?=$|[\s)\]},.;:?!])/g,
  /(?<=^|[\s([{,:;=])‘(.+?)[’'](?=$|[\s)\]},.;:?!])/g,
  /(?<=^|[\s([{,:;=])`(.+?)`(?=$|[\s)\]},.;:?!])/g,
];

// Numbers first (with thousands separators and decimals), then words (apostrophes and hyphens
// inside a word do not break it into separate tokens for window purposes), then any other
// non-space character, which is a window break unless it is an apostrophe/hyphen/underscore.
const TOKEN_RE = /(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?![\p{L}\p{N}])|([\p{L}\p{M}\p{N}]+)|(\S)/gu;
const NON_BREAKING = new Set(["'", '’', '-', '_', '‘', '`', '"']);

/**
 * Tokenise a question: quoted strings become single `quoted` tokens, numbers `number` tokens,
 * punctuation that ends a phrase (, ; : . ? ! parentheses, slashes) a `break` token.
 */
export function tokeniseQuestion(question: string): QuestionToken[] {
  const quoted: { start: number; end: number; text: string }[] = [];
  for (const re of QUOTED_RES) {
    re.lastIndex = 0;
    for (const m of question.matchAll(re)) {
      const start = m.index;
      const end = start + m[0].length;
      if (m[1].trim() === '' || quoted.some((q) => start < q.end && end > q.start)) continue;
      quoted.push({ start, end, text: m[1].trim() });
    }
  }
  quoted.sort((a, b) => a.start - b.start);

  const tokens: QuestionToken[] = [];
  const push = (kind: QuestionTokenKind, text: string, lower: string, start: number, end: number): void => {
    tokens.push({ kind, text, lower, start, end, index: tokens.length });
  };
  const scan = (from: number, to: number): void => {
    const re = new RegExp(TOKEN_RE.source, 'gu');
    const part = question.slice(from, to);
    for (const m of part.matchAll(re)) {
      const start = from + m.index;
      const end = start + m[0].length;
      if (m[1] !== undefined) push('number', m[1], m[1].replace(/,/g, ''), start, end);
      else if (m[2] !== undefined) push('word', m[2], foldCase(m[2]), start, end);
      else if (!NON_BREAKING.has(m[3])) push('break', m[3], m[3], start, end);
    }
  };
  let cursor = 0;
  for (const q of quoted) {
    scan(cursor, q.start);
    push('quoted', q.text, foldCase(q.text), q.start, q.end);
    cursor = q.end;
  }
  scan(cursor, question.length);
  return tokens;
}

/** Order-free key of a word bag: "name club" and "club name" meet. */
export function bagKey(words: readonly string[]): string {
  return [...new Set(words)].sort().join(' ');
}

/**
 * A question span that reads as a name, and so may be a cell of any size of column: a quoted
 * string, or capitalised words ("Columbus Crew", "Hulk"), possibly with numbers ("ACCT 211"),
 * not at the question's start (where every word is capitalised). A common lower-case word is a
 * cell of some large column somewhere in a lake ("sports" among airline names).
 */
export function readsAsName(span: readonly QuestionToken[]): boolean {
  if (span.length === 1 && span[0].kind === 'quoted') return true;
  if (span[0].index === 0) return false;
  let capitalised = false;
  for (const t of span) {
    if (t.kind === 'number') continue;
    if (t.kind !== 'word' || t.text[0] === t.text[0].toLowerCase()) return false;
    capitalised = true;
  }
  return capitalised;
}
