/**
 * The benchmark runner: every method x budget over every question of a bench lake, against a
 * catalog that holds the lake (ingested here, timed, when it does not). Writes per-question rows
 * and macro summaries to bench/out/ and can render them into docs/BENCHMARKS.md.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { countOutdatedProfiles, openCatalog, readReadyTableUris, staleEdgeRules, type CatalogDatabase } from '../catalog/index.js';
import { createEmbedder, embedderConfigFromEnv, type Embedder } from '../embed/index.js';
import { ingestLake } from '../ingest/index.js';
import { closeDuckDB } from '../lake/index.js';
import { BadInputError } from '../util/errors.js';
import { goldFromQuestions, readBenchGold, readBenchManifest, type BenchGold, type BenchLakeManifest } from './buildLake.js';
import { CatalogView } from './catalogView.js';
import { gitCommit, machineInfo, type MachineInfo } from './machine.js';
import { latencySummary, macroAverage, questionMetrics, type LatencySummary, type MacroMetrics } from './metrics.js';
import { benchMarkdown } from './report.js';
import { createRetrievalMethod, retrievalMethodNames, type BenchContext, type BenchIntent, type RetrievalMethod } from './methods.js';
import { missedGold, MISSED_REACHES, type MissedGold, type MissedReach } from './missedGold.js';

export { DEFAULT_BUDGETS } from './defaults.js';
import { BASELINE_METHODS, DEFAULT_BUDGETS } from './defaults.js';

export interface RunBenchOptions {
  lakeDir: string;
  /** gold.json of the lake (default `<lakeDir>/gold.json`). */
  goldFile?: string;
  /** Or: a questions file (Spider/BIRD dev.json); gold is derived from it and the lake's manifest. */
  questionsFile?: string;
  budgets?: number[];
  /** Method names (see `retrievalMethodNames()`) or method objects. Default: the four baselines. */
  methods?: (string | RetrievalMethod)[];
  /** 'offline' (default) | 'decomp:<file>' | 'llm'. Passed to methods and recorded with every row. */
  intent?: string;
  /** Only the first N questions (smoke runs). */
  limit?: number;
  /** Options every engine method passes to the engine besides the benchmark's (`BenchContext.engineOptions`). */
  engineOptions?: BenchContext['engineOptions'];
  /**
   * N questions spread evenly over the file (every (len/N)-th), for iterating on large question
   * sets whose order groups questions by database; applied before `limit`.
   */
  sample?: number;
  /** Open catalog to use; default a PGlite catalog at `catalogDir`. */
  db?: CatalogDatabase;
  /** PGlite data directory when `db` is not given (default `<lakeDir>/.graft-db`, hidden from the lake walker). */
  catalogDir?: string;
  embedder?: Embedder;
  /**
   * 'missing' (default): ingest when some lake table is not in the catalog, its edges come from
   * other rules (`staleEdgeRules`) or an older profiler profiled some table (`countOutdatedProfiles`); 'always'; 'never'.
   */
  ingest?: 'missing' | 'always' | 'never';
  /** Results file; default `bench/out/<dataset>-<intent>-<timestamp>.json`. `false`: write nothing. */
  outFile?: string | false;
  /** The command line recorded with the results. */
  command?: string;
  onProgress?: (message: string) => void;
  /**
   * Runs once the catalog holds the lake, before any method is prepared (e.g. training the
   * learned value model); what it returns is recorded with the index (`index.preparation`).
   */
  afterIngest?: (db: CatalogDatabase) => Promise<string | void>;
}

export interface BenchRow {
  questionIndex: number;
  method: string;
  budget: number;
  intent: string;
  /** Lake table names (file stems) returned, in order. */
  retrieved: string[];
  gold: string[];
  goldBaseCount: number;
  recall: number;
  precision: number;
  f1: number;
  sufficiency: 0 | 1;
  returned: number;
  latencyMs: number;
  /** Methods with a trace: size of the core answer, and the share of gold tables inside the search region. */
  core?: number;
  regionRecall?: number;
  /** Methods that trace their alternates' offers: each gold table the answer lacks, and how far the search got with it. */
  missedGold?: MissedGold[];
}

