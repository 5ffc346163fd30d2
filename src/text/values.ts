import { foldCase } from './identifiers.js';

/**
 * Cell values as the value index sees them. The catalog files a column's values under one form
 * and the search looks a question's n-grams up under the same form: both sides call these, so
 * "AIB", "aib" and " Aib. " meet, and "Computer Science" is hit by the question's matching 2-gram.
 */

const WORD_RE = /\d+(?:\.\d+)?(?![\p{L}\p{N}])|[\p{L}\p{N}]+/gu;

/** Canonical form of a cell value or question n-gram: its words, case and accents folded, one space apart (a decimal number stays one word). */
export function normaliseValue(text: string): string {
  return (foldCase(text).match(WORD_RE) ?? []).join(' ');
}

/**
 * Longest value, in words, that the catalog keeps a hash of: a question names an entity ("Hunter
 * Zolomon", "Fast As a Shark"), not a sentence of a free-text column.
 */
export const MAX_HASHED_VALUE_WORDS = 8;

/**
 * The hash the catalog keeps of a cell value beyond a column's stored top values, and that a
 * lookup computes for a question n-gram: 52 bits of two multiplicative hashes (FNV-1a and a
 * Murmur-style mix) over the normalised form, exact in a double (a lookup in a lake of a million
 * distinct values meets a colliding one with a chance of about 1 in 4.5 billion: 10^6 / 2^52).
 * Undefined for a value with no word or more than `MAX_HASHED_VALUE_WORDS`.
 */
export function valueHash(text: string): number | undefined {
  return hashValueForm(normaliseValue(text));
}

/** `valueHash` of a text already in its `normaliseValue` form (the value index has it at hand). */
export function hashValueForm(key: string): number | undefined {
  if (key === '') return undefined;
  let words = 1;
  for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) === 32 && ++words > MAX_HASHED_VALUE_WORDS) return undefined;
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ key.length;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  return (h1 >>> 0) * 2 ** 20 + ((h2 >>> 0) >>> 12);
}
