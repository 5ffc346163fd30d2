import { ALTERNATE_MODEL } from './alternateModel.js';

/**
 * How likely an alternate is a table the question needs: gradient-boosted regression trees over
 * what the choice of the core knows of the offer (the stage that offered it, how it links to the
 * core and in which direction, its relevance, what it adds to the core's coverage and whether by
 * a table name, how many offers came before it), of the core, and of the question's other offers
 * (how many share its name, how it ranks among them). An answer takes its alternates in order of
 * this confidence, each when it clears `CandidateOptions.minAlternateConfidence` and fits the
 * budget: a fixed number of alternates trades precision for sufficiency one for one, the model
 * spends the budget where the evidence says a table is likely needed. The trees are fitted on the
 * tuning questions by `bench/fit-alternates.ts`, which rewrites `alternateModel.ts`. Trees, not a
 * logistic model: what an offer's features mean depends on the others (a strong join says little
 * of one of five same-named copies; a low relevance matters when the core covers the question
 * already), and the logistic model of before, its offers ranked the same way, gained far less on
 * the train samples (src/search/README.md, "Which alternates an answer keeps").
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
  /** Offers made before this one. */
  position: number;
  /** The core's coverage of the question, in [0,1]. */
  coreCoverage: number;
  /** Logical tables of the core. */
  coreTables: number;
  /** Runner-up offers: their candidate's score over the core's (0 for the other stages). */
  candidateScore: number;
  /** Best share of an offered table's name words that are question words. */
  nameShare: number;
  /** Strongest join from a core column to an offered table (the core refers to it: a parent, a lookup). */
  referencedByCore: number;
  /** The same through a core column that a question word names (`hair` of `hair_colour_id`). */
  referencedByNamedColumn: number;
  /** Strongest join from a column of an offered table to a core table (it refers to the core: a child, a link table). */
  refersToCore: number;
  /** Share of the question's weight an offered table matches fully (by its name) where the core matches less. */
  nameGain: number;
  /** Rank of the most relevant offered table in the recall's ranking (0: the question's most relevant table). */
  relevanceRank: number;
  /** Tables offered together (a table and its row shards). */
  tables: number;
  /** The offered table's name words, to compare the offers of one question. */
  name: string;
}

/** Names of the model's inputs, in order; `alternateModel.ts` must list the same. */
export const ALTERNATE_FEATURES = [
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
  'coreTables',
  'candidateScore',
  'nameShare',
  'referencedByCore',
  'referencedByNamedColumn',
  'refersToCore',
  'nameGain',
  'log1p(relevanceRank)',
  'log(tables)',
  'offers more relevant',
  'offers adding more',
  'log(offers of its name)',
  'strongest join of its name',
  'relevance below the best offer',
  'offers',
] as const;

/**
 * The model's inputs for each of one question's offers, in order: each offer's own evidence, then
 * where it stands among the others.
 */
export function alternateFeatures(offers: readonly AlternateEvidence[]): number[][] {
  const byName = new Map<string, AlternateEvidence[]>();
  for (const e of offers) {
    const list = byName.get(e.name);
    if (list) list.push(e);
    else byName.set(e.name, [e]);
  }
  const relevance = (e: AlternateEvidence) => Math.min(e.relevance, 2);
  const bestRelevance = Math.max(0, ...offers.map(relevance));
  return offers.map((e) => {
    const sameName = byName.get(e.name)!;
    return [
      e.stage === 'relevant' ? 1 : 0,
      e.stage === 'lookup' ? 1 : 0,
      e.stage === 'strong-join' ? 1 : 0,
      e.joinScore,
      e.linked ? 1 : 0,
      e.unionToCore ? 1 : 0,
      relevance(e),
      e.sameName ? 1 : 0,
      e.coverageGain,
      Math.log1p(e.position),
      e.coreCoverage,
      e.coreTables,
      e.candidateScore,
      e.nameShare,
      e.referencedByCore,
      e.referencedByNamedColumn,
      e.refersToCore,
      e.nameGain,
      Math.log1p(e.relevanceRank),
      Math.log(Math.max(1, e.tables)),
      offers.filter((o) => relevance(o) > relevance(e)).length,
      offers.filter((o) => o.coverageGain > e.coverageGain).length,
      Math.log(sameName.length),
      sameName.every((o) => o.joinScore <= e.joinScore) ? 1 : 0,
      relevance(e) - bestRelevance,
      offers.length,
    ];
  });
}

/**
 * Boosted regression trees on the log-odds: `base` plus `learningRate` times the leaf each tree
 * gives. A tree is flat, four numbers a node from the root: a split is [feature, threshold, left,
 * right] (a value below the threshold goes left), a leaf is [-1, value, 0, 0].
 */
export interface AlternateModel {
  features: readonly string[];
  base: number;
  learningRate: number;
  trees: readonly (readonly number[])[];
}

/** Probability in (0,1) that an offer with these features holds a needed table. */
export function alternateConfidence(features: readonly number[], model: AlternateModel = ALTERNATE_MODEL): number {
  if (model.features.length !== features.length) throw new Error(`alternate model reads ${model.features.length} features, given ${features.length}`);
  let z = model.base;
  for (const tree of model.trees) {
    let node = 0;
    while (tree[4 * node] >= 0) node = features[tree[4 * node]] < tree[4 * node + 1] ? tree[4 * node + 2] : tree[4 * node + 3];
    z += model.learningRate * tree[4 * node + 1];
  }
  return sigmoid(z);
}

