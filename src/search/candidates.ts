import { isGenericToken } from '../graph/index.js';
import { alternateConfidence, alternateFeatures, type AlternateEvidence, type AlternateModel, type AlternateStage } from './alternateConfidence.js';
import { ALTERNATE_MODEL } from './alternateModel.js';
import { tableTerms, type QuestionRecall } from './recall.js';
import type { Neighbour } from './snapshot.js';
import type { SynthesisModel } from './synthesisModel.js';

/**
 * Candidate syntheses grown from the recall stage: from each seed, connected growth over the lake
 * graph towards what the question still leaves uncovered, a table always together with its row
 * shards (one logical table), bridges taken when they lead to a table that covers more. Growth
 * stops when no reachable table adds enough of the question. The candidates are whole answers;
 * which one wins is decided by `chooseSynthesis` on the set-level reward.
 */
export interface CandidateOptions {
  /**
   * Seeds tried: the most relevant logical tables of the recall stage (a table's row shards grow
   * the same candidate, so they fill one seed, not one each).
   */
  seeds: number;
  /** A step (table or bridge + table) must add at least this share of the question's weight per logical table. */
  minGainShare: number;
  /** Union-edge score from which a union neighbour may be a row shard. */
  shardThreshold: number;
  /** Cost of each logical table beyond the first, in shares of the question's weight. */
  sizePenalty: number;
  /**
   * Growth ranks a step by its gain times (edge score along the path)^this: of two tables that
   * add the same words, the one behind the stronger join comes first. In a pooled lake most weak
   * edges join unrelated sources (small integer ids contained by chance; see `strongLinkScore`).
   */
  linkStrengthExponent: number;
  /**
   * Cost of a candidate's weak links: this times the sum of (strongLinkScore - edge score) over
   * the links of the strongest spanning tree of its tables weaker than `strongLinkScore` (a
   * row-shard link costs nothing, a missing link counts strongLinkScore).
   */
  weakLinkPenalty: number;
  /**
   * Join score from which a link costs nothing. On the pooled Spider lake 2 to 10 times as many
   * edges below 0.8 join tables of different databases as of one, about as many in 0.80-0.85,
   * almost none above (`tsx bench/edge-sources.ts`).
   */
  strongLinkScore: number;
  /**
   * Weight of the IGMS utility (over the intent graph's atoms, scaled by the best candidate's)
   * beside question coverage: it decides between candidates that cover the question alike,
   * by whether their tables witness the intent's entities, attributes and relations jointly.
   */
  igmsWeight: number;
  /** Runner-up candidates whose new tables become alternates first, if they score this share of the best. */
  runnerUps: number;
  runnerUpShare: number;
  /** Then single tables: relevance of at least this share of the core's most relevant table ... */
  alternateShare: number;
  /** ... at most this many offers, most relevant first. */
  relevantOffers: number;
  /** ... where a table with no edge to the core counts at this factor of its relevance. */
  unlinkedFactor: number;
  /**
   * Then the tables a core column the question names refers to (its join's key side), with at
   * least this score, strongest first (> 1: none): "blonde hair" reaches `colour` through
   * `superhero.hair_colour_id`. Below `fillJoinMinScore` on purpose: a key table cut into row
   * shards joins by weak key-piece edges (0.5-0.65), and the question's word says the link is meant.
   */
  lookupMinScore: number;
  /**
   * Last, tables joining the core with at least this score, strongest link first (> 1: none).
   * Train samples, L = 10, >= 2: 0.8 adds little, 0.5 costs more F1 for the same sufficiency.
   */
  fillJoinMinScore: number;
  /**
   * An alternate is kept only when `alternateModel` gives it at least this confidence that the
   * question needs it (0: every offer that fits the budget). 0.03 for the trees fitted on the
   * offers of multi-table questions (twenty-third session): on the train samples 0.02, 0.025 and
   * 0.03 give the same Sufficiency at L = 10 within 0.006, and 0.03 the most F1. Higher floors
   * looked free before on the train samples, whose questions ask about the databases the model
   * was fitted on, and cost Sufficiency on databases it had not seen (src/search/README.md,
   * "Which alternates an answer keeps").
   */
  minAlternateConfidence: number;
  alternateModel: AlternateModel;
}

