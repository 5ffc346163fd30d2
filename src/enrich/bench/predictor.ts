import { RandomForestClassifier, RandomForestRegression } from 'ml-random-forest';
import { mulberry32 } from '../../util/prng.js';
import { BadInputError } from '../../util/errors.js';
import type { EnrichTask } from '../types.js';

/**
 * The benchmark's one fixed predictor: a random forest (ml-random-forest, fixed seed) scored by
 * grouped k-fold cross-validation on the rows that have the target. Folds are grouped by the base
 * table's key, so rows a join multiplied (fan-out, or a copy unioned in) never sit on both sides
 * of a fold and cannot inflate the score.
 */
export interface PredictorOptions {
  task: EnrichTask;
  folds?: number;
  seed?: number;
  trees?: number;
  maxDepth?: number;
  /**
   * Rows each tree is grown on (a bag drawn with the seed). ml-cart tries every cut between
   * adjacent rows, so a tree costs O(rows^2) per feature and node: the bag size is what keeps
   * the forest in seconds on thousands of rows.
   */
  treeSamples?: number;
  /** Share of the features each tree may split on (ml-random-forest's maxFeatures). */
  featureShare?: number;
}

export const PREDICTOR_DEFAULTS = { folds: 5, seed: 7, trees: 20, maxDepth: 10, treeSamples: 160, featureShare: 0.5 } as const;

export interface PredictorScore {
  task: EnrichTask;
  /** RMSE (regression) or accuracy (classification), over all held-out rows. */
  value: number;
  rows: number;
  features: string[];
}

export interface PredictorInput {
  rows: Record<string, unknown>[];
  target: string;
  /** Columns that identify a row (not features; the first one groups the folds). */
  keys: string[];
}

const isMissing = (v: unknown) => v === null || v === undefined || (typeof v === 'number' && !Number.isFinite(v)) || v === '';

/** Numbers stay numbers (missing -> the column mean); anything else gets its rank among the column's sorted distinct texts (missing -> -1). */
export function encodeColumn(values: unknown[]): number[] {
  const numeric = values.every((v) => isMissing(v) || typeof v === 'number' || typeof v === 'bigint');
  if (numeric) {
    const xs = values.filter((v) => !isMissing(v)).map(Number);
    const mean = xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
    return values.map((v) => (isMissing(v) ? mean : Number(v)));
  }
  const texts = [...new Set(values.filter((v) => !isMissing(v)).map(String))].sort();
  const code = new Map(texts.map((t, i) => [t, i]));
  return values.map((v) => (isMissing(v) ? -1 : code.get(String(v))!));
}

/** Fold of each row: the distinct groups, shuffled by the seed, dealt round-robin. */
export function groupFolds(groups: string[], folds: number, seed: number): number[] {
  const distinct = [...new Set(groups)].sort();
  const rand = mulberry32(seed);
  for (let i = distinct.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [distinct[i], distinct[j]] = [distinct[j]!, distinct[i]!];
  }
  const foldOf = new Map(distinct.map((g, i) => [g, i % folds]));
  return groups.map((g) => foldOf.get(g)!);
}

export function crossValidate(input: PredictorInput, opts: PredictorOptions): PredictorScore {
  const { folds, seed, trees, maxDepth, treeSamples, featureShare } = { ...PREDICTOR_DEFAULTS, ...opts };
  const columns = input.rows.length ? Object.keys(input.rows[0]!) : [];
  if (!columns.includes(input.target)) throw new BadInputError(`predictor: no column ${input.target} in the table`, { field: 'target' });
  const labelled = input.rows.filter((r) => !isMissing(r[input.target]) && (opts.task === 'classification' || Number.isFinite(Number(r[input.target]))));
  const features = columns.filter((c) => c !== input.target && !input.keys.includes(c));
  if (labelled.length < folds * 2) throw new BadInputError(`predictor: ${labelled.length} labelled rows are too few for ${folds}-fold cross-validation`, { field: 'rows' });
  const X: number[][] = labelled.map(() => []);
  for (const f of features) {
    const col = encodeColumn(labelled.map((r) => r[f]));
    col.forEach((v, i) => X[i]!.push(v));
  }
  const labels = opts.task === 'classification' ? [...new Set(labelled.map((r) => String(r[input.target])))].sort() : [];
  const labelCode = new Map(labels.map((l, i) => [l, i]));
  const y = labelled.map((r) => (opts.task === 'classification' ? labelCode.get(String(r[input.target]))! : Number(r[input.target])));
  const groupKey = input.keys[0];
  const groups = labelled.map((r, i) => (groupKey !== undefined && !isMissing(r[groupKey]) ? String(r[groupKey]) : `row${i}`));
  const fold = groupFolds(groups, folds, seed);

  let sqErr = 0;
  let correct = 0;
  let n = 0;
  for (let k = 0; k < folds; k++) {
    const train = fold.map((f, i) => (f === k ? -1 : i)).filter((i) => i >= 0);
    const test = fold.map((f, i) => (f === k ? i : -1)).filter((i) => i >= 0);
    if (test.length === 0 || train.length === 0) continue;
    const predictions = fitPredict(train.map((i) => X[i]!), train.map((i) => y[i]!), test.map((i) => X[i]!), opts.task, { seed: seed + k, trees, maxDepth, treeSamples, featureShare });
    test.forEach((i, t) => {
      if (opts.task === 'classification') correct += predictions[t] === y[i] ? 1 : 0;
      else sqErr += (predictions[t]! - y[i]!) ** 2;
      n++;
    });
  }
  return { task: opts.task, value: opts.task === 'classification' ? correct / n : Math.sqrt(sqErr / n), rows: labelled.length, features };
}

function fitPredict(X: number[][], y: number[], test: number[][], task: EnrichTask, o: { seed: number; trees: number; maxDepth: number; treeSamples: number; featureShare: number }): number[] {
  if (X[0]!.length === 0) {
    // No features: the best constant (mean, or the most frequent class).
    if (task === 'regression') return test.map(() => y.reduce((a, b) => a + b, 0) / y.length);
    const counts = new Map<number, number>();
    for (const v of y) counts.set(v, (counts.get(v) ?? 0) + 1);
    const top = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]![0];
    return test.map(() => top);
  }
  const options = {
    seed: o.seed,
    nEstimators: o.trees,
    // A count (ml-random-forest reads a float in (0, 1) as a share, which rounds 1 feature of 2 down to... 1, and 1.0 as a count).
    maxFeatures: Math.max(1, Math.round(X[0]!.length * o.featureShare)),
    replacement: false,
    useSampleBagging: true,
    ...(X.length > o.treeSamples ? { maxSamples: o.treeSamples } : {}),
    noOOB: true,
    treeOptions: { maxDepth: o.maxDepth, minNumSamples: 3 },
  };
  const model = task === 'regression' ? new RandomForestRegression(options) : new RandomForestClassifier(options);
  model.train(X, y);
  return model.predict(test);
}
