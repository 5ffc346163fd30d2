import { createRequire } from 'node:module';
import { memoInto } from '../util/boundedMemo.js';
import { ErrorCode, GraftError } from '../util/errors.js';
import { foldUnknownPlural } from './plurals.js';

/**
 * English lemmas of single words, out of sentence context: a header word and the same word in a
 * question always get the same lemma. One wink-nlp model (wink-eng-lite-web-model, ~0.3-0.5 s to
 * load, once per process, on first use) serves two policies, kept apart because their results
 * are stored or measured (README.md):
 * - `lemmatiseHeaderWord`: the built-in embedder's (baked into `builtin-hash-v1` vectors); wink,
 *   then `foldUnknownPlural` for words wink left alone; throws if wink cannot load.
 * - `defaultLemmatiser()`: the question side's (intent); irregular forms first, then wink, else
 *   suffix rules (`ruleLemma`); falls back to the rules if wink cannot load.
 */

interface WinkDoc {
  tokens(): { out(what: unknown): string[] };
}
interface WinkNlp {
  readDoc(text: string): WinkDoc;
  its: { lemma: unknown };
}

let wink: WinkNlp | undefined;
let winkError: Error | undefined;

/** The shared wink-nlp instance; throws (every time, with the first cause) if it cannot load. */
function loadWink(): WinkNlp {
  if (wink) return wink;
  if (winkError) throw winkError;
  try {
    const require = createRequire(import.meta.url);
    const winkNLP = require('wink-nlp') as (model: unknown, pipe?: string[]) => WinkNlp;
    const model = require('wink-eng-lite-web-model') as unknown;
    // 'pos' is the only pipe lemmas need; skipping sbd/negation/sentiment/ner keeps it fast.
    wink = winkNLP(model, ['pos']);
    return wink;
  } catch (err) {
    winkError = err as Error;
    throw winkError;
  }
}

/** wink's lemmas of one word: usually one; some words split ("cannot"). */
function winkLemmas(nlp: WinkNlp, word: string): string[] {
  // The published types mistype its.lemma for the lite model; the call is the documented one.
  return nlp.readDoc(word).tokens().out(nlp.its.lemma);
}

const headerCache = new Map<string, string>();
const HEADER_CACHE_LIMIT = 200_000;

/**
 * The built-in embedder's lemma of one lower-case word. Digits-only and one-letter words are
 * returned unchanged. Throws GraftError(INTERNAL) if wink-nlp cannot load: the embedder's vectors
 * are defined by wink's lemmas, a rule fallback would silently make incompatible vectors.
 */
export function lemmatiseHeaderWord(word: string): string {
  // Clearing the cache only costs time; lemmas do not depend on what was cached.
  return memoInto(headerCache, word, HEADER_CACHE_LIMIT, () => headerLemma(word));
}

function headerLemma(word: string): string {
  let lemma = word;
  if (word.length > 1 && /\p{L}/u.test(word)) {
    let nlp: WinkNlp;
    try {
      nlp = loadWink();
    } catch (err) {
      throw new GraftError(
        ErrorCode.INTERNAL,
        `cannot load wink-nlp / wink-eng-lite-web-model for the built-in embedder: ${(err as Error).message}`,
      );
    }
    const lemmas = winkLemmas(nlp, word);
    const winkLemma = lemmas.length === 1 && lemmas[0] ? lemmas[0].toLowerCase() : word;
    lemma = winkLemma === word ? foldUnknownPlural(word) : winkLemma;
  }
  return lemma;
}

/**
 * Word -> lemma, context-free (the question side's policy). Question words and identifier words
 * go through the same function (one word at a time, cached), so "players" in a question and
 * "players" in a table name always meet, whatever part of speech a tagger would give them in
 * context.
 */
export interface Lemmatiser {
  readonly engine: 'wink' | 'rules';
  lemma(word: string): string;
}