export interface BenchSummary {
  method: string;
  budget: number;
  intent: string;
  all: MacroMetrics;
  /** Questions with >= 2 gold base tables (the headline subset). */
  multi: MacroMetrics;
  latencyMs: LatencySummary;
  /** Diagnostics on the >= 2-table questions (region recall and core size only for methods with a trace). */
  diagnostics: BenchDiagnostics;
}

export interface BenchDiagnostics {
  /** Share of >= 2-table questions whose answer holds no gold table. */
  zeroGoldShare: number;
  /** Mean share of gold tables inside the search region, before any choice. */
  regionRecall: number | null;
  /** Mean size of the core answer (alternates excluded). */
  meanCore: number | null;
  /** F1 and Sufficiency of the core alone (the answer's first `core` tables): what a BI user reads as the answer. */
  coreF1: number | null;
  coreSufficiency: number | null;
  /** Gold tables the answers lack, by `MissedGold.reach` (null: the method traces no offers). */
  missedGold: Record<MissedReach, number> | null;
}

export interface BenchIndexInfo {
  catalog: string;
  /** Whether this run ingested (some of) the lake, and how long that took. */
  ingested: boolean;
  ingestMs: number;
  tablesIngested: number;
  tablesFailed: number;
  lakeTables: number;
  catalogTables: number;
  columns: number;
  joinEdges: number;
  unionEdges: number;
  /** Lake tables the catalog lacks (failed to ingest), and the questions whose gold includes one. */
  missingLakeTables: string[];
  questionsWithMissingGold: number;
  viewLoadMs: number;
  /** What `afterIngest` did (e.g. the value model it trained). */
  preparation?: string;
}

export interface BenchResults {
  protocol: 'graft-bench-results-v1';
  dataset: string;
  lakeDir: string;
  goldSource: string;
  intent: string;
  budgets: number[];
  methods: string[];
  limit: number | null;
  /** `--sample N` (evenly spread questions), when given. */
  sample?: number | null;
  questions: number;
  multiTableQuestions: number;
  embedder: string;
  machine: MachineInfo;
  commit: string;
  command: string;
  startedAt: string;
  elapsedMs: number;
  index: BenchIndexInfo;
  prepareMs: Record<string, number>;
  methodStats: Record<string, Record<string, number>>;
  summary: BenchSummary[];
  rows: BenchRow[];
  outFile: string | null;
}

/** Parses 'offline' | 'llm' | 'decomp:<file>' (the decomposition file aligned with the questions file). */
export async function parseIntent(spec: string | undefined): Promise<BenchIntent> {
  const s = (spec ?? 'offline').trim();
  if (s === 'offline') return { kind: 'offline' };
  if (s === 'llm') return { kind: 'llm' };
  if (s.startsWith('decomp:')) {
    const file = path.resolve(s.slice('decomp:'.length));
    if (!existsSync(file)) throw new BadInputError(`decomposition file not found: ${file}`, { path: file });
    const raw = JSON.parse(await readFile(file, 'utf8')) as unknown;
    if (!Array.isArray(raw)) throw new BadInputError(`${file}: expected a JSON array (one decomposition per question)`, { path: file });
    const decompositions = raw.map((d) => (Array.isArray(d) ? d.map(String) : typeof d === 'string' ? [d] : null));
    return { kind: 'decomp', file, decompositions };
  }
  throw new BadInputError(`intent must be offline, llm or decomp:<file>, not '${s}'`, { field: 'intent' });
}

/** 'offline' | 'llm' | 'decomp' — what a results table may not mix. */
export function intentKind(intent: string): string {
  return intent.startsWith('decomp:') ? 'decomp' : intent;
}

function stamp(d: Date): string {
  return d.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
}

