import { reachableSupport, type SearchAction, type SearchState, type ValueContext } from '../search/index.js';

/**
 * The state-action feature vector the learned value network reads. Versioned with the model:
 * a stored model whose feature version differs from FEATURE_VERSION is never loaded. Bump the
 * version whenever a feature is added, removed, reordered or changes meaning.
 *
 * Every feature is computed by the engine from the same SynthesisModel the search uses, so the
 * features of a self-generated trajectory (pseudo intent) and of a real question agree.
 */
export const FEATURE_VERSION = 1;

/** Features of a state alone: the V network's input and the first part of Q's. */
export const STATE_FEATURES = [
  'size_over_budget', // |S| / L
  'remaining_budget', // (L - |S|) / L
  'utility', // IGMS of S
  'node_atoms_covered', // share of node atoms with support >= tau
  'node_support_mean', // mean over node atoms of min(1, best support in S)
  'relations_realised', // share of relation atoms realised by a path inside S (1 when there are none)
  'atoms_log', // log(1 + number of atoms)
  'relation_share', // relation atoms / atoms
  'reachable_support', // best support of an uncovered atom within h hops of S (look-ahead)
] as const;

/** Features of the action in its state: the rest of Q's input. */
export const ACTION_FEATURES = [
  'edge_score', // score of the join/union edge the table attaches by
  'is_union', // 1 for a union edge, 0 for a join
  'reason_covers',
  'reason_shard',
  'reason_bridge',
  'reason_relation',
  'marginal_gain', // IGMS(S + a) - IGMS(S)
  'cover_gain', // sum over node atoms of the support the table adds above S's, where >= tau
  'new_atoms_covered', // share of node atoms newly covered
  'new_relations_realised', // share of relation atoms newly realised
  'table_best_support', // best node support of the table itself
  'table_lookahead', // best support of an uncovered atom reachable from the table
  'max_redundancy', // largest content redundancy between the table and a chosen one
  'shard_of_via', // 1 when the table is a row shard of the table it attaches to
  'degree_log', // log(1 + lake-graph degree of the table)
  'depth_after', // (|S| + 1) / L
] as const;

export const FEATURE_NAMES: readonly string[] = [...STATE_FEATURES, ...ACTION_FEATURES];
export const STATE_DIM = STATE_FEATURES.length;
export const FEATURE_DIM = FEATURE_NAMES.length;

/** What the features of a state are computed from; reusable for every action of that state. */
export interface StateSummary {
  utility: number;
  covered: Float64Array;
  coveredCount: number;
  realised: number;
  features: Float32Array;
}

/** State features (length STATE_DIM). */
export function stateFeatures(tables: readonly string[], ctx: ValueContext, utility?: number): Float32Array {
  return summariseState(tables, ctx, utility).features;
}

export function summariseState(tables: readonly string[], ctx: ValueContext, utility?: number): StateSummary {
  const { model } = ctx;
  const tau = model.options.witnessThreshold;
  const covered = model.coverage(tables);
  const u = utility ?? model.utility(tables);
  let coveredCount = 0;
  let supportSum = 0;
  for (const j of model.nodeAtoms) {
    if (covered[j] >= tau) coveredCount++;
    supportSum += Math.min(1, covered[j]);
  }
  const nodeCount = Math.max(1, model.nodeAtoms.length);
  const realised = new Set(model.realisations(tables).map((r) => r.atomIndex)).size;
  const inSet = new Set(tables);
  let ahead = 0;
  for (const t of tables) ahead = Math.max(ahead, reachableSupport(t, inSet, covered, tau, ctx));
  const budget = Math.max(1, ctx.budget);
  const features = Float32Array.from([
    tables.length / budget,
    (budget - tables.length) / budget,
    u,
    coveredCount / nodeCount,
    supportSum / nodeCount,
    model.relationAtoms.length === 0 ? 1 : realised / model.relationAtoms.length,
    Math.log1p(model.numAtoms),
    model.numAtoms === 0 ? 0 : model.relationAtoms.length / model.numAtoms,
    ahead,
  ]);
  return { utility: u, covered, coveredCount, realised, features };
}

/**
 * Feature rows for every action of one state, row-major (actions.length × FEATURE_DIM): the
 * state part is computed once (or passed in by a caller that already has it) and repeated, the
 * action part per action.
 */
export function stateActionFeatures(
  state: SearchState,
  actions: readonly SearchAction[],
  ctx: ValueContext,
  s: StateSummary = summariseState(state.tables, ctx, state.utility),
): Float32Array {
  const { model } = ctx;
  const tau = model.options.witnessThreshold;
  const out = new Float32Array(actions.length * FEATURE_DIM);
  const nodeCount = Math.max(1, model.nodeAtoms.length);
  const budget = Math.max(1, ctx.budget);
  actions.forEach((a, i) => {
    const next = [...state.tables, a.tableId];
    const nextSet = new Set(next);
    const row = model.row(a.tableId);
    let coverGain = 0;
    let newlyCovered = 0;
    let best = 0;
    for (const j of model.nodeAtoms) {
      best = Math.max(best, row[j]);
      if (row[j] >= tau && row[j] > s.covered[j]) coverGain += row[j] - s.covered[j];
      if (row[j] >= tau && s.covered[j] < tau) newlyCovered++;
    }
    // Path search only when some relation is still unrealised (adding a table never un-realises one).
    const realisedAfter = s.realised === model.relationAtoms.length ? s.realised : new Set(model.realisations(next).map((r) => r.atomIndex)).size;
    let redundancy = 0;
    for (const t of state.tables) redundancy = Math.max(redundancy, model.redundancy(t, a.tableId));
    const base = i * FEATURE_DIM;
    out.set(s.features, base);
    out.set(
      [
        a.edgeScore,
        a.kind === 'union' ? 1 : 0,
        a.reason === 'covers' ? 1 : 0,
        a.reason === 'shard' ? 1 : 0,
        a.reason === 'bridge' ? 1 : 0,
        a.reason === 'relation' ? 1 : 0,
        model.utility(next) - s.utility,
        coverGain,
        newlyCovered / nodeCount,
        model.relationAtoms.length === 0 ? 0 : (realisedAfter - s.realised) / model.relationAtoms.length,
        best,
        reachableSupport(a.tableId, nextSet, s.covered, tau, ctx),
        redundancy,
        a.kind === 'union' && model.isShardPair(a.via, a.tableId) ? 1 : 0,
        Math.log1p(model.snapshot.neighbours(a.tableId).length),
        (state.tables.length + 1) / budget,
      ],
      base + STATE_DIM,
    );
  });
  return out;
}
