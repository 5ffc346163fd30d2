import type { IntentGraph } from '../intent/index.js';
import { admissibleActions, anchorRegion, DEFAULT_SEARCH_OPTIONS, type BeamOptions, type LakeSnapshot, type SearchAction, type SynthesisModel, type ValueContext } from '../search/index.js';
import { BadInputError } from '../util/errors.js';
import { drawInt, mulberry32 } from '../util/prng.js';
import { FEATURE_DIM, STATE_DIM, stateActionFeatures, summariseState } from './features.js';
import type { TransitionData } from './iql.js';
import { compressToIntent, expandFromSeed, sampleSeeds, type SampledSubgraph, type SamplerKind } from './trajectories/index.js';

/** Builds the synthesis model of an intent graph over the lake (search's `buildSynthesisModel` over a grounded intent). */
export type ModelForIntent = (intent: IntentGraph) => Promise<{ model: SynthesisModel }>;

export interface TransitionOptions {
  /** Sampled subgraphs (each gives one clean and `perturbedReplays` perturbed trajectories). */
  trajectories: number;
  sampler: SamplerKind;
  /** Largest sampled subgraph (tables). */
  maxSize: number;
  /** Share of non-key columns kept as attributes. */
  beta: number;
  /** Expansion: chance of a uniform instead of a centrality-weighted draw. */
  epsilon: number;
  /** Replays per subgraph in which actions are perturbed (non-optimal actions in the data). */
  perturbedReplays: number;
  /** Chance that a perturbed replay takes a random admissible action instead of the recorded one. */
  perturbProbability: number;
  communities: number;
  quantiles: number;
  /** Budgets L the replayed searches are told they have (features are relative to L). */
  budgets: number[];
  gamma: number;
  seed: number;
  lookaheadHops: number;
}

export { DEFAULT_TRANSITION_OPTIONS } from './defaults.js';
import { DEFAULT_TRANSITION_OPTIONS } from './defaults.js';

export interface TransitionSet {
  data: TransitionData;
  /** Monte-Carlo discounted return of each transition, gamma^(T-1-t) * terminal reward: the held-out MAPE target. */
  returns: Float32Array;
  /** Which sampled subgraph each transition came from (held-out splits never cut one in two). */
  group: Int32Array;
  /** Sampled subgraphs used, and those skipped (no surviving cluster, or nothing grounded). */
  subgraphs: number;
  skipped: number;
  episodes: number;
}

/** The search's own admissible-action rules, so replayed episodes live in the search's action space. */
const ACTION_OPTIONS = (budget: number, lookaheadHops: number): BeamOptions => ({
  budget,
  beamWidth: 1,
  lookaheadHops,
  shardThreshold: DEFAULT_SEARCH_OPTIONS.shardThreshold,
  maxActionsPerState: DEFAULT_SEARCH_OPTIONS.maxActionsPerState,
});

interface Step {
  q: Float32Array;
  v: Float32Array;
  vNext: Float32Array;
}

/**
 * Stage 4 of the trajectory generator: samples connected table sets from the lake (stages 1–2),
 * compresses each to a pseudo intent graph (stage 3), and replays the recorded expansion as a
 * search episode under that intent: states are table sets, actions the tables added. Each
 * transition (s, a, r, s') has r = 0 except the last, whose r is the IGMS of the final synthesis.
 * Perturbed replays swap recorded actions for random admissible ones, so the data also shows
 * what mistakes are worth.
 */
