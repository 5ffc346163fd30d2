import { checkpoint, checkpointIfDue } from './cancel.js';
import type { Region } from './region.js';
import { COPY_REDUNDANCY } from './rerank.js';
import type { SynthesisModel } from './synthesisModel.js';
import { reachableSupport, type SearchAction, type SearchState, type ValueContext, type ValueFunction } from './valueFunction.js';

export interface BeamOptions {
  budget: number;
  beamWidth: number;
  lookaheadHops: number;
  /** Union score at which a neighbour counts as a shard/copy of a chosen table. */
  shardThreshold: number;
  /** Most actions scored per state (cheapest prior first), bounding work per step. */
  maxActionsPerState: number;
  /** Checked (and the event loop given a turn) before each beam depth. */
  signal?: AbortSignal;
}

export interface BeamResult {
  /** Every distinct state the beams held, best utility first. */
  states: SearchState[];
  evaluations: number;
}

const keyOf = (tables: readonly string[]) => [...tables].sort().join(',');

/**
 * Value-guided beam search over connected table sets inside the region. A state grows by one
 * table joined or unioned to a table already chosen; only admissible actions are considered:
 * the table covers a still-uncovered atom, is a shard of a chosen table, or leads within h hops
 * to a table that covers one (a bridge).
 */
export async function beamSearch(model: SynthesisModel, region: Region, valueFn: ValueFunction, opts: BeamOptions): Promise<BeamResult> {
  const ctx: ValueContext = { model, region: region.tables, budget: opts.budget, lookaheadHops: opts.lookaheadHops };
  const seen = new Map<string, SearchState>();
  let evaluations = 0;
  let beam: SearchState[] = region.seeds
    .map((id) => ({ tables: [id], utility: model.utility([id]) }))
    .sort((a, b) => b.utility - a.utility || model.snapshot.compare(a.tables[0], b.tables[0]))
    .slice(0, opts.beamWidth);
  evaluations += region.seeds.length;
  for (const s of beam) seen.set(keyOf(s.tables), s);

  for (let depth = 1; depth < opts.budget && beam.length > 0; depth++) {
    await checkpoint(opts.signal);
    const candidates: { state: SearchState; action: SearchAction; q: number }[] = [];
    // One depth of a wide beam is long (the engine held its thread up to 214 ms at B = 32, L = 30
    // on Spider dev with turns between depths only: bench/engine-stalls.ts): the states' actions
    // and scores give the event loop a turn when one is due, so a cancelled call stops soon and
    // the calls interleaved with it in a pool worker are not held up.
    const frontier: { state: SearchState; actions: SearchAction[] }[] = [];
    for (const state of beam) {
      await checkpointIfDue(opts.signal);
      const actions = admissibleActions(model, state, ctx, opts);
      if (actions.length > 0) frontier.push({ state, actions });
    }
    // A value function that can batch scores the whole beam step at once (one inference call).
    let scores: Float64Array[];
    if (valueFn.scoreFrontier) scores = await valueFn.scoreFrontier(frontier, ctx);
    else {
      scores = [];
      for (const f of frontier) {
        await checkpointIfDue(opts.signal);
        scores.push(await valueFn.score(f.state, f.actions, ctx));
      }
    }
    frontier.forEach(({ state, actions }, k) => {
      evaluations += actions.length;
      actions.forEach((action, i) => candidates.push({ state, action, q: scores[k][i] }));
    });
    candidates.sort((a, b) => b.state.utility + b.q - (a.state.utility + a.q) || model.snapshot.compare(a.action.tableId, b.action.tableId));
    const next: SearchState[] = [];
    const taken = new Set<string>();
    for (const c of candidates) {
      if (next.length >= opts.beamWidth) break;
      const tables = [...c.state.tables, c.action.tableId];
      const key = keyOf(tables);
      if (taken.has(key)) continue;
      taken.add(key);
      let s = seen.get(key);
      if (!s) {
        await checkpointIfDue(opts.signal);
        s = { tables, utility: model.utility(tables) };
        evaluations++;
        seen.set(key, s);
      }
      next.push(s);
    }
    beam = next;
  }
  return { states: [...seen.values()].sort((a, b) => b.utility - a.utility), evaluations };
}

export function admissibleActions(model: SynthesisModel, state: SearchState, ctx: ValueContext, opts: BeamOptions): SearchAction[] {
  const inSet = new Set(state.tables);
  const covered = model.coverage(state.tables);
  const tau = model.options.witnessThreshold;
  const best = new Map<string, SearchAction & { prior: number }>();
  // What a candidate brings does not depend on the chosen table it attaches to: work it out once
  // per candidate, however many chosen tables it neighbours.
  const candidates = new Map<string, { isCopy: boolean; coverGain: number; ahead?: number }>();
  for (const via of state.tables) {
    for (const n of model.snapshot.neighbours(via)) {
      if (inSet.has(n.tableId) || !ctx.region.has(n.tableId)) continue;
      let c = candidates.get(n.tableId);
      if (!c) {
        const isCopy = state.tables.some((t) => model.redundancy(t, n.tableId) >= COPY_REDUNDANCY);
        let coverGain = 0;
        if (!isCopy) {
          const row = model.row(n.tableId);
          for (const j of model.nodeAtoms) if (row[j] >= tau && row[j] > covered[j]) coverGain += row[j] - covered[j];
        }
        candidates.set(n.tableId, (c = { isCopy, coverGain }));
      }
      if (c.isCopy) continue;
      let reason: SearchAction['reason'] | null = null;
      let prior = 0;
      if (n.kind === 'union' && n.score >= opts.shardThreshold && model.isShardPair(via, n.tableId)) {
        reason = 'shard';
        prior = 1 + n.score;
      } else if (c.coverGain > 0) {
        reason = 'covers';
        prior = c.coverGain * n.score;
      } else {
        c.ahead ??= reachableSupport(n.tableId, inSet, covered, tau, ctx);
        if (c.ahead > 0) {
          reason = 'bridge';
          prior = c.ahead * n.score;
        }
      }
      if (!reason) continue;
      const cur = best.get(n.tableId);
      if (!cur || prior > cur.prior) best.set(n.tableId, { tableId: n.tableId, via, kind: n.kind, edgeScore: n.score, reason, prior });
    }
  }
  return [...best.values()]
    .sort((a, b) => b.prior - a.prior || model.snapshot.compare(a.tableId, b.tableId))
    .slice(0, opts.maxActionsPerState)
    .map(({ prior: _prior, ...a }) => a);
}