const IRREGULAR: Record<string, string> = {
  people: 'person',
  men: 'man',
  women: 'woman',
  children: 'child',
  mice: 'mouse',
  geese: 'goose',
  feet: 'foot',
  teeth: 'tooth',
  indices: 'index',
  matrices: 'matrix',
  vertices: 'vertex',
  criteria: 'criterion',
  phenomena: 'phenomenon',
  analyses: 'analysis',
  theses: 'thesis',
  crises: 'crisis',
  statuses: 'status',
  buses: 'bus',
  series: 'series',
  species: 'species',
  news: 'news',
  was: 'be',
  were: 'be',
  is: 'be',
  are: 'be',
  has: 'have',
  had: 'have',
  did: 'do',
  does: 'do',
};

/** hasOwn: "constructor" (Formula 1's constructors) must not find Object.prototype's members. */
function irregularLemma(w: string): string | undefined {
  return Object.hasOwn(IRREGULAR, w) ? IRREGULAR[w] : undefined;
}

/** Suffix rules for plurals and regular verb forms; deliberately conservative. */
export function ruleLemma(word: string): string {
  const w = word.toLowerCase();
  const irregular = irregularLemma(w);
  if (irregular) return irregular;
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (/(ss|us|is|ous|ics)$/.test(w)) return w;
  if (w.endsWith('ies') && w.length > 4) return `${w.slice(0, -3)}y`;
  if (/(s|x|z|ch|sh)es$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('s')) return w.slice(0, -1);
  if (w.endsWith('ied') && w.length > 4) return `${w.slice(0, -3)}y`;
  if (w.endsWith('ing') && w.length > 5) return undouble(w.slice(0, -3));
  if (w.endsWith('ed') && w.length > 4) return undouble(w.slice(0, -2));
  return w;
}

function undouble(stem: string): string {
  return /([bdgklmnprt])\1$/.test(stem) ? stem.slice(0, -1) : stem;
}

class RuleLemmatiser implements Lemmatiser {
  readonly engine = 'rules' as const;
  private readonly cache = new Map<string, string>();
  lemma(word: string): string {
    const w = word.toLowerCase();
    let out = this.cache.get(w);
    if (out === undefined) {
      out = ruleLemma(w);
      this.cache.set(w, out);
    }
    return out;
  }
}

class WinkLemmatiser implements Lemmatiser {
  readonly engine = 'wink' as const;
  private readonly cache = new Map<string, string>();
  constructor(private readonly nlp: WinkNlp) {}
  lemma(word: string): string {
    const w = word.toLowerCase();
    let out = this.cache.get(w);
    if (out === undefined) {
      out = this.compute(w);
      this.cache.set(w, out);
    }
    return out;
  }
  private compute(w: string): string {
    if (/\d/.test(w) || w.length <= 2) return w;
    const irregular = irregularLemma(w);
    if (irregular) return irregular;
    const lemmas = winkLemmas(this.nlp, w);
    // wink splits some words ("cannot"); a split word keeps the rule lemma.
    if (lemmas.length !== 1 || !lemmas[0]) return ruleLemma(w);
    return lemmas[0].toLowerCase();
  }
}

let shared: Lemmatiser | undefined;
let loadError: string | undefined;

/**
 * The process-wide question-side lemmatiser: wink-nlp's English model, loaded once on first use,
 * else the suffix rules if wink cannot load. `GRAFT_LEMMATISER=rules` forces rules.
 */
export function defaultLemmatiser(): Lemmatiser {
  if (shared) return shared;
  if (process.env.GRAFT_LEMMATISER === 'rules') {
    shared = new RuleLemmatiser();
    return shared;
  }
  try {
    shared = new WinkLemmatiser(loadWink());
  } catch (err) {
    loadError = (err as Error).message;
    shared = new RuleLemmatiser();
  }
  return shared;
}

/** Whether `defaultLemmatiser()` has loaded its model in this thread (its first call does). */
export function defaultLemmatiserLoaded(): boolean {
  return shared !== undefined;
}

/** Why wink could not be used, when `defaultLemmatiser()` fell back to rules. */
export function lemmatiserLoadError(): string | undefined {
  return loadError;
}

export function ruleLemmatiser(): Lemmatiser {
  return new RuleLemmatiser();
}