/** The probability of log-odds `z`. */
function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}

export interface BoostingOptions {
  trees: number;
  depth: number;
  learningRate: number;
  /** Split candidates per feature: the quantiles of its values. */
  bins: number;
  /** Fewest rows a leaf may hold. */
  minLeaf: number;
  /** L2 penalty on the leaf values. */
  l2: number;
}

export const DEFAULT_BOOSTING: BoostingOptions = { trees: 150, depth: 4, learningRate: 0.1, bins: 32, minLeaf: 50, l2: 1 };

/**
 * Gradient boosting of regression trees on the logistic loss (second-order leaf values, splits
 * among each feature's quantiles): the model that makes `alternateConfidence` fit the labels (1:
 * the offer held a needed table). Deterministic.
 */
export function fitBoostedTrees(x: readonly (readonly number[])[], y: readonly number[], features: readonly string[], partial: Partial<BoostingOptions> = {}): AlternateModel {
  const opts = { ...DEFAULT_BOOSTING, ...partial };
  const n = x.length;
  if (n === 0 || n !== y.length) throw new Error(`fitBoostedTrees: ${n} rows and ${y.length} labels`);
  const d = features.length;
  if (x.some((r) => r.length !== d)) throw new Error(`fitBoostedTrees: rows must have the ${d} features named`);
  // Split candidates per feature, and each row's bin: the number of candidates at or below its value.
  const edges: number[][] = [];
  const bins: Uint8Array[] = [];
  for (let j = 0; j < d; j++) {
    const sorted = Float64Array.from(x, (r) => r[j]).sort();
    const cut = new Set<number>();
    for (let b = 1; b < opts.bins; b++) cut.add(sorted[Math.floor((b / opts.bins) * (n - 1))]);
    const e = [...cut].sort((a, b) => a - b).filter((v) => v > sorted[0]);
    edges.push(e);
    bins.push(Uint8Array.from(x, (r) => upperBound(e, r[j])));
  }
  const mean = y.reduce((a, v) => a + v, 0) / n;
  const p0 = Math.min(1 - 1e-4, Math.max(1e-4, mean));
  const base = Math.log(p0 / (1 - p0));
  const score = new Float64Array(n).fill(base);
  const g = new Float64Array(n);
  const h = new Float64Array(n);
  const trees: number[][] = [];
  for (let t = 0; t < opts.trees; t++) {
    for (let i = 0; i < n; i++) {
      const p = sigmoid(score[i]);
      g[i] = p - y[i];
      h[i] = p * (1 - p);
    }
    const nodes: number[] = [];
    const leafOf = new Float64Array(n);
    const grow = (rows: Int32Array, depth: number): number => {
      const at = nodes.length / 4;
      nodes.push(-1, 0, 0, 0);
      let G = 0;
      let H = 0;
      for (const i of rows) (G += g[i]), (H += h[i]);
      const leaf = () => {
        const value = -G / (H + opts.l2);
        nodes[4 * at + 1] = value;
        for (const i of rows) leafOf[i] = value;
        return at;
      };
      if (depth >= opts.depth || rows.length < 2 * opts.minLeaf) return leaf();
      const parent = (G * G) / (H + opts.l2);
      let best = { gain: 1e-6, feature: -1, bin: -1 };
      for (let j = 0; j < d; j++) {
        const k = edges[j].length + 1;
        const gs = new Float64Array(k);
        const hs = new Float64Array(k);
        const cs = new Int32Array(k);
        const b = bins[j];
        for (const i of rows) (gs[b[i]] += g[i]), (hs[b[i]] += h[i]), cs[b[i]]++;
        let gl = 0;
        let hl = 0;
        let cl = 0;
        for (let s = 0; s + 1 < k; s++) {
          (gl += gs[s]), (hl += hs[s]), (cl += cs[s]);
          if (cl < opts.minLeaf || rows.length - cl < opts.minLeaf) continue;
          const gain = (gl * gl) / (hl + opts.l2) + ((G - gl) * (G - gl)) / (H - hl + opts.l2) - parent;
          if (gain > best.gain) best = { gain, feature: j, bin: s };
        }
      }
      if (best.feature < 0) return leaf();
      const b = bins[best.feature];
      const left = rows.filter((i) => b[i] <= best.bin);
      const right = rows.filter((i) => b[i] > best.bin);
      nodes[4 * at] = best.feature;
      nodes[4 * at + 1] = edges[best.feature][best.bin];
      nodes[4 * at + 2] = grow(left, depth + 1);
      nodes[4 * at + 3] = grow(right, depth + 1);
      return at;
    };
    grow(Int32Array.from({ length: n }, (_, i) => i), 0);
    for (let i = 0; i < n; i++) score[i] += opts.learningRate * leafOf[i];
    trees.push(nodes);
  }
  return { features: [...features], base, learningRate: opts.learningRate, trees };
}

/** Number of sorted values at or below `v`. */
function upperBound(sorted: readonly number[], v: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
