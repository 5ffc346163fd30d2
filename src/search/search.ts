import { beamSearch } from './beamSearch.js';
import { checkpoint } from './cancel.js';
import { chooseSynthesis, DEFAULT_CANDIDATE_OPTIONS, type AlternateOffer } from './candidates.js';
import { LexicalIndex, QuestionRecall } from './recall.js';
import { exactSearch } from './exact.js';
import { anchorRegion } from './region.js';
import { lazyRerank } from './rerank.js';
import type { RelationRealisation, SynthesisModel } from './synthesisModel.js';
import { HeuristicValueFunction, type ValueFunction } from './valueFunction.js';

export interface SearchOptions {
  budget: number;
  beamWidth: number;
  strategy: 'beam' | 'exact';
  valueFunction: ValueFunction;
  anchorsPerAtom: number;
  lookaheadHops: number;
  maxRegionTables: number;
  minGain: number;
  shardThreshold: number;
  maxActionsPerState: number;
  exactMaxTables: number;
  /** Starting tables tried by the greedy rerank. */
  rerankStarts: number;
  /** The question's text: the recall stage reads it (empty: the intent's labels only). */
  question: string;
  /** An alternate is kept only with at least this confidence that the question needs it (`CandidateOptions`). */
  minAlternateConfidence: number;
  /** Cancels the search: checked between beam depths, rerank starts and exact-search starts. */
  signal?: AbortSignal;
}

export const DEFAULT_SEARCH_OPTIONS: SearchOptions = {
  budget: 10,
  beamWidth: 4,
  strategy: 'beam',
  valueFunction: new HeuristicValueFunction(),
  anchorsPerAtom: 5,
  lookaheadHops: 2,
  maxRegionTables: 300,
  minGain: 0.01,
  shardThreshold: 0.7,
  maxActionsPerState: 24,
  exactMaxTables: 14,
  rerankStarts: 4,
  question: '',
  minAlternateConfidence: DEFAULT_CANDIDATE_OPTIONS.minAlternateConfidence,
};

/** `alternate`: outside the core synthesis, returned to spend the budget where the evidence is ambiguous. */
export type SearchedRole = 'witness' | 'bridge' | 'shard' | 'alternate';

export interface SearchedTable {
  id: string;
  role: SearchedRole;
  /** Atom indices it supports (witness/shard) or relation atoms it bridges. */
  atoms: number[];
  gain: number;
  /** Alternates: the model's confidence that the question needs the table (`alternateConfidence`). */
  confidence?: number;
}

export interface SearchOutcome {
  tables: SearchedTable[];
  utility: number;
  realisations: RelationRealisation[];
  regionSize: number;
  seeds: string[];
  evaluations: number;
  stoppedBy: string;
  /** Every table the search could have chosen (anchor region and the recall stage's matches): what region recall is measured on. */
  region: string[];
  /** The alternates' offers, kept or not, with their evidence and confidence (empty: no core). */
  offers: AlternateOffer[];
  /** The confidence an offer needed to be kept (`minAlternateConfidence`): an offer above it that was not kept found no room. */
  alternateFloor: number;
}

/**
 * Algorithm 3 (anchor region -> value-guided beam search -> exact IGMS rerank) gives the intent's
 * answer; it competes with the candidates grown from the question's words (`candidates.ts`), and
 * the winner is the core, followed by ranked alternates up to the budget. GRAFT-Exact answers
 * with the exact search alone.
 */
