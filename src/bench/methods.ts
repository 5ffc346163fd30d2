/**
 * Retrieval methods the benchmark compares, behind one interface, and the four baselines:
 *
 * - `bm25`: Okapi BM25 (k1 1.2, b 0.75) over table name + column names (split on _ and
 *   camelCase), query = question words minus stop words, plurals folded on both sides; top-L.
 * - `dense`: cosine between the question embedding and each table's vector (mean of its column
 *   embeddings, re-normalised), same embedder as the catalog; top-L.
 * - `greedy`: MTR-like iterative retrieval without an LLM: start from the most relevant table
 *   (bm25 + dense), then repeatedly add the table most relevant to the question or to the
 *   table added last (its join/union link to it), up to L.
 * - `jar`: JAR-style selection: top-K candidates by relevance, then the set maximising
 *   relevance plus lambda x (join + union) compatibility of chosen pairs under |S| <= L, solved
 *   exactly by branch and bound (selection.ts). The same model as a MIP for HiGHS
 *   (`selectionLp` / `solveSelection`) is kept as the reference the solver is tested against.
 *
 * Methods return catalog table ids; the runner maps them to lake names. Baselines ignore the
 * intent option; it is there for methods (graft) that use a question decomposition or an LLM.
 */
import type { CatalogDatabase } from '../catalog/database.js';
import { embedQuery, type Embedder } from '../embed/index.js';
import { Bm25Index } from './bm25.js';
import { SELECTION_MAX_NODES, solveSelectionExact } from './selection.js';
import { type CatalogView, dot } from './catalogView.js';
import { foldPlural, splitIdentifier } from '../text/index.js';
import { questionTokens, visibleTableName } from './text.js';

/** How a method may understand the question (recorded with every result row). */
export type BenchIntent =
  | { kind: 'offline' }
  | { kind: 'llm' }
  /** Per-question decompositions from a file (JAR's decomp.json layout: one list per question, aligned by index). */
  | { kind: 'decomp'; file: string; decompositions: (string[] | null)[] };

export interface BenchContext {
  db: CatalogDatabase;
  /** The catalog's embedder, fitted on the catalog's column texts when it is corpus-fitted. */
  embedder: Embedder;
  /** In-memory view of the lake under test (tables, columns, vectors, join/union edges). */
  catalog: CatalogView;
  intent: BenchIntent;
  lakeDir: string;
  /** Options the engine's methods pass on every call (`graft bench run --min-alternate-confidence`); baselines ignore them. */
  engineOptions?: { minAlternateConfidence?: number };
}

/** What a method may know about a question besides its text (never its database or gold). */
export interface BenchQuestion {
  /** Position in the questions file (aligns with decomposition files). */
  index: number;
  /** The question's decomposition when the intent is `decomp:<file>`. */
  decomposition?: string[];
}

export interface RetrievalMethod {
  name: string;
  /** Called once per run, before any question (index building goes here, timed separately). */
  prepare(ctx: BenchContext): Promise<void>;
  /** At most `budget` catalog table ids, best first. */
  retrieve(question: string, budget: number, q?: BenchQuestion): Promise<string[]>;
  /** Optional per-run counters the runner records (e.g. MIP fallbacks). */
  stats?(): Record<string, number>;
  /** What the last `retrieve` did beyond its answer, for diagnostics (methods with a core and a search region). */
  trace?(): RetrievalTrace | undefined;
  close?(): Promise<void>;
}

export interface RetrievalTrace {
  /** How many of the returned tables (the first ones) form the core answer; the rest are alternates. */
  core: number;
  /** Catalog ids of every table the method could have returned (its search region). */
  region: string[];
  /** Methods that offer alternates: every offer, taken or not, and the confidence an offer needed to be taken. */
  offers?: TracedOffer[];
  alternateFloor?: number;
}

/** One alternates' offer (a table with its row shards): catalog ids, the stage that made it, its confidence. */
export interface TracedOffer {
  tables: string[];
  stage: string;
  confidence: number;
}

export type RetrievalMethodFactory = () => RetrievalMethod;

const registry = new Map<string, RetrievalMethodFactory>();

/** Makes a method available to `runBench` / `graft bench run --methods` by name. */
export function registerRetrievalMethod(name: string, factory: RetrievalMethodFactory): void {
  registry.set(name, factory);
}

export function retrievalMethodNames(): string[] {
  return [...registry.keys()];
}

