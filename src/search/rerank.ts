import type { SynthesisModel } from './synthesisModel.js';

/** Content overlap from which a table counts as a copy of another. */
export const COPY_REDUNDANCY = 0.5;

export interface RerankOptions {
  budget: number;
  /** Union score at which a neighbour is a row shard that travels with its table. */
  shardThreshold: number;
  /** Stop when the best marginal gain per added table falls below this. */
  minGain: number;
  /** Table to start from (default: the best single table of the pool). */
  start?: string;
}

export interface RerankPick {
  tables: string[];
  /** Marginal IGMS gain of this move (split evenly when a move adds a bridge and its target). */
  gain: number;
}

export interface RerankResult {
  tables: string[];
  picks: RerankPick[];
  utility: number;
  evaluations: number;
  stoppedBy: 'budget' | 'minGain' | 'exhausted';
}

/**
 * Exact IGMS rerank of the tables the beams found, by lazy (Minoux) greedy: moves are kept in a
 * max-priority queue keyed by their last computed gain; by monotonicity and diminishing returns a
 * stale gain is an upper bound, so the top move is re-evaluated and taken only when it stays on
 * top. Moves keep the set connected: one table joined/unioned to a chosen one, or a bridge plus
 * the table behind it (a bridge alone supports nothing). Stops at the budget or when the best gain
 * per table is below `minGain`, so answers are often smaller than L.
 */
export function lazyRerank(model: SynthesisModel, pool: readonly string[], opts: RerankOptions): RerankResult {
  const inPool = new Set(pool);
  const compareKeys = (a: string[], b: string[]) => {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = model.snapshot.compare(a[i], b[i]);
      if (c !== 0) return c;
    }
    return a.length - b.length;
  };
  let evaluations = 0;
  const utility = (tables: string[]) => {
    evaluations++;
    return model.utility(tables);
  };
  // First pick: the given start, else the best single table.
  let first: string | null = opts.start ?? null;
  let firstU = first ? utility([first]) : -Infinity;
  if (!first) {
    for (const id of [...pool].sort((a, b) => model.snapshot.compare(a, b))) {
      const u = utility([id]);
      if (u > firstU) {
        firstU = u;
        first = id;
      }
    }
  }
  if (!first || firstU <= 0) return { tables: [], picks: [], utility: 0, evaluations, stoppedBy: 'exhausted' };
  const chosen = [first];
  const picks: RerankPick[] = [{ tables: [first], gain: firstU }];
  let current = firstU;

  // A move takes its tables together with their row shards; gains are per primary table (shards
  // ride along: they complete a table, they are not a second answer).
  type Move = { key: string; tables: string[]; primary: number; bound: number; stamp: number };
  const queue = new Map<string, Move>();
  const moveOrder = (a: Move, b: Move) => b.bound - a.bound || a.tables.length - b.tables.length || compareKeys(a.tables, b.tables);
  const withShards = (tables: string[]) => [...new Set(tables.flatMap((t) => model.shardClosure(t, opts.shardThreshold)))].filter((t) => !chosen.includes(t));
  // A copy of a chosen table (same content) is never worth adding: it only repeats evidence.
  const isCopyOfChosen = (t: string) => chosen.some((c) => model.redundancy(c, t) >= COPY_REDUNDANCY);
  const addMove = (primary: string[]) => {
    const key = primary.join('>');
    if (queue.has(key) || primary.some(isCopyOfChosen)) return;
    queue.set(key, { key, tables: withShards(primary), primary: primary.length, bound: Infinity, stamp: -1 });
  };
  const addMoves = (from: string) => {
    for (const n of model.snapshot.neighbours(from)) {
      if (!inPool.has(n.tableId) || chosen.includes(n.tableId)) continue;
      addMove([n.tableId]);
      for (const m of model.snapshot.neighbours(n.tableId)) {
        if (!inPool.has(m.tableId) || chosen.includes(m.tableId) || m.tableId === from) continue;
        addMove([n.tableId, m.tableId]);
      }
    }
  };
  for (const t of withShards([first]).slice(1)) {
    if (chosen.length >= opts.budget) break;
    const u = utility([...chosen, t]);
    picks.push({ tables: [t], gain: u - current });
    chosen.push(t);
    current = u;
  }
  for (const t of [...chosen]) addMoves(t);
  // The first table and its shards may already fill the budget (budget 1): that is a budget stop.
  let stoppedBy: RerankResult['stoppedBy'] = chosen.length >= opts.budget ? 'budget' : 'exhausted';
  let step = 0;
  while (chosen.length < opts.budget) {
    // Drop moves that became invalid (a member already chosen, or over budget).
    for (const [k, m] of queue) {
      if (m.tables.some((t) => chosen.includes(t) || isCopyOfChosen(t)) || chosen.length + m.tables.length > opts.budget) queue.delete(k);
    }
    if (queue.size === 0) {
      stoppedBy = chosen.length >= opts.budget ? 'budget' : 'exhausted';
      break;
    }
    let taken: Move | null = null;
    for (;;) {
      // The first move in queue order among the best by (bound, fewer tables, keys): what a
      // stable sort would put first, without sorting the queue for every re-evaluation.
      let top: Move | undefined;
      for (const m of queue.values()) if (!top || moveOrder(m, top) < 0) top = m;
      if (!top) break;
      if (top.stamp === step) {
        taken = top;
        break;
      }
      const gain = (utility([...chosen, ...top.tables]) - current) / top.primary;
      top.bound = gain;
      top.stamp = step;
    }
    if (!taken || taken.bound < opts.minGain) {
      stoppedBy = 'minGain';
      break;
    }
    const gainTotal = taken.bound * taken.primary;
    chosen.push(...taken.tables);
    current += gainTotal;
    picks.push({ tables: taken.tables, gain: gainTotal });
    queue.delete(taken.key);
    for (const t of taken.tables) addMoves(t);
    step++;
    if (chosen.length >= opts.budget) stoppedBy = 'budget';
  }
  return { tables: chosen, picks, utility: current, evaluations, stoppedBy };
}
