import { lemmatiseHeaderWord, splitHeaderWords } from '../text/index.js';
import { ABBREVIATIONS, STOPWORDS } from './header-words.js';

/** One weighted feature before IDF: 'w:<lemma>' for a word, 'g:<3-gram>' for a character 3-gram. */
export interface WeightedFeature {
  feature: string;
  weight: number;
}

/** Relative weight of a word's character 3-grams (as a block) against the word itself. */
export const GRAM_BLOCK_WEIGHT = 0.8;

/**
 * Lemmas of the words of a header or question: split, abbreviations expanded, function words
 * dropped (unless nothing else is left: a column may be called `from` or `to`), lemmatised.
 */
export function headerLemmas(text: string): string[] {
  const words: string[] = [];
  for (const w of splitHeaderWords(text)) {
    const expansion = Object.hasOwn(ABBREVIATIONS, w) ? ABBREVIATIONS[w] : undefined;
    if (expansion) words.push(...expansion.split(' '));
    else words.push(w);
  }
  const content = words.filter((w) => !STOPWORDS.has(w));
  return (content.length > 0 ? content : words).map(lemmatiseHeaderWord);
}

const wordFeatureCache = new Map<string, WeightedFeature[]>();

/**
 * The word feature plus its boundary-padded character 3-grams ('#id#' -> '#id', 'id#'), whose
 * weights are scaled so that the grams of one word together weigh GRAM_BLOCK_WEIGHT whatever
 * the word's length. Grams let 'playerid' partly meet 'player id' and 'cust' meet 'customer'.
 */
export function wordFeatures(lemma: string): WeightedFeature[] {
  const hit = wordFeatureCache.get(lemma);
  if (hit) return hit;
  const features: WeightedFeature[] = [{ feature: `w:${lemma}`, weight: 1 }];
  if (!/^\p{N}+$/u.test(lemma)) {
    const chars = Array.from(`#${lemma}#`);
    const grams: string[] = [];
    for (let i = 0; i + 3 <= chars.length; i++) grams.push(chars.slice(i, i + 3).join(''));
    const w = GRAM_BLOCK_WEIGHT / Math.sqrt(Math.max(grams.length, 1));
    for (const g of grams) features.push({ feature: `g:${g}`, weight: w });
  }
  if (wordFeatureCache.size >= 100_000) wordFeatureCache.clear();
  wordFeatureCache.set(lemma, features);
  return features;
}

/** Distinct features of a header, i.e. what a document-frequency table counts per header. */
export function headerFeatureSet(header: string): Set<string> {
  const set = new Set<string>();
  for (const lemma of headerLemmas(header)) for (const f of wordFeatures(lemma)) set.add(f.feature);
  return set;
}