export const DEFAULT_CANDIDATE_OPTIONS: CandidateOptions = {
  seeds: 10,
  minGainShare: 0.08,
  shardThreshold: 0.7,
  sizePenalty: 0.02,
  linkStrengthExponent: 1,
  weakLinkPenalty: 0.5,
  strongLinkScore: 0.8,
  igmsWeight: 0.02,
  runnerUps: 3,
  runnerUpShare: 0.8,
  alternateShare: 0.1,
  relevantOffers: 10,
  unlinkedFactor: 0.3,
  lookupMinScore: 0.5,
  fillJoinMinScore: 0.7,
  minAlternateConfidence: 0.03,
  alternateModel: ALTERNATE_MODEL,
};

export interface CandidateSynthesis {
  /** Lake tables, shards included, in the order they were added. */
  tables: string[];
  /** Logical tables (a table and its shards count once). */
  logical: number;
  /** Share of the question's term weight covered, in [0,1]. */
  coverage: number;
  /** Per question term: best match in the set. */
  covered: Float64Array;
}

export interface AlternateOffer {
  /** A table with its row shards. */
  tables: string[];
  evidence: AlternateEvidence;
  /** The model's inputs (`alternateFeatures`: the evidence, and where the offer stands among the question's others). */
  features: number[];
  confidence: number;
}

export interface SynthesisChoice {
  /** The winning candidate's tables. */
  core: string[];
  /** The offers the answer takes after the core, most likely needed first (shards kept together; |core| + their tables <= budget). */
  alternates: AlternateOffer[];
  /** Every offer the alternates' stages made, kept or not, in the order made. */
  offers: AlternateOffer[];
  seeds: string[];
  candidates: number;
  stoppedBy: 'candidates' | 'no-match';
}

/**
 * Grows the candidates, adds the given extra syntheses (the intent's IGMS answer), and keeps the
 * best of those that cover a specific (non-generic) word by the catalog's own words or values,
 * by coverage of the question − `sizePenalty` per logical table beyond the first +
 * `igmsWeight` x IGMS utility (relative to the best candidate's) − `weakLinkPenalty` x the
 * weakness of its links; ties go to the earlier, i.e. more relevant, seed. Then the alternates.
 * Stages offer tables, each table once and always with its row shards: the new tables of the best
 * candidate before its links were counted (when it is not the core), of the runner-up candidates
 * that score close to the best (whole alternative syntheses, offered table by table), then
 * single tables the question matches, linked to the core (others at `unlinkedFactor`), best
 * first, down to `alternateShare` of the core's best relevance and at most `relevantOffers`, then
 * the tables that core columns the question names refer to (`lookupMinScore`), then tables
 * joining the core with a score of at least `fillJoinMinScore`, strongest first. Each offer gets
 * the model's confidence (`alternateConfidence`) that the question needs it; the answer takes
 * the offers in order of confidence, each that clears `minAlternateConfidence` and fits the
 * budget. What is offered and its confidence do not depend on the budget: a larger budget takes
 * more of the same ranking. A question of which no candidate covers a specific word that way gets
 * no answer.
 */
