/**
 * Plural folding by suffix rules. Three strengths, each kept by the consumer whose results were
 * built with it (README.md): `singularise` for the graph's join tokens, `foldPlural` (crude on
 * purpose) for the lexical baselines, `foldUnknownPlural` after wink-nlp for the built-in
 * embedder. The question side's `ruleLemma` (lemmatiser.ts) also folds verb forms.
 */

const SINGULAR_IRREGULAR: Record<string, string> = {
  people: 'person',
  children: 'child',
  men: 'man',
  women: 'woman',
  movies: 'movie',
  series: 'series',
  species: 'species',
  news: 'news',
  indices: 'index',
  buses: 'bus',
  viruses: 'virus',
  focuses: 'focus',
  addresses: 'address',
};

/** Simple English singular: enough that `players` ~ `player`, `cities` ~ `city`, `class` stays. */
export function singularise(token: string): string {
  // hasOwn: a token like "constructor" must not find Object.prototype members.
  const irregular = Object.hasOwn(SINGULAR_IRREGULAR, token) ? SINGULAR_IRREGULAR[token] : undefined;
  if (irregular) return irregular;
  if (token.length <= 3 || !/^\p{L}+$/u.test(token)) return token;
  if (token.endsWith('ies')) return token.slice(0, -3) + 'y';
  if (/(ss|us|is|ics|ias)$/.test(token)) return token;
  // `-us` nouns (campus, census, bonus): a letter that ends no `-use` word comes before the `us`,
  // where house, cause, abuse, excuse and muse keep their e. Until then `Campuses` was `campuse`
  // and never met a `Campus` column or question word.
  if (/[ptngxsi]uses$/.test(token)) return token.slice(0, -2);
  if (/(sses|xes|zes|ches|shes)$/.test(token)) return token.slice(0, -2);
  if (token.endsWith('s')) return token.slice(0, -1);
  return token;
}

/**
 * Folds an English plural to its singular with suffix rules only (`singers` -> singer,
 * `countries` -> country, `matches` -> match), applied alike to questions and names so the two
 * meet; words of 3 letters or fewer and `-ss` words are kept. Crude on purpose (`status` ->
 * `statu` on both sides is harmless): it is what lets "How many singers" find table `singer`.
 */
export function foldPlural(t: string): string {
  if (t.length <= 3) return t;
  if (t.endsWith('ies')) return `${t.slice(0, -3)}y`;
  if (/(?:ches|shes|sses|xes)$/.test(t)) return t.slice(0, -2);
  if (t.endsWith('s') && !t.endsWith('ss')) return t.slice(0, -1);
  return t;
}

/** Words that end in s but are not plurals (or whose stripped form would be misleading). */
const KEEP_TRAILING_S = new Set([
  'always', 'aws', 'bus', 'cms', 'dns', 'does', 'gas', 'gps', 'has', 'his', 'ios', 'its', 'kudos',
  'lens', 'news', 'perhaps', 'plus', 'series', 'sms', 'species', 'this', 'thus', 'was', 'whereas', 'yes',
]);

/** Rule-based plural folding for words wink did not change: ids -> id, uuids -> uuid, skus -> sku. */
export function foldUnknownPlural(word: string): string {
  if (word.length < 3 || KEEP_TRAILING_S.has(word) || !/^[a-z]+s$/.test(word)) return word;
  if (/(ss|is)$/.test(word)) return word;
  if (/us$/.test(word) && word.length > 4) return word; // status, census, bonus; but skus -> sku
  if (/ies$/.test(word) && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(ches|shes|xes|zes|sses)$/.test(word)) return word.slice(0, -2);
  return word.slice(0, -1);
}
