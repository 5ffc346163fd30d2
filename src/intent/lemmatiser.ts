import { createRequire } from 'node:module';

/**
 * Word -> lemma, context-free. Question words and identifier words go through the same function
 * (one word at a time, cached), so "players" in a question and "players" in a table name always
 * meet, whatever part of speech a tagger would give them in context.
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

/** Suffix rules for plurals and regular verb forms; deliberately conservative. */
export function ruleLemma(word: string): string {
  const w = word.toLowerCase();
  const irregular = IRREGULAR[w];
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

interface WinkDoc {
  tokens(): { out(what: unknown): string[] };
}
interface WinkNlp {
  readDoc(text: string): WinkDoc;
  its: { lemma: unknown };
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
    const irregular = IRREGULAR[w];
    if (irregular) return irregular;
    const lemmas = this.nlp.readDoc(w).tokens().out(this.nlp.its.lemma);
    // wink splits some words ("cannot"); a split word keeps the rule lemma.
    if (lemmas.length !== 1 || !lemmas[0]) return ruleLemma(w);
    return lemmas[0].toLowerCase();
  }
}

let shared: Lemmatiser | undefined;
let loadError: string | undefined;

/**
 * The process-wide lemmatiser: wink-nlp's English model, loaded once on first use (about a third
 * of a second), else the suffix rules if wink cannot load. `GRAFT_LEMMATISER=rules` forces rules.
 */
export function defaultLemmatiser(): Lemmatiser {
  if (shared) return shared;
  if (process.env.GRAFT_LEMMATISER === 'rules') {
    shared = new RuleLemmatiser();
    return shared;
  }
  try {
    const require = createRequire(import.meta.url);
    const winkNLP = require('wink-nlp') as (model: unknown, pipe?: string[]) => WinkNlp;
    const model = require('wink-eng-lite-web-model') as unknown;
    shared = new WinkLemmatiser(winkNLP(model, ['pos']));
  } catch (err) {
    loadError = (err as Error).message;
    shared = new RuleLemmatiser();
  }
  return shared;
}

/** Why wink could not be used, when `defaultLemmatiser()` fell back to rules. */
export function lemmatiserLoadError(): string | undefined {
  return loadError;
}

export function ruleLemmatiser(): Lemmatiser {
  return new RuleLemmatiser();
}
