import { describe, expect, it } from 'vitest';
import {
  MAX_HASHED_VALUE_WORDS,
  oneEditSpellings,
  NAME_INDEX_SPLIT,
  defaultLemmatiser,
  foldCase,
  foldPlural,
  foldUnknownPlural,
  isNoiseToken,
  lemmatiseHeaderWord,
  ruleLemma,
  singularise,
  normaliseValue,
  splitHeaderWords,
  valueHash,
  hashValueForm,
  splitIdentifier,
} from '../../src/text/index.js';

describe('splitIdentifier', () => {
  it('splits snake, kebab, camel, acronyms and letter/digit runs by default', () => {
    expect(splitIdentifier('singer_in_concert')).toEqual(['singer', 'in', 'concert']);
    expect(splitIdentifier('PlayerID')).toEqual(['player', 'id']);
    expect(splitIdentifier('HTTPServerLog')).toEqual(['http', 'server', 'log']);
    expect(splitIdentifier('carMakers2')).toEqual(['car', 'makers', '2']);
    expect(splitIdentifier('home-team id')).toEqual(['home', 'team', 'id']);
    expect(splitIdentifier('Café_Owner')).toEqual(['café', 'owner']);
    expect(splitIdentifier('__')).toEqual([]);
  });

  it('keeps digits with letters, folds accents and drops hash-like parts for the name index', () => {
    expect(splitIdentifier('car_makers', NAME_INDEX_SPLIT)).toEqual(['car', 'makers']);
    expect(splitIdentifier('firstName', NAME_INDEX_SPLIT)).toEqual(['first', 'name']);
    expect(splitIdentifier('release-year.v2', NAME_INDEX_SPLIT)).toEqual(['release', 'year', 'v2']);
    expect(splitIdentifier('Café Owner', NAME_INDEX_SPLIT)).toEqual(['cafe', 'owner']);
    expect(splitIdentifier('orders_7f3a9c1e', NAME_INDEX_SPLIT)).toEqual(['orders']);
    expect(splitIdentifier('covid19_cases_7f3a9c1e', NAME_INDEX_SPLIT)).toEqual(['covid19', 'cases']);
    // nothing but noise: the noise is kept rather than returning no words
    expect(splitIdentifier('7f3a9c1e', NAME_INDEX_SPLIT)).toEqual(['7f3a9c1e']);
    expect(splitIdentifier('orders_7f3a9c1e')).toEqual(['orders', '7', 'f', '3', 'a', '9', 'c', '1', 'e']);
  });

  it('tells hash-like parts from words', () => {
    expect(['7f3a9c1e', 'a1b2c3d4e5', 'deadbeef01', '48d1c03c', 'a3f9c1', 'x9k2b'].map(isNoiseToken)).toEqual([true, true, true, true, true, true]);
    expect(['player', 'v2', 'deadbeef', '2010'].map(isNoiseToken)).toEqual([false, false, false, false]);
    // A word with a number before or after it is no hash.
    expect(['covid19', 'line1', 'address2', 'part1', '7days', 'top100'].map(isNoiseToken)).toEqual([false, false, false, false, false, false]);
  });
});

describe('splitHeaderWords (the built-in embedder)', () => {
  it('keeps acronym plurals whole where splitIdentifier does not', () => {
    expect(splitHeaderWords('userIDs')).toEqual(['user', 'ids']);
    expect(splitIdentifier('userIDs')).toEqual(['user', 'i', 'ds']);
    expect(splitHeaderWords('address2-line')).toEqual(['address', '2', 'line']);
    expect(splitHeaderWords('ﬁle_name')).toEqual(['file', 'name']); // NFKC unfolds the ligature
  });
});

describe('plural folding', () => {
  it('singularise: irregulars, -ies, -es, keeps -ss/-us and short words', () => {
    expect(['players', 'cities', 'classes', 'matches', 'status', 'people', 'bus', 'gas', '2010s'].map(singularise)).toEqual([
      'player', 'city', 'class', 'match', 'status', 'person', 'bus', 'gas', '2010s',
    ]);
  });

  it('singularise: -us nouns lose -es, -use nouns only -s', () => {
    const plurals = ['campuses', 'bonuses', 'censuses', 'statuses', 'buses', 'viruses', 'houses', 'causes', 'courses', 'nurses', 'excuses'];
    expect(plurals.map(singularise)).toEqual(['campus', 'bonus', 'census', 'status', 'bus', 'virus', 'house', 'cause', 'course', 'nurse', 'excuse']);
  });

  it('foldPlural is crude on purpose (status -> statu)', () => {
    expect(['singers', 'countries', 'matches', 'class', 'age', 'status'].map(foldPlural)).toEqual([
      'singer', 'country', 'match', 'class', 'age', 'statu',
    ]);
  });

  it('foldUnknownPlural folds what wink leaves alone', () => {
    expect(['ids', 'uuids', 'skus', 'status', 'news', 'boxes'].map(foldUnknownPlural)).toEqual([
      'id', 'uuid', 'sku', 'status', 'news', 'box',
    ]);
  });
});

