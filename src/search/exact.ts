import { checkpoint } from './cancel.js';
import type { SynthesisModel } from './synthesisModel.js';

export interface ExactOptions {
  budget: number;
  /** Per-table cost: the same stopping rule as the greedy rerank (U is monotone, so without it the whole region would win). */
  minGain: number;
  /** Most tables enumerated over (the most relevant of the region). */
  maxTables: number;
  /** Checked (and the event loop given a turn) before the sets grown from each start. */
  signal?: AbortSignal;
}

export interface ExactResult {
  tables: string[];
  utility: number;
  objective: number;
  evaluated: number;
}

/**
 * GRAFT-Exact: enumerates every connected subset of the (capped) candidate region up to the
 * budget and returns the one maximising U(S) − minGain·|S|. Exponential: for small regions,
 * tests, and as an optimum to check the beam search against.
 */
export async function exactSearch(model: SynthesisModel, candidates: readonly string[], opts: ExactOptions): Promise<ExactResult> {
  const pool = candidates.slice(0, opts.maxTables);
  const index = new Map(pool.map((id, i) => [id, i]));
  const adj = pool.map((id) => model.snapshot.neighbours(id).map((n) => index.get(n.tableId)).filter((i): i is number => i !== undefined));
  let best: ExactResult = { tables: [], utility: 0, objective: 0, evaluated: 0 };
  // Sets of pool indices are visited once each, keyed by their sorted members.
  const seen = new Set<string>();
  // Grow connected sets from each start, only adding tables with a larger index than the start
  // (each connected set is generated from its smallest member).
  const grow = (set: number[], members: Uint8Array, frontier: Set<number>, start: number) => {
    let key = '';
    for (let i = 0; i < pool.length; i++) if (members[i]) key += `${i},`;
    if (seen.has(key)) return;
    seen.add(key);
    const tables = set.map((i) => pool[i]);
    const u = model.utility(tables);
    best.evaluated++;
    const objective = u - opts.minGain * tables.length;
    if (objective > best.objective + 1e-12) best = { tables, utility: u, objective, evaluated: best.evaluated };
    if (set.length >= opts.budget) return;
    for (const n of frontier) {
      if (n <= start || members[n]) continue;
      const nextFrontier = new Set(frontier);
      for (const m of adj[n]) nextFrontier.add(m);
      members[n] = 1;
      grow([...set, n], members, nextFrontier, start);
      members[n] = 0;
    }
  };
  for (let i = 0; i < pool.length; i++) {
    await checkpoint(opts.signal);
    const members = new Uint8Array(pool.length);
    members[i] = 1;
    grow([i], members, new Set(adj[i]), i);
  }
  return best;
}