export async function runBench(opts: RunBenchOptions): Promise<BenchResults> {
  const started = performance.now();
  const startedAt = new Date();
  const log = opts.onProgress ?? (() => {});
  const lakeDir = path.resolve(opts.lakeDir);
  const dataset = path.basename(lakeDir);
  const budgets = opts.budgets ?? DEFAULT_BUDGETS;
  if (budgets.length === 0 || budgets.some((b) => !Number.isInteger(b) || b <= 0)) {
    throw new BadInputError(`budgets must be positive integers, not ${JSON.stringify(budgets)}`, { field: 'budgets' });
  }
  const manifestFile = path.join(lakeDir, 'manifest.json');
  if (!existsSync(manifestFile)) throw new BadInputError(`${lakeDir} is not a bench lake (no manifest.json): build it with \`graft bench build\``, { path: manifestFile });
  const manifest: BenchLakeManifest = await readBenchManifest(manifestFile);
  let gold: BenchGold;
  let goldSource: string;
  if (opts.questionsFile) {
    gold = await goldFromQuestions(opts.questionsFile, manifest);
    goldSource = path.resolve(opts.questionsFile);
  } else {
    goldSource = path.resolve(opts.goldFile ?? path.join(lakeDir, 'gold.json'));
    gold = await readBenchGold(goldSource);
  }
  const intentSpec = opts.intent ?? 'offline';
  const intent = await parseIntent(intentSpec);
  const sampled = opts.sample !== undefined ? benchSample(gold, opts.sample) : gold.questions;
  const questions = opts.limit !== undefined ? sampled.slice(0, Math.max(0, opts.limit)) : sampled;

  const methods: RetrievalMethod[] = (opts.methods ?? [...BASELINE_METHODS]).map((m) => {
    if (typeof m !== 'string') return m;
    const made = createRetrievalMethod(m);
    if (!made) throw new BadInputError(`unknown method '${m}' (known: ${retrievalMethodNames().join(', ')})`, { field: 'methods' });
    return made;
  });

  const ownDb = !opts.db;
  const db = opts.db ?? (await openCatalog({ dataDir: opts.catalogDir ?? path.join(lakeDir, '.graft-db') }));
  const ownEmbedder = !opts.embedder;
  const embedder = opts.embedder ?? createEmbedder(embedderConfigFromEnv(process.env));
  try {
    // --- the index: the catalog must hold the lake -------------------------------------------
    const lakeNames = new Set(manifest.tables.map((t) => t.name));
    const inCatalog = async () => {
      const uris = await readReadyTableUris(db, lakeDir + path.sep);
      return new Set(uris.map((uri) => path.basename(uri).replace(/\.[^.]+$/, '')));
    };
    let present = await inCatalog();
    const missingBefore = [...lakeNames].filter((n) => !present.has(n));
    const index: BenchIndexInfo = {
      catalog: db.description, ingested: false, ingestMs: 0, tablesIngested: 0, tablesFailed: 0, lakeTables: lakeNames.size,
      catalogTables: 0, columns: 0, joinEdges: 0, unionEdges: 0, missingLakeTables: [], questionsWithMissingGold: 0, viewLoadMs: 0,
    };
    const mode = opts.ingest ?? 'missing';
    // Edges by other rules than this code's are no measure of it: the ingest re-derives them.
    const stale = mode === 'missing' ? await staleEdgeRules(db) : null;
    // So are profiles by an older profiler (what the search reads of a column may have changed).
    const outdated = mode === 'missing' ? await countOutdatedProfiles(db) : 0;
    if (mode === 'always' || (mode === 'missing' && (missingBefore.length > 0 || stale || outdated > 0))) {
      const why =
        missingBefore.length > 0
          ? `${missingBefore.length} of ${lakeNames.size} lake tables not in the catalog`
          : stale
            ? stale.message
            : `${outdated} tables profiled by an older version of graft`;
      log(`ingesting ${lakeDir} (${why})`);
      const t0 = performance.now();
      const summary = await ingestLake(db, lakeDir, { embedder });
      index.ingested = true;
      index.ingestMs = Math.round(performance.now() - t0);
      index.tablesIngested = summary.tablesIngested;
      index.tablesFailed = summary.tablesFailed;
      for (const e of summary.errors.slice(0, 10)) log(`  ingest error: ${e.message.slice(0, 200)}`);
      present = await inCatalog();
    }
    index.missingLakeTables = [...lakeNames].filter((n) => !present.has(n)).sort();
    const missingSet = new Set(index.missingLakeTables);
    index.questionsWithMissingGold = questions.filter((q) => q.goldLake.some((t) => missingSet.has(t))).length;
    if (index.missingLakeTables.length > 0) {
      log(`warning: ${index.missingLakeTables.length} lake tables are not in the catalog; ${index.questionsWithMissingGold} questions have such a gold table`);
    }

    if (opts.afterIngest) {
      const note = await opts.afterIngest(db);
      if (note) index.preparation = note;
    }

    const tv = performance.now();
    const catalog = await CatalogView.load(db, embedder, { lakeDir });
    index.viewLoadMs = Math.round(performance.now() - tv);
    index.catalogTables = catalog.tables.length;
    index.columns = catalog.tables.reduce((s, t) => s + t.columns.length, 0);
    index.joinEdges = catalog.joins.length;
    index.unionEdges = catalog.unions.length;

    // --- the runs ----------------------------------------------------------------------------
    const ctx: BenchContext = { db, embedder, catalog, intent, lakeDir, ...(opts.engineOptions ? { engineOptions: opts.engineOptions } : {}) };
    const rows: BenchRow[] = [];
    const prepareMs: Record<string, number> = {};
    const methodStats: Record<string, Record<string, number>> = {};
    /** A catalog table id as its lake stem, the name gold sets use. */
    const stem = (id: string) => catalog.tableById.get(id)?.stem ?? `?${id}`;
    for (const method of methods) {
      const tp = performance.now();
      await method.prepare(ctx);
      prepareMs[method.name] = Math.round(performance.now() - tp);
      for (const budget of budgets) {
        for (const q of questions) {
          const decomposition = intent.kind === 'decomp' ? (intent.decompositions[q.index] ?? undefined) : undefined;
          const t0 = performance.now();
          const ids = await method.retrieve(q.question, budget, { index: q.index, decomposition });
          const latencyMs = performance.now() - t0;
          const retrieved = ids.map(stem);
          const m = questionMetrics(retrieved, q.goldLake);
          const trace = method.trace?.();
          let traced: Pick<BenchRow, 'core' | 'regionRecall' | 'missedGold'> = {};
          if (trace) {
            const region = new Set(trace.region.map(stem));
            traced = { core: trace.core, regionRecall: q.goldLake.length > 0 ? q.goldLake.filter((g) => region.has(g)).length / q.goldLake.length : 1 };
            if (trace.offers) traced.missedGold = missedGold(q.goldLake, retrieved, trace.offers.map((o) => ({ ...o, tables: o.tables.map(stem) })), trace.alternateFloor ?? 0);
          }
          rows.push({
            questionIndex: q.index, method: method.name, budget, intent: intentSpec, retrieved, gold: q.goldLake,
            goldBaseCount: q.goldBase.length, ...m, latencyMs: Math.round(latencyMs * 1000) / 1000, ...traced,
          });
        }
        log(`${method.name} L=${budget}: ${questions.length} questions`);
      }
      if (method.stats) methodStats[method.name] = method.stats();
      await method.close?.();
    }

    const results: BenchResults = {
      protocol: 'graft-bench-results-v1',
      dataset,
      lakeDir,
      goldSource,
      intent: intentSpec,
      budgets,
      methods: methods.map((m) => m.name),
      limit: opts.limit ?? null,
      sample: opts.sample ?? null,
      questions: questions.length,
      multiTableQuestions: questions.filter((q) => q.goldBase.length >= 2).length,
      embedder: embedder.id,
      machine: machineInfo(),
      commit: gitCommit(),
      command: opts.command ?? `graft ${process.argv.slice(2).join(' ')}`,
      startedAt: startedAt.toISOString(),
      elapsedMs: 0,
      index,
      prepareMs,
      methodStats,
      summary: summarise(rows),
      rows,
      outFile: null,
    };
    results.elapsedMs = Math.round(performance.now() - started);
    if (opts.outFile !== false) {
      const out = path.resolve(opts.outFile ?? path.join('bench/out', `${dataset}-${intentKind(intentSpec)}-${stamp(startedAt)}.json`));
      results.outFile = out;
      await mkdir(path.dirname(out), { recursive: true });
      await writeFile(out, `${JSON.stringify(results, null, 1)}\n`);
      await writeFile(out.replace(/\.json$/, '') + '.summary.md', `${benchMarkdown(results)}\n`);
    }
    return results;
  } finally {
    if (ownEmbedder) await embedder.close?.();
    if (ownDb) {
      await db.close();
      // Ingest profiled the lake through the process-wide DuckDB; a CLI run releases it so the process can exit.
      await closeDuckDB();
    }
  }
}

