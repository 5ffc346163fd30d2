import { cholesky, Matrix, solveCholesky } from '../igms/index.js';
import { ALTERNATE_WEIGHTS } from './alternateWeights.js';

/**
 * How likely an alternate is a table the question needs: a logistic model over what the choice of
 * the core knows of it (the stage that offered it, its link to the core, its relevance, what it
 * adds to the core's coverage, how many offers came before it) and of the core. An answer keeps an
 * alternate only when this clears `CandidateOptions.minAlternateConfidence`: a fixed number of
 * alternates trades precision for sufficiency one for one, the model spends the budget where the
 * evidence says a table is likely needed. The weights are fitted on the tuning questions by
 * `bench/fit-alternates.ts`, which rewrites `alternateWeights.ts`.
 */

/** The stage of the alternates that offered a table (see `chooseSynthesis`). */
export type AlternateStage = 'runner-up' | 'relevant' | 'lookup' | 'strong-join';

export interface AlternateEvidence {
  stage: AlternateStage;
  /** Strongest join score from the offered tables to a core table (0: none). */
  joinScore: number;
  /** Some offered table has an edge (join or union) to the core. */
  linked: boolean;
  /** Some offered table has a union edge to a core table (a copy or a shard of a core table). */
  unionToCore: boolean;
  /** Best recall relevance of the offered tables over the core's best, capped at 2. */
  relevance: number;
  /** An offered table's name has the words of a core table's name (the same entity elsewhere). */
  sameName: boolean;
  /** Share of the question's weight the offered tables add to the core's coverage. */
  coverageGain: number;
  /** Offers considered before this one. */
  position: number;
  /** The core's coverage of the question, in [0,1]. */
  coreCoverage: number;
  /** Logical tables of the core. */
  coreTables: number;
  /** Runner-up offers: their candidate's score over the core's (0 for the other stages). */
  candidateScore: number;
  /** Best share of an offered table's name words that are question words. */
  nameShare: number;
}

/** Names of the model's inputs, in order; `alternateWeights.ts` must list the same. */
export const ALTERNATE_FEATURES = [
  'bias',
  'stage:relevant',
  'stage:lookup',
  'stage:strong-join',
  'joinScore',
  'linked',
  'unionToCore',
  'relevance',
  'sameName',
  'coverageGain',
  'log1p(position)',
  'coreCoverage',
  'coreTables/5',
  'candidateScore',
  'nameShare',
] as const;

export function alternateFeatures(e: AlternateEvidence): number[] {
  return [
    1,
    e.stage === 'relevant' ? 1 : 0,
    e.stage === 'lookup' ? 1 : 0,
    e.stage === 'strong-join' ? 1 : 0,
    e.joinScore,
    e.linked ? 1 : 0,
    e.unionToCore ? 1 : 0,
    Math.min(e.relevance, 2),
    e.sameName ? 1 : 0,
    e.coverageGain,
    Math.log1p(e.position),
    e.coreCoverage,
    e.coreTables / 5,
    e.candidateScore,
    e.nameShare,
  ];
}

export interface AlternateWeights {
  features: readonly string[];
  weights: readonly number[];
}

/** Probability in (0,1) that an offer with these features holds a needed table. */
export function alternateConfidence(features: readonly number[], model: AlternateWeights = ALTERNATE_WEIGHTS): number {
  if (model.weights.length !== features.length) throw new Error(`alternate model has ${model.weights.length} weights for ${features.length} features`);
  return logistic(model.weights, features);
}

/** 1 / (1 + exp(-w·x)). */
function logistic(w: readonly number[], x: readonly number[]): number {
  let z = 0;
  for (let i = 0; i < x.length; i++) z += w[i] * x[i];
  return 1 / (1 + Math.exp(-z));
}

/**
 * L2-regularised logistic regression by Newton's method (the bias, feature 0, unpenalised): the
 * weights that make `alternateConfidence` fit the labels (1: the offer held a needed table).
 */
export function fitLogistic(x: readonly (readonly number[])[], y: readonly number[], opts: { l2?: number; iterations?: number } = {}): number[] {
  if (x.length === 0 || x.length !== y.length) throw new Error(`fitLogistic: ${x.length} rows and ${y.length} labels`);
  const d = x[0].length;
  const l2 = opts.l2 ?? 1;
  const w = new Array<number>(d).fill(0);
  for (let it = 0; it < (opts.iterations ?? 30); it++) {
    const grad = w.map((wi, j) => (j === 0 ? 0 : l2 * wi));
    const hess = new Matrix(d, d);
    for (let i = 1; i < d; i++) hess.set(i, i, l2);
    for (let n = 0; n < x.length; n++) {
      const p = logistic(w, x[n]);
      const r = p - y[n];
      const s = p * (1 - p);
      for (let i = 0; i < d; i++) {
        grad[i] += r * x[n][i];
        for (let j = 0; j <= i; j++) hess.data[i * d + j] += s * x[n][i] * x[n][j];
      }
    }
    // The Hessian is positive definite while l2 > 0 (the bias's diagonal sums p(1 - p) > 0);
    // cholesky reads its lower triangle.
    const step = solveCholesky(cholesky(hess, 'hessian'), grad);
    let change = 0;
    for (let i = 0; i < d; i++) {
      w[i] -= step[i];
      change = Math.max(change, Math.abs(step[i]));
    }
    if (change < 1e-8) break;
  }
  return w;
}