export function chooseSynthesis(
  model: SynthesisModel,
  recall: QuestionRecall,
  args: { budget: number; shardThreshold?: number; extra?: string[][] },
  partial: Partial<CandidateOptions> = {},
): SynthesisChoice {
  const opts = { ...DEFAULT_CANDIDATE_OPTIONS, ...(args.shardThreshold !== undefined ? { shardThreshold: args.shardThreshold } : {}), ...partial };
  const ranked = recall.ranked();
  const seeds = logicalSeeds(model, ranked, opts.seeds, opts.shardThreshold);
  const cands = growCandidates(model, recall, seeds, args.budget, opts);
  for (const tables of args.extra ?? []) if (tables.length > 0 && tables.length <= args.budget) cands.push(describeCandidate(model, recall, tables, opts.shardThreshold));
  const utilities = cands.map((c) => (opts.igmsWeight > 0 ? model.utility(c.tables) : 0));
  const maxU = Math.max(1e-12, ...utilities);
  // `unlinked`: the score before the weak-link cost (see the runner-ups below).
  const unlinked = cands.map((c, i) => c.coverage - opts.sizePenalty * (c.logical - 1) + (opts.igmsWeight * utilities[i]) / maxU);
  const scores = cands.map((c, i) => unlinked[i] - (opts.weakLinkPenalty > 0 ? opts.weakLinkPenalty * linkWeakness(model, c.tables, opts.strongLinkScore, opts.shardThreshold) : 0));
  // The core is the best candidate the catalog's own words or values support: one that only
  // relatives (a word-vector neighbour, a noun of the word family) account for can still be an
  // alternate (a runner-up), never the answer's core.
  const supported = cands.map((c) => coversSpecificWord(recall, c));
  const bestI = firstArgmax(scores.map((s, i) => (supported[i] ? s : -Infinity)));
  const base = { seeds, candidates: cands.length };
  if (bestI < 0 || !supported[bestI]) return { ...base, core: [], alternates: [], offers: [], stoppedBy: 'no-match' };
  const best = cands[bestI];

  const core = [...best.tables];
  const inCore = new Set(core);
  const relevance = (t: string) => recall.relevance.get(t) ?? 0;
  const evidence = new OfferEvidence(model, recall, best);
  const made: { tables: string[]; evidence: AlternateEvidence }[] = [];
  const offered = new Set<string>();
  /** Offers a table with its row shards, those not in the core nor offered before (each table is offered once). */
  const offer = (t: string, stage: AlternateStage, within?: readonly string[], candidateScore = 0): void => {
    const group = model.shardClosure(t, opts.shardThreshold).filter((x) => !inCore.has(x) && !offered.has(x) && (!within || within.includes(x)));
    if (group.length === 0) return;
    for (const x of group) offered.add(x);
    made.push({ tables: group, evidence: evidence.of(group, stage, made.length, candidateScore) });
  };
  const runnerUps = cands
    .map((c, i) => ({ c, s: scores[i] }))
    .filter((x) => x.c !== best && x.s >= opts.runnerUpShare * scores[bestI])
    .sort((x, y) => y.s - x.s)
    .slice(0, opts.runnerUps);
  // The candidate that covered the question best before its weak links were counted comes
  // first when the core is another: the links were doubtful, its tables are still the question's.
  const coverageBest = firstArgmax(unlinked);
  if (coverageBest !== bestI) runnerUps.unshift({ c: cands[coverageBest], s: scores[coverageBest] });
  const relativeScore = (s: number) => (scores[bestI] > 0 ? Math.max(0, Math.min(1.5, s / scores[bestI])) : 0);
  // Each logical table of a runner-up on its own: the confidence decides table by table.
  for (const { c, s } of runnerUps) for (const t of c.tables) offer(t, 'runner-up', c.tables, relativeScore(s));
  const floor = opts.alternateShare * evidence.coreRelevance;
  const relevant = ranked
    .filter((t) => !inCore.has(t) && !offered.has(t))
    .map((t) => ({ t, s: relevance(t) * (evidence.linked.has(t) ? 1 : opts.unlinkedFactor) }))
    .filter((x) => x.s > 0 && x.s >= floor)
    .sort((a, b) => b.s - a.s || model.snapshot.compare(a.t, b.t));
  const start = made.length;
  for (const { t } of relevant) {
    if (made.length - start >= opts.relevantOffers) break;
    offer(t, 'relevant');
  }
  for (const t of namedLookups(model, evidence, opts.lookupMinScore)) offer(t, 'lookup');
  // Last, what no question word names but the core joins strongly: an entity table reached only
  // through a link table's column, a lookup table. One hop from the core only (the alternates'
  // neighbours cost F1 for no sufficiency on the train questions).
  const strong = [...evidence.joinScore].filter(([t, score]) => score >= opts.fillJoinMinScore && !inCore.has(t));
  strong.sort((a, b) => b[1] - a[1] || relevance(b[0]) - relevance(a[0]) || model.snapshot.compare(a[0], b[0]));
  for (const [t] of strong) offer(t, 'strong-join');

  const rows = alternateFeatures(made.map((m) => m.evidence));
  const offers: AlternateOffer[] = made.map((m, i) => ({ ...m, features: rows[i], confidence: alternateConfidence(rows[i], opts.alternateModel) }));
  const kept = keptOffers(offers, args.budget - core.length, opts.minAlternateConfidence);
  return { ...base, core, alternates: kept.map((i) => offers[i]), offers, stoppedBy: 'candidates' };
}