/** The questions `--sample n` answers: n spread evenly over those whose gold tables are in the lake. */
function benchSample(gold: BenchGold, n: number): BenchGold['questions'] {
  return evenSample(gold.questions, n);
}

/**
 * The indices in `questionsFile` of the questions `graft bench run --questions <file> --sample n`
 * answers on the bench lake `lakeDir`: for scripts that must hold exactly those out
 * (bench/fit-alternates.ts). Not n spread over the file: questions whose gold tables the lake
 * lacks are never answered, and the sample spreads over the others.
 */
export async function sampledQuestionIndices(lakeDir: string, questionsFile: string, n: number): Promise<Set<number>> {
  const manifest = await readBenchManifest(path.join(path.resolve(lakeDir), 'manifest.json'));
  return new Set(benchSample(await goldFromQuestions(questionsFile, manifest), n).map((q) => q.index));
}

/** `n` items spread evenly over `items` (all of them when n >= their count), in order. */
export function evenSample<T>(items: readonly T[], n: number): T[] {
  const k = Math.max(0, Math.floor(n));
  if (k >= items.length) return [...items];
  return Array.from({ length: k }, (_, i) => items[Math.floor((i * items.length) / k)]);
}

/** Macro summaries per (method, budget, intent) from per-question rows, in first-seen order. */
export function summarise(rows: readonly BenchRow[]): BenchSummary[] {
  const groups = new Map<string, BenchRow[]>();
  for (const r of rows) {
    const key = `${r.method}\u0000${r.budget}\u0000${r.intent}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push(r);
  }
  return [...groups.values()].map((g) => ({
    method: g[0].method,
    budget: g[0].budget,
    intent: g[0].intent,
    all: macroAverage(g),
    multi: macroAverage(g.filter((r) => r.goldBaseCount >= 2)),
    latencyMs: latencySummary(g.map((r) => r.latencyMs)),
    diagnostics: diagnose(g.filter((r) => r.goldBaseCount >= 2)),
  }));
}

function diagnose(rows: readonly BenchRow[]): BenchDiagnostics {
  const mean = (xs: number[]) => (xs.length === 0 ? null : xs.reduce((s, x) => s + x, 0) / xs.length);
  const traced = rows.filter((r) => r.regionRecall !== undefined);
  const cores = traced.map((r) => questionMetrics(r.retrieved.slice(0, r.core), r.gold));
  return {
    zeroGoldShare: rows.length === 0 ? 0 : rows.filter((r) => r.recall === 0).length / rows.length,
    regionRecall: mean(traced.map((r) => r.regionRecall!)),
    meanCore: mean(traced.map((r) => r.core!)),
    coreF1: mean(cores.map((m) => m.f1)),
    coreSufficiency: mean(cores.map((m) => m.sufficiency)),
    missedGold: rows.some((r) => r.missedGold)
      ? Object.fromEntries(MISSED_REACHES.map((reach) => [reach, rows.reduce((n, r) => n + (r.missedGold ?? []).filter((m) => m.reach === reach).length, 0)])) as Record<MissedReach, number>
      : null,
  };
}

export { benchMarkdown, writeBenchmarksMarkdown } from './report.js';