describe('lemmatisers', () => {
  it('ruleLemma singularises plurals conservatively and folds regular verbs', () => {
    expect(['students', 'countries', 'addresses', 'matches', 'status', 'gpa', 'people', 'analyses'].map(ruleLemma)).toEqual([
      'student', 'country', 'address', 'match', 'status', 'gpa', 'person', 'analysis',
    ]);
    expect(['studied', 'running', 'played'].map(ruleLemma)).toEqual(['study', 'run', 'play']);
  });

  it('the header lemma and the question-side lemma share wink but keep their own rules', () => {
    expect(defaultLemmatiser().engine).toBe('wink');
    expect(lemmatiseHeaderWord('players')).toBe('player');
    expect(defaultLemmatiser().lemma('players')).toBe('player');
    expect(lemmatiseHeaderWord('ids')).toBe('id'); // wink leaves it, the suffix rule folds it
    expect(defaultLemmatiser().lemma('people')).toBe('person');
    expect(lemmatiseHeaderWord('2010')).toBe('2010');
  });

  it('foldCase lower-cases and strips diacritics', () => {
    expect(foldCase('Zoë ÉCOLE')).toBe('zoe ecole');
  });
});

describe('words that name Object.prototype members', () => {
  it('lemmatise to strings (constructor, constructors, tostring)', () => {
    for (const lemma of [ruleLemma, (w: string) => defaultLemmatiser().lemma(w), lemmatiseHeaderWord]) {
      expect(lemma('constructor')).toBe('constructor');
      expect(lemma('constructors')).toBe('constructor');
      expect(typeof lemma('tostring')).toBe('string');
      expect(typeof lemma('__proto__')).toBe('string');
    }
  });
});

describe('value forms and hashes (what the catalog files cells under, and a lookup computes)', () => {
  it('gives a value the same form and hash however the question spells it', () => {
    expect(normaliseValue(' Café-Noir, Ltd. ')).toBe('cafe noir ltd');
    expect(valueHash('Hunter Zolomon')).toBe(valueHash('  hunter   ZOLOMON!'));
    expect(valueHash('ACCT-211')).toBe(valueHash('acct 211'));
    // The value index hashes the form it already computed: the same hash.
    expect(hashValueForm(normaliseValue(' Café-Noir, Ltd. '))).toBe(valueHash(' Café-Noir, Ltd. '));
    expect(hashValueForm('')).toBeUndefined();
  });

  it('tells values apart in 52 bits, and has none for an empty value or a sentence', () => {
    const words = Array.from({ length: 2000 }, (_, i) => `value ${i}`);
    const hashes = words.map((w) => valueHash(w)!);
    expect(new Set(hashes).size).toBe(words.length);
    for (const h of hashes) expect(Number.isSafeInteger(h) && h >= 0 && h < 2 ** 52).toBe(true);
    expect(valueHash('Hulk')).not.toBe(valueHash('hulk 2'));
    expect(valueHash(' .,; ')).toBeUndefined();
    const long = Array.from({ length: MAX_HASHED_VALUE_WORDS + 1 }, (_, i) => `w${i}`).join(' ');
    expect(valueHash(long)).toBeUndefined();
    expect(valueHash(long.split(' ').slice(1).join(' '))).toBeDefined();
  });
});

describe('oneEditSpellings', () => {
  it("holds Damerau's four slips of a word, once each, and never the word", () => {
    const spellings = oneEditSpellings('cat');
    expect(spellings).toContain('at'); // a letter dropped
    expect(spellings).toContain('act'); // two neighbours swapped
    expect(spellings).toContain('cart'); // a letter added
    expect(spellings).toContain('cats'); // ... at the end
    expect(spellings).toContain('bat'); // a letter changed
    expect(spellings).not.toContain('cat');
    expect(spellings).not.toContain('tac'); // two slips
    expect(new Set(spellings).size).toBe(spellings.length);
    // n + (n - 1) + 26 (n + 1) + 25 n strings before duplicates are dropped: at most 54n + 25.
    expect(spellings.length).toBeLessThanOrEqual(54 * 3 + 25);
    expect(oneEditSpellings('intellegence')).toContain('intelligence');
  });
});