/**
 * Which offers an answer takes, in the order taken: most likely first, each whose confidence is at
 * least `floor` and whose tables fit what is left of `room`.
 */
export function keptOffers(offers: readonly { tables: readonly unknown[]; confidence: number }[], room: number, floor: number): number[] {
  const kept: number[] = [];
  let left = room;
  const byConfidence = offers.map((_, i) => i).sort((a, b) => offers[b].confidence - offers[a].confidence || a - b);
  for (const i of byConfidence) {
    if (offers[i].confidence < floor) break;
    if (offers[i].tables.length > left) continue;
    kept.push(i);
    left -= offers[i].tables.length;
  }
  return kept;
}

/** A term matched at least this strongly is matched by a table's name (or a name-bound word pair). */
const FULL_MATCH = 0.99;

/** What the alternates' model knows of an offer against one core (`AlternateEvidence`): read once per answer. */
class OfferEvidence {
  /** Tables with an edge (join or union) to the core. */
  readonly linked = new Set<string>();
  /** Tables joining the core: their strongest join score. */
  readonly joinScore = new Map<string, number>();
  private readonly unioned = new Set<string>();
  /** The core's best recall relevance. */
  readonly coreRelevance: number;
  private readonly coreNames: Set<string>;
  private readonly questionWords: Set<string>;
  private readonly inCore: Set<string>;
  /** Join edges from core columns: the table referred to, the score, whether a specific question word names the column. */
  readonly coreReferences: { to: string; score: number; named: boolean }[] = [];

  constructor(
    private readonly model: SynthesisModel,
    private readonly recall: QuestionRecall,
    private readonly core: CandidateSynthesis,
  ) {
    for (const t of core.tables) {
      for (const n of model.snapshot.neighbours(t)) {
        this.linked.add(n.tableId);
        if (n.kind === 'join') this.joinScore.set(n.tableId, Math.max(this.joinScore.get(n.tableId) ?? 0, n.score));
        else this.unioned.add(n.tableId);
      }
    }
    this.coreRelevance = Math.max(...core.tables.map((t) => this.relevance(t)));
    this.coreNames = new Set(core.tables.map((t) => this.nameOf(t)));
    this.questionWords = new Set(recall.terms.map((t) => t.token));
    this.inCore = new Set(core.tables);
    // Single question words: the recall's word-pair terms are no column's word.
    const words = new Set(recall.terms.map((t) => t.token).filter((w) => !w.includes(' ') && !isGenericToken(w)));
    for (const id of core.tables) {
      const t = model.snapshot.tableById.get(id);
      if (!t) continue;
      tableTerms(t).perColumn.forEach((columnWords, i) => {
        const named = [...columnWords].some((w) => words.has(w));
        for (const j of model.snapshot.referencesFrom(t.columns[i].id)) this.coreReferences.push({ to: j.toTableId, score: j.score, named });
      });
    }
  }

