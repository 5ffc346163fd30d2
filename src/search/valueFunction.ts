import type { SynthesisModel } from './synthesisModel.js';

/** A partial synthesis during search. */
export interface SearchState {
  tables: string[];
  /** IGMS of `tables`. */
  utility: number;
}

/** Adding one table to a state (a join or union with a table already chosen). */
export interface SearchAction {
  tableId: string;
  /** Chosen table it attaches to, and how. */
  via: string;
  kind: 'join' | 'union';
  edgeScore: number;
  /** Why it is admissible: it covers an uncovered atom, completes shards, or leads to one. */
  reason: 'covers' | 'shard' | 'bridge' | 'relation';
}

export interface ValueContext {
  model: SynthesisModel;
  /** Tables the search may use. */
  region: Set<string>;
  budget: number;
  lookaheadHops: number;
}

/**
 * Q(s, a): how promising it is to take action a in state s. Beam search keeps the B best
 * (state, action) pairs by this score. Implementations must score a whole frontier at once so a
 * learned model can batch them into one inference call.
 */
export interface ValueFunction {
  readonly name: string;
  score(state: SearchState, actions: SearchAction[], ctx: ValueContext): Promise<Float64Array> | Float64Array;
  /**
   * Optional: the admissible actions of every state of one beam step, scored together (a learned
   * model makes this ONE batched inference call). Returns one array per frontier entry.
   */
  scoreFrontier?(frontier: { state: SearchState; actions: SearchAction[] }[], ctx: ValueContext): Promise<Float64Array[]>;
}

/**
 * The default value function: the exact IGMS marginal gain of the action plus a discounted
 * look-ahead: the best support of a still-uncovered atom reachable within h hops through the
 * added table (what makes a bridge with no support of its own worth taking).
 */
export class HeuristicValueFunction implements ValueFunction {
  readonly name = 'heuristic';
  constructor(readonly lookaheadWeight = 0.5) {}

  score(state: SearchState, actions: SearchAction[], ctx: ValueContext): Float64Array {
    const out = new Float64Array(actions.length);
    const covered = ctx.model.coverage(state.tables);
    const threshold = ctx.model.options.witnessThreshold;
    actions.forEach((a, i) => {
      const next = [...state.tables, a.tableId];
      const gain = ctx.model.utility(next) - state.utility;
      out[i] = gain + this.lookaheadWeight * reachableSupport(a.tableId, new Set(next), covered, threshold, ctx);
    });
    return out;
  }
}

/**
 * Best (support gain on an uncovered atom × path strength) over tables within h hops of `from`,
 * outside the set, scaled by 1/(a) so it is on the scale of IGMS gains.
 */
export function reachableSupport(from: string, inSet: Set<string>, covered: Float64Array, threshold: number, ctx: ValueContext): number {
  const { model } = ctx;
  const strengthOf = model.reachableStrength(from, ctx.lookaheadHops);
  // Only tables supporting a still-uncovered atom can score. Walk whichever is shorter: those
  // tables' lists (looking up their strength), or everything reachable (the same maximum).
  const open: number[] = [];
  let witnesses = 0;
  for (const j of model.nodeAtoms) {
    if (covered[j] < threshold) {
      open.push(j);
      witnesses += model.witnessesOf(j).length;
    }
  }
  if (open.length === 0) return 0;
  let best = 0;
  const consider = (id: string, strength: number, j: number) => {
    if (inSet.has(id) || !ctx.region.has(id)) return;
    const support = model.row(id)[j];
    if (support >= threshold) best = Math.max(best, (support - covered[j]) * strength);
  };
  if (witnesses < strengthOf.size) {
    for (const j of open) {
      for (const id of model.witnessesOf(j)) {
        const strength = strengthOf.get(id);
        if (strength !== undefined) consider(id, strength, j);
      }
    }
  } else {
    for (const [id, strength] of strengthOf) for (const j of open) consider(id, strength, j);
  }
  return best / Math.max(1, model.numAtoms);
}
