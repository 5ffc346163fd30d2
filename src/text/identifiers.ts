/**
 * Identifier and name splitting: the one place that turns `PlayerID_of-team`, `HTTPServerLog`,
 * `game_part1` or `Café Owner` into lower-case words. Each consumer keeps the splitting its stored
 * or measured results were built with (see README.md): the graph's join tokens and the lexical
 * baselines split letter/digit runs, the intent's name index keeps them and folds accents, the
 * built-in embedder's header words (baked into every stored `builtin-hash-v1` vector) follow their
 * own word pattern.
 */

export interface SplitOptions {
  /** Split at letter/digit boundaries (`game_part1` -> game, part, 1). Default true. */
  splitDigits?: boolean;
  /** Strip diacritics (NFKD, marks removed) before splitting (`Café` -> cafe). Default false. */
  foldDiacritics?: boolean;
  /**
   * Drop machine-made parts (`isNoiseToken`: hashes, build ids), unless nothing else is left.
   * Default false.
   */
  dropNoise?: boolean;
}

/**
 * How the question side (intent's name index, decomposition, labels) files names: accents folded,
 * `addr2line` stays one word, hash-like parts dropped.
 */
export const NAME_INDEX_SPLIT: Readonly<SplitOptions> = { splitDigits: false, foldDiacritics: true, dropNoise: true };

/** Strip diacritics: NFKD, then combining marks removed (`Café` -> `Cafe`). */
export function stripDiacritics(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '');
}

/** Lower-case, strip diacritics. */
export function foldCase(text: string): string {
  return stripDiacritics(text).toLowerCase();
}

/**
 * Split an identifier into lower-case words: snake_case, kebab-case, dotted, spaced,
 * camelCase/PascalCase, acronyms (`HTTPServer` -> http, server) and, unless `splitDigits: false`,
 * letter/digit boundaries (`carMakers2` -> car, makers, 2).
 */
export function splitIdentifier(name: string, options: Readonly<SplitOptions> = {}): string[] {
  let spaced = options.foldDiacritics ? stripDiacritics(name) : name;
  spaced = spaced.replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2').replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2');
  if (options.splitDigits !== false) {
    spaced = spaced.replace(/(\p{L})(\p{N})/gu, '$1 $2').replace(/(\p{N})(\p{L})/gu, '$1 $2');
  }
  const tokens = spaced.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  if (!options.dropNoise) return tokens;
  const words = tokens.filter((t) => !isNoiseToken(t));
  return words.length > 0 ? words : tokens;
}

/**
 * Machine-made name parts that are not words: content hashes, build ids, uuids segments
 * (`orders_7f3a9c1e.parquet`, `export_a1b2c3d4e5`). Letters and digits interleaved over 5+
 * characters (three runs or more), or 8+ hex digits. Lake files carry these routinely; matching
 * must see past them. A word with a number before or after it is a word (`covid19`, `line1`,
 * `address2`, `7days`): one run of letters and one of digits.
 */
export function isNoiseToken(token: string): boolean {
  if (token.length >= 5 && /\d/.test(token) && /[a-z]/.test(token) && (token.match(/[a-z]+|\d+/g) ?? []).length >= 3) return true;
  return token.length >= 8 && /^[0-9a-f]+$/.test(token) && /\d/.test(token);
}

const HEADER_WORD = /\p{Lu}+s(?!\p{Ll})|\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+|\p{Lu}+|\p{N}+|\p{L}+/gu;

/**
 * The built-in embedder's header words: like `splitIdentifier` but NFKC-normalised and with
 * acronym plurals kept whole (`userIDs` -> user, ids; `splitIdentifier` gives user, i, ds).
 * Works the same for column headers and for question text. Kept apart from `splitIdentifier`
 * because every stored `builtin-hash-v1` vector was hashed from these words: changing them means
 * a new embedder id and re-embedding every catalog.
 */
export function splitHeaderWords(text: string): string[] {
  const words: string[] = [];
  for (const m of text.normalize('NFKC').matchAll(HEADER_WORD)) words.push(m[0].toLowerCase());
  return words;
}