  of(group: readonly string[], stage: AlternateStage, position: number, candidateScore: number): AlternateEvidence {
    const added = new Float64Array(this.core.covered);
    for (const t of group) cover(added, this.recall.match(t));
    const inGroup = new Set(group);
    let referencedByCore = 0;
    let referencedByNamedColumn = 0;
    for (const { score, named, to } of this.coreReferences) {
      if (!inGroup.has(to)) continue;
      referencedByCore = Math.max(referencedByCore, score);
      if (named) referencedByNamedColumn = Math.max(referencedByNamedColumn, score);
    }
    let refersToCore = 0;
    for (const t of group) {
      for (const c of this.model.snapshot.tableById.get(t)?.columns ?? []) {
        for (const j of this.model.snapshot.referencesFrom(c.id)) if (this.inCore.has(j.toTableId)) refersToCore = Math.max(refersToCore, j.score);
      }
    }
    // Terms an offered table matches fully (a name match) where the core matches less.
    let nameGain = 0;
    this.recall.terms.forEach((term, k) => {
      if (this.core.covered[k] < FULL_MATCH && group.some((t) => (this.recall.match(t)?.[k] ?? 0) >= FULL_MATCH)) nameGain += term.weight;
    });
    return {
      stage,
      joinScore: Math.max(0, ...group.map((t) => this.joinScore.get(t) ?? 0)),
      linked: group.some((t) => this.linked.has(t)),
      unionToCore: group.some((t) => this.unioned.has(t)),
      relevance: this.coreRelevance > 0 ? Math.max(...group.map((t) => this.relevance(t))) / this.coreRelevance : 0,
      sameName: group.some((t) => this.coreNames.has(this.nameOf(t))),
      coverageGain: coverageShare(this.recall, added) - this.core.coverage,
      position,
      coreCoverage: this.core.coverage,
      coreTables: this.core.logical,
      candidateScore,
      nameShare: Math.max(...group.map((t) => this.nameShare(t))),
      referencedByCore,
      referencedByNamedColumn,
      refersToCore,
      nameGain: this.recall.totalWeight > 0 ? nameGain / this.recall.totalWeight : 0,
      relevanceRank: Math.min(...group.map((t) => this.recall.rank(t))),
      tables: group.length,
      name: this.nameOf(group[0]),
    };
  }

  private relevance(t: string): number {
    return this.recall.relevance.get(t) ?? 0;
  }

  private nameOf(t: string): string {
    return [...tableTerms(this.model.snapshot.tableById.get(t)!).name].sort().join(' ');
  }

  /**
   * Share of a table's name words that are the question's own words. Not the recall's name share,
   * which counts words its relatives stand for: the model asks whether the question names the
   * table itself (fitted that way).
   */
  private nameShare(t: string): number {
    const name = tableTerms(this.model.snapshot.tableById.get(t)!).name;
    return name.size > 0 ? [...name].filter((w) => this.questionWords.has(w)).length / name.size : 0;
  }
}

/**
 * The tables that columns of the core refer to, for the columns a specific question word names
 * (`hair` of `hair_colour_id`, `power` of `power_id`), strongest link first: the table holding
 * what the column only points at (a colour's name, a power's name), which no question word
 * need name ("blonde" is a cell of it).
 */
function namedLookups(model: SynthesisModel, evidence: OfferEvidence, minScore: number): string[] {
  const links = evidence.coreReferences.filter((r) => r.named && r.score >= minScore);
  links.sort((a, b) => b.score - a.score || model.snapshot.compare(a.to, b.to));
  return [...new Set(links.map((l) => l.to))];
}

/** Index of the highest value, the earliest among equals (within 1e-12); -1 when empty. */
function firstArgmax(values: readonly number[]): number {
  let best = -1;
  values.forEach((v, i) => {
    if (best < 0 || v > values[best] + 1e-12) best = i;
  });
  return best;
}