export function createRetrievalMethod(name: string): RetrievalMethod | undefined {
  return registry.get(name)?.();
}

/** Indices of the `k` largest scores, ties broken by table name then id (deterministic). */
function topK(scores: ArrayLike<number>, k: number, ids: string[], names: string[]): number[] {
  const order = Array.from({ length: scores.length }, (_, i) => i);
  order.sort((a, b) => scores[b] - scores[a] || cmp(names[a], names[b]) || cmp(ids[a], ids[b]));
  return order.slice(0, Math.max(0, k));
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Shared state of the baselines: the lexical index and table vectors over the view. */
class Relevance {
  readonly ids: string[];
  readonly names: string[];
  readonly bm25: Bm25Index;
  readonly vectors: (Float32Array | null)[];

  constructor(
    readonly ctx: BenchContext,
  ) {
    const tables = ctx.catalog.tables;
    this.ids = tables.map((t) => t.id);
    this.names = tables.map((t) => t.name);
    this.bm25 = new Bm25Index(
      tables.map((t) => [
        ...splitIdentifier(visibleTableName(t.name)),
        ...t.columns.flatMap((c) => splitIdentifier(c.name)),
      ].map(foldPlural)),
    );
    this.vectors = tables.map((t) => t.vector);
  }

  lexical(question: string): Float64Array {
    return this.bm25.scores(questionTokens(question).map(foldPlural));
  }

  async dense(question: string): Promise<Float64Array> {
    const q = await embedQuery(this.ctx.embedder, question);
    const out = new Float64Array(this.ids.length);
    this.vectors.forEach((v, i) => {
      out[i] = v ? dot(q, v) : -1;
    });
    return out;
  }

  /**
   * bm25 and dense fused: each scaled to [0,1] by its maximum over the lake (cosine clipped at
   * 0), averaged. Scale-free, so neither signal's raw range decides.
   */
  async hybrid(question: string): Promise<Float64Array> {
    const lex = this.lexical(question);
    const den = await this.dense(question);
    const maxLex = Math.max(0, ...lex);
    const maxDen = Math.max(0, ...den);
    const out = new Float64Array(lex.length);
    for (let i = 0; i < lex.length; i++) {
      const l = maxLex > 0 ? lex[i] / maxLex : 0;
      const d = maxDen > 0 ? Math.max(0, den[i]) / maxDen : 0;
      out[i] = 0.5 * l + 0.5 * d;
    }
    return out;
  }

  top(scores: ArrayLike<number>, k: number): number[] {
    return topK(scores, k, this.ids, this.names);
  }
}

abstract class BaselineMethod implements RetrievalMethod {
  abstract name: string;
  protected rel!: Relevance;
  async prepare(ctx: BenchContext): Promise<void> {
    this.rel = new Relevance(ctx);
  }
  abstract retrieve(question: string, budget: number): Promise<string[]>;
}

export class Bm25Method extends BaselineMethod {
  name = 'bm25';
  async retrieve(question: string, budget: number): Promise<string[]> {
    return this.rel.top(this.rel.lexical(question), budget).map((i) => this.rel.ids[i]);
  }
}

export class DenseMethod extends BaselineMethod {
  name = 'dense';
  async retrieve(question: string, budget: number): Promise<string[]> {
    return this.rel.top(await this.rel.dense(question), budget).map((i) => this.rel.ids[i]);
  }
}

export interface GreedyOptions {
  /** Weight of the link to the last added table in its relevance (the rest is the question's). */
  linkWeight?: number;
}

/**
 * Greedy MTR-like expansion. A candidate's score is max(relQ, relLast), where relQ is its
 * fused question relevance and relLast = w · link(last, t) + (1 − w) · relQ, link being the
 * strongest join or union edge between the two tables: a table joined to the one just added
 * is lifted towards its edge strength, an unlinked one keeps its question relevance.
 */
export class GreedyMethod extends BaselineMethod {
  name = 'greedy';
  private readonly w: number;
  constructor(opts: GreedyOptions = {}) {
    super();
    this.w = opts.linkWeight ?? 0.5;
  }
  async retrieve(question: string, budget: number): Promise<string[]> {
    const relQ = await this.rel.hybrid(question);
    const ids = this.rel.ids;
    const index = new Map(ids.map((id, i) => [id, i]));
    const chosen: number[] = [];
    const taken = new Set<number>();
    if (budget <= 0 || ids.length === 0) return [];
    const [first] = this.rel.top(relQ, 1);
    chosen.push(first);
    taken.add(first);
    const names = this.rel.names;
    while (chosen.length < Math.min(budget, ids.length)) {
      // Only the LAST table's links lift candidates in this step.
      const lifted = new Map<number, number>();
      for (const [nid, l] of this.rel.ctx.catalog.neighbours(ids[chosen[chosen.length - 1]])) {
        const j = index.get(nid);
        if (j === undefined || taken.has(j)) continue;
        lifted.set(j, Math.max(relQ[j], this.w * Math.max(l.join, l.union) + (1 - this.w) * relQ[j]));
      }
      let best = -1;
      let bestScore = -Infinity;
      for (let i = 0; i < ids.length; i++) {
        if (taken.has(i)) continue;
        const s = lifted.get(i) ?? relQ[i];
        if (s > bestScore || (s === bestScore && (cmp(names[i], names[best]) || cmp(ids[i], ids[best])) < 0)) {
          best = i;
          bestScore = s;
        }
      }
      if (best < 0) break;
      chosen.push(best);
      taken.add(best);
    }
    return chosen.map((i) => ids[i]);
  }
}

export interface JarOptions {
  /** Candidates: the top max(3L, minCandidates) tables by fused relevance. */
  minCandidates?: number;
  /**
   * Weight of pairwise join + union compatibility against relevance. Each pair's weight is
   * divided by L - 1, so a fully linked answer's compatibility (L(L-1)/2 pairs) stays on the
   * scale of its relevance (L tables) instead of growing quadratically with L.
   */
  lambda?: number;
  /** Branch-and-bound node cap per question; past it the best set found so far is returned. */
  maxNodes?: number;
}

type HighsSolver = { solve(problem: string, options?: Record<string, unknown>): HighsResult };
type HighsResult = { Status: string; Columns: Record<string, { Primal: number }> };

let highsPromise: Promise<HighsSolver> | null = null;
async function loadHighs(): Promise<HighsSolver> {
  if (!highsPromise) {
    highsPromise = (async () => {
      const mod = (await import('highs')) as unknown as { default: () => Promise<HighsSolver> };
      return mod.default();
    })();
  }
  return highsPromise;
}

/** A number as LP-format text (no exponent notation). */
function lpNum(x: number): string {
  return x.toFixed(6);
}

export interface SelectionModel {
  /** Relevance per candidate. */
  rel: number[];
  /** Pairwise compatibility (i < j, weight > 0). */
  pairs: { i: number; j: number; w: number }[];
  budget: number;
  lambda: number;
}

/** The JAR-style selection model in CPLEX LP format; `relax` drops integrality (x, y in [0,1]). */
export function selectionLp(m: SelectionModel, relax = false): string {
  const obj: string[] = m.rel.map((r, i) => `${lpNum(r)} x${i}`);
  for (const p of m.pairs) obj.push(`${lpNum(m.lambda * p.w)} y${p.i}_${p.j}`);
  const cons: string[] = [];
  m.pairs.forEach((p, k) => {
    cons.push(` a${k}: y${p.i}_${p.j} - x${p.i} <= 0`);
    cons.push(` b${k}: y${p.i}_${p.j} - x${p.j} <= 0`);
  });
  cons.push(` card: ${m.rel.map((_, i) => `x${i}`).join(' + ')} <= ${m.budget}`);
  // Valid inequality: a chosen table pairs with at most L - 1 others. Redundant for integer
  // points, but it tightens the LP bound a lot (the plain y <= x relaxation sets every y to
  // 1/2 with x = 1/2), which is what lets the MIP close quickly on dense candidate graphs.
  const incident = new Map<number, string[]>();
  for (const p of m.pairs) {
    for (const v of [p.i, p.j]) {
      if (!incident.has(v)) incident.set(v, []);
      incident.get(v)!.push(`y${p.i}_${p.j}`);
    }
  }
  for (const [v, ys] of [...incident.entries()].sort((a, b) => a[0] - b[0])) {
    if (ys.length > m.budget - 1) cons.push(` d${v}: ${ys.join(' + ')} - ${m.budget - 1} x${v} <= 0`);
  }
  const vars = [...m.rel.map((_, i) => `x${i}`), ...m.pairs.map((p) => `y${p.i}_${p.j}`)];
  const wrap = (xs: string[]) => xs.reduce<string[]>((lines, v) => {
    if (lines.length === 0 || lines[lines.length - 1].length > 200) lines.push(` ${v}`);
    else lines[lines.length - 1] += ` ${v}`;
    return lines;
  }, []);
  return [
    'Maximize',
    ...wrap(['obj:', obj.join(' + ')]),
    'Subject To',
    ...cons,
    'Bounds',
    ...vars.map((v) => ` 0 <= ${v} <= 1`),
    ...(relax ? [] : ['Binary', ...wrap(vars)]),
    'End',
    '',
  ].join('\n');
}

/**
 * The selection model as a MIP for HiGHS: candidate indices chosen, best relevance first. The MIP
 * when it finishes within the limit, else the LP relaxation rounded (top-`budget` x values).
 * jar itself no longer uses it (`solveSelectionExact` reaches the same optimum 100–1000x
 * faster and without a time-dependent fallback); it is the reference the exact solver is tested
 * against.
 */
export async function solveSelection(m: SelectionModel, timeLimitS: number): Promise<{ chosen: number[]; fallback: boolean }> {
  const highs = await loadHighs();
  const byRel = (a: number, b: number) => m.rel[b] - m.rel[a] || a - b;
  const mip = highs.solve(selectionLp(m), { time_limit: timeLimitS, output_flag: false });
  if (mip.Status === 'Optimal') {
    const chosen = m.rel.map((_, i) => i).filter((i) => (mip.Columns[`x${i}`]?.Primal ?? 0) > 0.5);
    return { chosen: chosen.sort(byRel), fallback: false };
  }
  const lp = highs.solve(selectionLp(m, true), { output_flag: false });
  const x = m.rel.map((_, i) => lp.Columns[`x${i}`]?.Primal ?? 0);
  const order = m.rel.map((_, i) => i).sort((a, b) => x[b] - x[a] || byRel(a, b));
  return { chosen: order.slice(0, m.budget).filter((i) => x[i] > 1e-9).sort(byRel), fallback: true };
}

export class JarMethod extends BaselineMethod {
  name = 'jar';
  private readonly opts: Required<JarOptions>;
  private solves = 0;
  private nodeCapHits = 0;
  private nodes = 0;
  constructor(opts: JarOptions = {}) {
    super();
    this.opts = { minCandidates: opts.minCandidates ?? 30, lambda: opts.lambda ?? 0.5, maxNodes: opts.maxNodes ?? SELECTION_MAX_NODES };
  }
  async retrieve(question: string, budget: number): Promise<string[]> {
    if (budget <= 0) return [];
    const { model, candidates } = await this.selectionModel(question, budget);
    const { chosen, nodes, exhausted } = solveSelectionExact(model, this.opts.maxNodes);
    this.solves++;
    this.nodes += nodes;
    if (exhausted) this.nodeCapHits++;
    return chosen.map((k) => candidates[k]);
  }
  /** The question's selection model and the catalog ids of its candidates (model index = position). */
  async selectionModel(question: string, budget: number): Promise<{ model: SelectionModel; candidates: string[] }> {
    const relQ = await this.rel.hybrid(question);
    const cand = this.rel.top(relQ, Math.max(3 * budget, this.opts.minCandidates));
    const ids = this.rel.ids;
    const pairs: SelectionModel['pairs'] = [];
    for (let i = 0; i < cand.length; i++) {
      for (let j = i + 1; j < cand.length; j++) {
        const l = this.rel.ctx.catalog.link(ids[cand[i]], ids[cand[j]]);
        const w = l.join + l.union;
        if (w > 0) pairs.push({ i, j, w });
      }
    }
    // A small floor keeps zero-relevance candidates distinguishable from "not chosen".
    const rel = cand.map((c) => Math.max(relQ[c], 1e-4));
    const lambda = this.opts.lambda / Math.max(1, budget - 1);
    return { model: { rel, pairs, budget, lambda }, candidates: cand.map((c) => ids[c]) };
  }
  stats(): Record<string, number> {
    return { solves: this.solves, nodes: this.nodes, nodeCapHits: this.nodeCapHits };
  }
}

registerRetrievalMethod('bm25', () => new Bm25Method());
registerRetrievalMethod('dense', () => new DenseMethod());
registerRetrievalMethod('greedy', () => new GreedyMethod());
registerRetrievalMethod('jar', () => new JarMethod());

export { BASELINE_METHODS } from './defaults.js';