export async function searchSynthesis(model: SynthesisModel, partial: Partial<SearchOptions> = {}): Promise<SearchOutcome> {
  const opts = { ...DEFAULT_SEARCH_OPTIONS, ...partial };
  const budget = Math.max(0, Math.floor(opts.budget));
  const empty: SearchOutcome = { tables: [], utility: 0, realisations: [], regionSize: 0, seeds: [], evaluations: 0, stoppedBy: 'empty', region: [], offers: [], alternateFloor: opts.minAlternateConfidence };
  if (budget === 0 || model.snapshot.tables.length === 0 || model.numAtoms === 0) return empty;
  const region = anchorRegion(model, {
    anchorsPerAtom: opts.anchorsPerAtom,
    hops: Math.min(Math.max(budget - 1, 0), opts.lookaheadHops),
    maxTables: opts.maxRegionTables,
  });
  if (opts.strategy === 'exact') {
    if (region.seeds.length === 0) return { ...empty, stoppedBy: 'no-anchors' };
    const ranked = [...region.tables].sort((a, b) => (region.relevance.get(b) ?? 0) - (region.relevance.get(a) ?? 0) || model.snapshot.compare(a, b));
    const r = await exactSearch(model, ranked, { budget, minGain: opts.minGain, maxTables: opts.exactMaxTables, signal: opts.signal });
    const realisations = model.realisations(r.tables);
    return {
      tables: describeRoles(model, r.tables, realisations, greedyOrderGains(model, r.tables), opts.shardThreshold),
      utility: model.utility(r.tables),
      realisations,
      regionSize: region.tables.size,
      seeds: region.seeds,
      evaluations: r.evaluated,
      stoppedBy: 'exact',
      region: [...region.tables],
      offers: [],
      alternateFloor: opts.minAlternateConfidence,
    };
  }

  // The intent's own answer: value-guided beam search over the anchor region, exact IGMS rerank.
  let igmsAnswer: string[] = [];
  let evaluations = 0;
  if (region.seeds.length > 0) {
    const beam = await beamSearch(model, region, opts.valueFunction, {
      budget,
      beamWidth: Math.max(1, opts.beamWidth),
      lookaheadHops: opts.lookaheadHops,
      shardThreshold: opts.shardThreshold,
      maxActionsPerState: opts.maxActionsPerState,
      signal: opts.signal,
    });
    const pool = [...new Set(beam.states.flatMap((s) => s.tables))];
    // Greedy from one start can be trapped in a corner of the lake graph (the best single table
    // may have no edge towards the rest of the answer): run it from the few best starts and keep
    // the best answer under the same per-table cost that stops it.
    const starts = pool
      .map((id) => ({ id, u: model.utility([id]) }))
      .sort((a, b) => b.u - a.u || model.snapshot.compare(a.id, b.id))
      .slice(0, opts.rerankStarts)
      .map((x) => x.id);
    await checkpoint(opts.signal);
    let r = lazyRerank(model, pool, { budget, minGain: opts.minGain, shardThreshold: opts.shardThreshold, start: starts[0] });
    for (const start of starts.slice(1)) {
      await checkpoint(opts.signal);
      const alt = lazyRerank(model, pool, { budget, minGain: opts.minGain, shardThreshold: opts.shardThreshold, start });
      if (alt.utility - opts.minGain * alt.tables.length > r.utility - opts.minGain * r.tables.length + 1e-12) r = alt;
    }
    evaluations = beam.evaluations + r.evaluations;
    igmsAnswer = r.tables;
  }

  // The question's own words: candidates grown from the recall stage compete with the intent's
  // answer as whole syntheses; the core is the one that accounts for most of the question.
  await checkpoint(opts.signal);
  const labels = model.atoms.filter((a) => a.kind !== 'relation').map((a) => a.label).join(' ');
  const recall = new QuestionRecall(LexicalIndex.of(model.snapshot), opts.question.trim() !== '' ? opts.question : labels);
  const choice = chooseSynthesis(
    model,
    recall,
    { budget, shardThreshold: opts.shardThreshold, extra: igmsAnswer.length > 0 ? [igmsAnswer] : [] },
    { minAlternateConfidence: opts.minAlternateConfidence },
  );
  const searched = [...new Set([...region.tables, ...recall.ranked()])];
  if (choice.core.length === 0) return { ...empty, regionSize: searched.length, seeds: region.seeds, evaluations, stoppedBy: choice.stoppedBy, region: searched };
  const realisations = model.realisations(choice.core);
  const gains = greedyOrderGains(model, choice.core);
  const core = describeRoles(model, choice.core, realisations, gains, opts.shardThreshold);
  const alternates: SearchedTable[] = choice.alternates.flatMap((o) => o.tables.map((id) => ({ id, role: 'alternate' as const, atoms: supportedAtoms(model, id), gain: 0, confidence: o.confidence })));
  return {
    tables: [...core, ...alternates],
    utility: model.utility(choice.core),
    realisations,
    regionSize: searched.length,
    seeds: choice.seeds,
    evaluations: evaluations + choice.candidates,
    stoppedBy: choice.stoppedBy,
    region: searched,
    offers: choice.offers,
    alternateFloor: opts.minAlternateConfidence,
  };
}

function supportedAtoms(model: SynthesisModel, id: string): number[] {
  const row = model.row(id);
  return model.nodeAtoms.filter((j) => row[j] >= model.options.witnessThreshold);
}

function greedyOrderGains(model: SynthesisModel, tables: string[]): Map<string, number> {
  const out = new Map<string, number>();
  const rest = [...tables];
  const cur: string[] = [];
  let u = 0;
  while (rest.length > 0) {
    let bestI = 0;
    let bestU = -Infinity;
    rest.forEach((t, i) => {
      const v = model.utility([...cur, t]);
      if (v > bestU) {
        bestU = v;
        bestI = i;
      }
    });
    const [t] = rest.splice(bestI, 1);
    cur.push(t);
    out.set(t, bestU - u);
    u = bestU;
  }
  return out;
}

function describeRoles(
  model: SynthesisModel,
  tables: string[],
  realisations: RelationRealisation[],
  gains: Map<string, number>,
  shardThreshold: number,
): SearchedTable[] {
  const tau = model.options.witnessThreshold;
  return tables.map((id) => {
    const row = model.row(id);
    const supported = model.nodeAtoms.filter((j) => row[j] >= tau);
    const bridged = realisations.filter((r) => r.path.includes(id)).map((r) => r.atomIndex);
    let role: SearchedRole = supported.length > 0 ? 'witness' : 'bridge';
    if (role === 'witness') {
      // A table unioned to an earlier-chosen witness that covers the same atoms is a shard/copy of it.
      const earlier = tables.slice(0, tables.indexOf(id));
      const shardOf = model.snapshot
        .neighbours(id)
        .find((n) => n.kind === 'union' && n.score >= shardThreshold && earlier.includes(n.tableId) && model.isShardPair(id, n.tableId));
      if (shardOf) role = 'shard';
    }
    return { id, role, atoms: role === 'bridge' ? bridged : [...supported, ...bridged], gain: gains.get(id) ?? 0 };
  });
}