/**
 * Sum of (strong - edge score) over the links of the strongest spanning tree of `tables` (Prim
 * from the first) weaker than `strong`: a union link (row shards, one logical table) costs 0, a
 * table the tree cannot reach costs `strong`. A join between two tables each of which the set
 * holds with all its row shards, one of them cut into shards at least, counts as the join of the
 * whole tables (`SynthesisModel.wholeTableJoinScore`): the edge to one piece of a key table
 * understates it.
 */
function linkWeakness(model: SynthesisModel, tables: readonly string[], strong: number, shardThreshold: number): number {
  if (tables.length <= 1) return 0;
  const inSet = new Set(tables);
  // Per table of the set: whether it has row shards, and whether the set holds all of them.
  const pieces = new Map<string, { sharded: boolean; whole: boolean }>();
  const piecesOf = (t: string) => {
    let p = pieces.get(t);
    if (!p) {
      const closure = model.shardClosure(t, shardThreshold);
      pieces.set(t, (p = { sharded: closure.length > 1, whole: closure.every((x) => inSet.has(x)) }));
    }
    return p;
  };
  const linkScore = (t: string, n: Neighbour): number => {
    if (n.kind === 'union') return 1;
    const a = piecesOf(t);
    const b = piecesOf(n.tableId);
    return a.whole && b.whole && (a.sharded || b.sharded) ? model.wholeTableJoinScore(t, n.tableId, shardThreshold) : n.score;
  };
  const best = new Map<string, number>();
  const tree = new Set<string>();
  let weakness = 0;
  for (let next: string | undefined = tables[0]; next !== undefined; ) {
    tree.add(next);
    best.delete(next);
    for (const n of model.snapshot.neighbours(next)) {
      if (!inSet.has(n.tableId) || tree.has(n.tableId)) continue;
      const score = linkScore(next, n);
      if (score > (best.get(n.tableId) ?? -1)) best.set(n.tableId, score);
    }
    // Attach the member with the strongest link to the tree (the sum does not depend on ties).
    next = undefined;
    let strongest = -1;
    for (const [t, score] of best) if (score > strongest) (strongest = score), (next = t);
    if (next !== undefined) weakness += Math.max(0, strong - strongest);
  }
  return weakness + strong * (tables.length - tree.size);
}

/**
 * The candidate accounts for a specific (non-generic) question word by the catalog's own words or
 * values. A relative alone (a word-vector neighbour: "near" ~ city, "salary" ~ payment; a noun of
 * the word's family: "paid" ~ payment; a narrower noun: aviator ~ pilot) widens recall but does
 * not show that the catalog knows what the question is about.
 */
function coversSpecificWord(recall: QuestionRecall, c: CandidateSynthesis): boolean {
  return recall.terms.some((t, i) => c.covered[i] > 0 && !isGenericToken(t.token) && c.tables.some((id) => recall.matchesLexically(id, i)));
}

/** A candidate for a given table set (e.g. the intent's IGMS answer), measured like grown ones. */
function describeCandidate(model: SynthesisModel, recall: QuestionRecall, tables: string[], shardThreshold: number): CandidateSynthesis {
  const covered = new Float64Array(recall.terms.length);
  for (const t of tables) cover(covered, recall.match(t));
  // Logical tables: a table and its row shards count once.
  const groups = new Set(tables.map((t) => model.shardClosure(t, shardThreshold).sort()[0]));
  return { tables, logical: groups.size, coverage: coverageShare(recall, covered), covered };
}

/** Raises `covered` to a table's matches (per term, the best so far). */
function cover(covered: Float64Array, m: Float64Array | undefined): void {
  if (m) for (let i = 0; i < covered.length; i++) if (m[i] > covered[i]) covered[i] = m[i];
}

/** Weight the matches `m` add over `covered` (and over `also`, a table added with it: a bridge). */
function gain(recall: QuestionRecall, covered: Float64Array, m: Float64Array | undefined, also?: Float64Array): number {
  let g = 0;
  if (!m) return 0;
  for (let i = 0; i < covered.length; i++) {
    const base = also && also[i] > covered[i] ? also[i] : covered[i];
    if (m[i] > base) g += (m[i] - base) * recall.terms[i].weight;
  }
  return g;
}

