import { createRequire } from 'node:module';
import { ErrorCode, GraftError } from '../util/errors.js';

/**
 * English lemmatiser for single header/query words, backed by wink-nlp's lite English model
 * (loads in ~0.5 s, once per process, on first use). Words are lemmatised one at a time, out of
 * sentence context, so a header word and the same word inside a question always get the same
 * lemma. wink leaves unknown plurals alone ("ids", "uuids"), so a small suffix rule finishes
 * the job for words it did not change.
 */

type LemmaFn = (word: string) => string;

let winkLemma: LemmaFn | null = null;

function loadWink(): LemmaFn {
  if (winkLemma) return winkLemma;
  const require = createRequire(import.meta.url);
  try {
    const winkNLP = require('wink-nlp') as typeof import('wink-nlp').default;
    const model = require('wink-eng-lite-web-model') as import('wink-nlp').Model;
    // 'pos' is the only pipe lemmas need; skipping sbd/negation/sentiment/ner keeps it fast.
    const nlp = winkNLP(model, ['pos']);
    const its = nlp.its;
    winkLemma = (word) => {
      // The published types mistype its.lemma for the lite model; the call is the documented one.
      const lemmas = nlp.readDoc(word).tokens().out(its.lemma as never) as unknown as string[];
      return lemmas.length === 1 && lemmas[0] ? lemmas[0].toLowerCase() : word;
    };
    return winkLemma;
  } catch (err) {
    throw new GraftError(
      ErrorCode.INTERNAL,
      `cannot load wink-nlp / wink-eng-lite-web-model for the built-in embedder: ${(err as Error).message}`,
    );
  }
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

const cache = new Map<string, string>();
const CACHE_LIMIT = 200_000;

/** Lemma of one lower-case word. Digits-only and one-letter words are returned unchanged. */
export function lemmatise(word: string): string {
  const hit = cache.get(word);
  if (hit !== undefined) return hit;
  let lemma = word;
  if (word.length > 1 && /\p{L}/u.test(word)) {
    const wink = loadWink()(word);
    lemma = wink === word ? foldUnknownPlural(word) : wink;
  }
  // Clearing the cache only costs time; lemmas do not depend on what was cached.
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(word, lemma);
  return lemma;
}