export async function generateTransitions(
  snapshot: LakeSnapshot,
  modelForIntent: ModelForIntent,
  partial: Partial<TransitionOptions> = {},
  onProgress?: (done: number, total: number) => void,
): Promise<TransitionSet> {
  const opts = { ...DEFAULT_TRANSITION_OPTIONS, ...partial };
  const rand = mulberry32(opts.seed);
  const seeds = sampleSeeds(snapshot, { communities: opts.communities, quantiles: opts.quantiles }, rand);
  const q: Float32Array[] = [];
  const v: Float32Array[] = [];
  const vNext: Float32Array[] = [];
  const rewards: number[] = [];
  const dones: number[] = [];
  const returns: number[] = [];
  const group: number[] = [];
  let skipped = 0;
  let episodes = 0;
  if (seeds.length === 0) throw new BadInputError('the lake graph has no joinable or unionable tables to sample trajectories from');

  for (let k = 0; k < opts.trajectories; k++) {
    onProgress?.(k, opts.trajectories);
    const seed = seeds[k % seeds.length];
    const budget = opts.budgets[drawInt(rand, 0, opts.budgets.length - 1)];
    const size = drawInt(rand, 2, Math.max(2, Math.min(opts.maxSize, budget)));
    const sub = expandFromSeed(snapshot, seed, { size, sampler: opts.sampler, beta: opts.beta, epsilon: opts.epsilon }, rand);
    const pseudo = sub.tables.length >= 2 ? compressToIntent(snapshot, sub) : null;
    if (!pseudo) {
      skipped++;
      continue;
    }
    const { model } = await modelForIntent(pseudo.intent);
    if (model.numAtoms === 0) {
      skipped++;
      continue;
    }
    const region = anchorRegion(model, { anchorsPerAtom: DEFAULT_SEARCH_OPTIONS.anchorsPerAtom, hops: opts.lookaheadHops, maxTables: DEFAULT_SEARCH_OPTIONS.maxRegionTables });
    for (const t of sub.tables) region.tables.add(t);
    const ctx: ValueContext = { model, region: region.tables, budget, lookaheadHops: opts.lookaheadHops };
    for (let replay = 0; replay <= opts.perturbedReplays; replay++) {
      const steps = replayEpisode(sub, ctx, replay === 0 ? 0 : opts.perturbProbability, rand);
      if (steps.list.length === 0) continue;
      episodes++;
      const final = steps.finalUtility;
      steps.list.forEach((s, t) => {
        const last = t === steps.list.length - 1;
        q.push(s.q);
        v.push(s.v);
        vNext.push(s.vNext);
        rewards.push(last ? final : 0);
        dones.push(last ? 1 : 0);
        returns.push(final * opts.gamma ** (steps.list.length - 1 - t));
        group.push(k);
      });
    }
  }
  onProgress?.(opts.trajectories, opts.trajectories);
  const n = q.length;
  const flat = (rows: Float32Array[], dim: number) => {
    const out = new Float32Array(rows.length * dim);
    rows.forEach((r, i) => out.set(r, i * dim));
    return out;
  };
  return {
    data: {
      n,
      qDim: FEATURE_DIM,
      vDim: STATE_DIM,
      qInputs: flat(q, FEATURE_DIM),
      vInputs: flat(v, STATE_DIM),
      nextVInputs: flat(vNext, STATE_DIM),
      rewards: Float32Array.from(rewards),
      dones: Float32Array.from(dones),
    },
    returns: Float32Array.from(returns),
    group: Int32Array.from(group),
    subgraphs: opts.trajectories - skipped,
    skipped,
    episodes,
  };
}

/**
 * One episode: start from the seed, then at each step take the next recorded table that
 * attaches to the current set (or, with probability `perturb`, a random other admissible
 * action). Ends when the recorded tables are used up, nothing attaches, or the budget is spent.
 */
function replayEpisode(sub: SampledSubgraph, ctx: ValueContext, perturb: number, rand: () => number): { list: Step[]; finalUtility: number } {
  const { model } = ctx;
  const list: Step[] = [];
  let tables = [sub.seed];
  let utility = model.utility(tables);
  // The summary of s' is the summary of the next step's s: computed once per state.
  let summary = summariseState(tables, ctx, utility);
  const pending = sub.steps.filter((s) => s.tableId !== sub.seed);
  const actionOptions = ACTION_OPTIONS(ctx.budget, ctx.lookaheadHops);
  while (tables.length < ctx.budget) {
    const state = { tables, utility };
    const admissible = admissibleActions(model, state, ctx, actionOptions);
    const inSet = new Set(tables);
    const recordedIndex = pending.findIndex((s) => inSet.has(s.via) && !inSet.has(s.tableId));
    let action: SearchAction | undefined;
    const others = admissible.filter((a) => recordedIndex < 0 || a.tableId !== pending[recordedIndex].tableId);
    if (perturb > 0 && others.length > 0 && rand() < perturb) {
      action = others[Math.floor(rand() * others.length)];
    } else if (recordedIndex >= 0) {
      const rec = pending[recordedIndex];
      action = admissible.find((a) => a.tableId === rec.tableId) ?? {
        tableId: rec.tableId,
        via: rec.via,
        kind: rec.kind,
        edgeScore: rec.edgeScore,
        reason: classify(model, tables, rec.tableId, rec.kind, rec.via),
      };
    }
    if (!action) break;
    if (recordedIndex >= 0 && pending[recordedIndex].tableId === action.tableId) pending.splice(recordedIndex, 1);
    else {
      const i = pending.findIndex((s) => s.tableId === action!.tableId);
      if (i >= 0) pending.splice(i, 1);
    }
    const features = stateActionFeatures(state, [action], ctx, summary);
    const next = [...tables, action.tableId];
    const nextUtility = model.utility(next);
    const nextSummary = summariseState(next, ctx, nextUtility);
    list.push({ q: features, v: summary.features, vNext: nextSummary.features });
    tables = next;
    utility = nextUtility;
    summary = nextSummary;
    if (pending.length === 0) break;
  }
  return { list, finalUtility: utility };
}

function classify(model: SynthesisModel, tables: string[], tableId: string, kind: 'join' | 'union', via: string): SearchAction['reason'] {
  if (kind === 'union' && model.isShardPair(via, tableId)) return 'shard';
  const covered = model.coverage(tables);
  const row = model.row(tableId);
  const tau = model.options.witnessThreshold;
  return model.nodeAtoms.some((j) => row[j] >= tau && row[j] > covered[j]) ? 'covers' : 'bridge';
}