/** Share of the question's weight that `covered` accounts for, in [0,1]. */
function coverageShare(recall: QuestionRecall, covered: Float64Array): number {
  let c = 0;
  recall.terms.forEach((term, i) => (c += covered[i] * term.weight));
  return recall.totalWeight > 0 ? c / recall.totalWeight : 0;
}

/**
 * The `count` most relevant tables, one per logical table: a table among the row shards of a more
 * relevant one would grow the same candidate (`growFrom` adds a table with its shards), so it
 * leaves the seed to the next table.
 */
export function logicalSeeds(model: SynthesisModel, ranked: readonly string[], count: number, shardThreshold: number): string[] {
  const seeds: string[] = [];
  const held = new Set<string>();
  for (const t of ranked) {
    if (seeds.length >= count) break;
    if (held.has(t)) continue;
    seeds.push(t);
    for (const x of model.shardClosure(t, shardThreshold)) held.add(x);
  }
  return seeds;
}

/** Grows one candidate per seed (duplicates removed), in seed order. */
export function growCandidates(
  model: SynthesisModel,
  recall: QuestionRecall,
  seeds: readonly string[],
  budget: number,
  opts: CandidateOptions = DEFAULT_CANDIDATE_OPTIONS,
): CandidateSynthesis[] {
  const out: CandidateSynthesis[] = [];
  const seen = new Set<string>();
  for (const seed of seeds) {
    const c = growFrom(model, recall, seed, budget, opts);
    const key = [...c.tables].sort().join(',');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(c);
  }
  return out;
}

function growFrom(model: SynthesisModel, recall: QuestionRecall, seed: string, budget: number, opts: CandidateOptions): CandidateSynthesis {
  const snap = model.snapshot;
  const k = recall.terms.length;
  const covered = new Float64Array(k);
  const tables: string[] = [];
  const inSet = new Set<string>();
  let logical = 0;
  const add = (id: string): void => {
    // A budget smaller than the seed's shard group keeps the first shards only.
    const group = model.shardClosure(id, opts.shardThreshold).filter((t) => !inSet.has(t)).slice(0, Math.max(1, budget - tables.length));
    for (const t of group) {
      inSet.add(t);
      tables.push(t);
      cover(covered, recall.match(t));
    }
    logical++;
  };
  const gainOf = (id: string): number => gain(recall, covered, recall.match(id));
  add(seed);
  const threshold = opts.minGainShare * recall.totalWeight;
  while (tables.length < budget) {
    let best: { path: string[]; score: number; gain: number } | null = null;
    // `strength`: product of the edge scores along the path.
    const consider = (path: string[], gain: number, strength: number): void => {
      if (gain / path.length < threshold) return;
      const score = (gain * strength ** opts.linkStrengthExponent) / path.length;
      if (!best || score > best.score + 1e-12 || (Math.abs(score - best.score) <= 1e-12 && snap.compare(path[path.length - 1], best.path[best.path.length - 1]) < 0)) {
        best = { path, score, gain };
      }
    };
    for (const t of tables) {
      for (const n of snap.neighbours(t)) {
        if (inSet.has(n.tableId)) continue;
        const g1 = gainOf(n.tableId);
        consider([n.tableId], g1, n.score);
        // A bridge: a neighbour that covers little itself but leads to a table that covers more.
        for (const n2 of snap.neighbours(n.tableId)) {
          if (inSet.has(n2.tableId) || n2.tableId === n.tableId) continue;
          if (gainOf(n2.tableId) <= g1) continue;
          consider([n.tableId, n2.tableId], g1 + gain(recall, covered, recall.match(n2.tableId), recall.match(n.tableId)), n.score * n2.score);
        }
      }
    }
    if (!best) break;
    const chosen: { path: string[] } = best;
    if (tables.length + chosen.path.length > budget) break;
    for (const id of chosen.path) add(id);
  }
  return { tables, logical, coverage: coverageShare(recall, covered), covered };
}
