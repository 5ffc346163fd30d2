import { isNoiseToken, singularise, splitIdentifier } from '../text/index.js';
import { memoInto } from '../util/boundedMemo.js';

/**
 * Identifier tokens: the name evidence that joins and unions rest on. Splitting and plural
 * folding come from src/text (`splitIdentifier`, `singularise`).
 */

/**
 * Tokens that name a role rather than a thing: sharing only these says nothing about two
 * columns being related (every table has an `id`, many a `name`).
 */
export const GENERIC_TOKENS: ReadonlySet<string> = new Set([
  'id', 'key', 'code', 'no', 'nr', 'num', 'number', 'name', 'type', 'value', 'pk', 'fk', 'uid',
  'uuid', 'idx', 'ref', 'val',
]);

/** Weight of a generic token in weighted token overlaps (other tokens weigh 1). */
export const GENERIC_TOKEN_WEIGHT = 0.5;

/**
 * Split an identifier into lower-case singular tokens: snake_case, kebab-case, spaces,
 * camelCase (`CountryCode`), acronyms (`HTTPServer` -> http, server) and letter/digit
 * boundaries (`game_part1` -> game, part, 1).
 */
export function tokeniseIdentifier(name: string): string[] {
  // A copy: callers may change the list they get.
  return [...memoInto(tokenCache, name, TOKEN_CACHE_MAX, () => tokenise(name))];
}

/** Lake headers repeat (`id`, `name`, ...): memoise tokenisation. */
const tokenCache = new Map<string, string[]>();
const TOKEN_CACHE_MAX = 100_000;

function tokenise(name: string): string[] {
  return splitIdentifier(name).map(singularise);
}

/**
 * The words of a name, hash-like parts (`singer_48d1c03c`, `orders-7f3a9c1e`: `isNoiseToken`)
 * dropped before splitting and single letters after, so a file's content hash is no word of its
 * table's name: `Forms_297f151b` is `form`, not form, f, b.
 */
export function identifierTerms(name: string): string[] {
  const out: string[] = [];
  for (const part of name.split(/[^\p{L}\p{N}]+/u)) {
    if (part === '' || isNoiseToken(part.toLowerCase())) continue;
    for (const t of tokeniseIdentifier(part)) if (t.length > 1 || /\d/.test(t)) out.push(t);
  }
  return out;
}

/** A token that is a number (`2` of `Code2`, `2010`): no word a question or a synonym can name. */
export function isNumberToken(token: string): boolean {
  return /^\p{N}+$/u.test(token);
}

export function isGenericToken(token: string): boolean {
  return GENERIC_TOKENS.has(token);
}

export function tokenWeight(token: string): number {
  return GENERIC_TOKENS.has(token) ? GENERIC_TOKEN_WEIGHT : 1;
}

/** Weighted Jaccard of two token sets (generic tokens weigh GENERIC_TOKEN_WEIGHT). */
export function weightedTokenJaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let inter = 0;
  let union = 0;
  for (const t of a) {
    const w = tokenWeight(t);
    union += w;
    if (b.has(t)) inter += w;
  }
  for (const t of b) if (!a.has(t)) union += tokenWeight(t);
  return union === 0 ? 0 : inter / union;
}

/** Levenshtein distance (two-row DP; identifiers are short). */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let prev = new Array<number>(b.length + 1);
  let cur = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const sub = prev[j - 1] + (ca === b.charCodeAt(j - 1) ? 0 : 1);
      cur[j] = Math.min(sub, prev[j] + 1, cur[j - 1] + 1);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length];
}

/** 1 - edit distance / longer length, in [0,1]. */
export function editSimilarity(a: string, b: string): number {
  const len = Math.max(a.length, b.length);
  return len === 0 ? 1 : 1 - editDistance(a, b) / len;
}
