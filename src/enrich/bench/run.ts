import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CatalogView } from '../../bench/catalogView.js';
import { gitCommit, machineInfo, type MachineInfo } from '../../bench/machine.js';
import { createRetrievalMethod, type BenchContext, type RetrievalMethod } from '../../bench/methods.js';
import { DEFAULT_BUDGETS, ENRICH_METHODS } from '../../bench/defaults.js';
import { macroAverage, questionMetrics, type MacroMetrics, type QuestionMetrics } from '../../bench/metrics.js';
import { openCatalog } from '../../catalog/index.js';
import { createEmbedder, embedderConfigFromEnv } from '../../embed/index.js';
import { buildFusionInput, createEngine } from '../../engine/index.js';
import { DEFAULT_UNION_THRESHOLD, planFusion, previewFusion, type FusionPlan } from '../../fusion/index.js';
import { ingestLake } from '../../ingest/index.js';
import { closeDuckDB } from '../../lake/index.js';
import type { LakeSnapshot } from '../../search/index.js';
import { BadInputError } from '../../util/errors.js';
import { enrichTable } from '../enrich.js';
import type { EnrichTask } from '../types.js';
import { readEnrichManifest, type EnrichDatasetGold } from './buildLake.js';
import { crossValidate, PREDICTOR_DEFAULTS, type PredictorOptions } from './predictor.js';

export const ENRICH_BUDGETS = DEFAULT_BUDGETS;
export { ENRICH_METHODS };
/** Rows of a fused table the predictor reads (a fan-out join can multiply the base's rows). */
export const MAX_FUSED_ROWS = 20_000;

export interface RunEnrichBenchOptions {
  lakeDir: string;
  budgets?: number[];
  methods?: string[];
  /** Only these datasets (names from datasets.ts). */
  datasets?: string[];
  predictor?: Partial<Omit<PredictorOptions, 'task'>>;
  command?: string;
  onProgress?: (message: string) => void;
}

export interface EnrichRunRow {
  dataset: string;
  task: EnrichTask;
  method: string;
  /** 0 for "base only". */
  budget: number;
  retrieved: string[];
  gold: string[];
  copiesRetrieved: number;
  metrics: QuestionMetrics;
  latencyMs: number;
  /** RMSE or accuracy of the predictor on the fused table; null when its SQL could not run. */
  score: number | null;
  rows: number | null;
  features: number | null;
  error?: string;
}

export interface EnrichSummary {
  method: string;
  budget: number;
  retrieval: MacroMetrics;
  /** Mean RMSE over the regression datasets, mean accuracy over the classification ones (a failed fused table counts as the base alone). */
  rmse: number | null;
  accuracy: number | null;
  /** Mean of RMSE / base-only RMSE (scale-free; < 1 is better than the base table alone). */
  relativeRmse: number | null;
  failures: number;
}

export interface EnrichBenchResults {
  protocol: 'graft-enrich-bench-v1';
  lakeDir: string;
  seed: number;
  budgets: number[];
  methods: string[];
  predictor: Omit<PredictorOptions, 'task'> & { library: string };
  datasets: { name: string; task: EnrichTask; target: string; base: string; gold: string[]; copies: string[]; sourceRows: number; rows: number; source: string; licence: string }[];
  rows: EnrichRunRow[];
  summary: EnrichSummary[];
  timing: { ingestMs: number; retrievalMs: number; predictorMs: number; totalMs: number; predictorFits: number };
  index: { catalogTables: number; joinEdges: number; unionEdges: number; ingested: boolean };
  machine: MachineInfo;
  commit: string;
  command: string;
  startedAt: string;
}

const mean = (xs: number[]) => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);

/**
 * `graft bench enrich`: for every dataset of the enrichment lake, every method x budget
 * retrieves tables for the base shard; retrieval is scored against the other shards of the same
 * table, and end to end the fixed predictor is cross-validated on the table the method's fused
 * SQL builds (left joins from the base), next to the base table alone.
 */
export async function runEnrichBench(opts: RunEnrichBenchOptions): Promise<EnrichBenchResults> {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const log = opts.onProgress ?? (() => {});
  const lakeDir = path.resolve(opts.lakeDir);
  const manifest = await readEnrichManifest(lakeDir);
  const budgets = opts.budgets ?? ENRICH_BUDGETS;
  const methodNames = opts.methods ?? ENRICH_METHODS;
  const datasets = opts.datasets ? manifest.datasets.filter((d) => opts.datasets!.includes(d.name)) : manifest.datasets;
  if (datasets.length === 0) throw new BadInputError(`no dataset matches ${opts.datasets?.join(', ')}`, { field: 'datasets' });
  const predictor = { ...PREDICTOR_DEFAULTS, ...opts.predictor };

  const db = await openCatalog({ dataDir: path.join(lakeDir, '.graft-db') });
  const embedder = createEmbedder(embedderConfigFromEnv(process.env));
  try {
    // The index: ingest when some lake file is not in the catalog yet.
    const present = new Set(
      (await db.prisma.lakeTable.findMany({ where: { state: 'ready', uri: { startsWith: lakeDir + path.sep } }, select: { uri: true } })).map((r) => path.basename(r.uri)),
    );
    const expected = [...manifest.datasets.flatMap((d) => d.shards.map((s) => `${s.lakeName}.parquet`))];
    let ingestMs = 0;
    const ingested = expected.some((f) => !present.has(f)) || present.size < manifest.spiderTables;
    if (ingested) {
      log(`ingesting ${lakeDir}`);
      const t0 = performance.now();
      const s = await ingestLake(db, lakeDir, { embedder });
      ingestMs = Math.round(performance.now() - t0);
      log(`  ${s.tablesIngested} tables ingested, ${s.tablesFailed} failed (${(ingestMs / 1000).toFixed(1)} s)`);
    }
    const catalog = await CatalogView.load(db, embedder, { lakeDir });
    const engine = createEngine(db, embedder, { valueModel: 'off' });
    const snapshot = await engine.snapshot();
    const idOfStem = new Map(catalog.tables.map((t) => [t.stem, t.id]));
    const stemOf = (id: string) => catalog.tableById.get(id)?.stem ?? `?${id}`;
    const ctx: BenchContext = { db, embedder, catalog, intent: { kind: 'offline' }, lakeDir };

    const baselines = new Map<string, RetrievalMethod>();
    for (const name of methodNames.filter((m) => m !== 'graft')) {
      const m = createRetrievalMethod(name);
      if (!m) throw new BadInputError(`unknown method '${name}' (known: ${ENRICH_METHODS.join(', ')})`, { field: 'methods' });
      await m.prepare(ctx);
      baselines.set(name, m);
    }

    const rows: EnrichRunRow[] = [];
    const datasetRows = new Map<string, number>();
    let retrievalMs = 0;
    let predictorMs = 0;
    let predictorFits = 0;
    for (const d of datasets) {
      const baseId = idOfStem.get(d.base);
      if (!baseId) throw new Error(`base shard ${d.base} of ${d.name} is not in the catalog`);
      const base = snapshot.tableById.get(baseId)!;
      const target = base.columns.find((c) => c.name === d.target)!;
      const key = base.columns.find((c) => c.name === d.key)!;
      // The same fused SQL gives the same table: score it once.
      const scored = new Map<string, { score: number | null; rows: number | null; features: number | null; error?: string }>();
      const evaluate = async (plan: FusionPlan, sql: string | null) => {
        if (!sql) return { score: null, rows: null, features: null, error: plan.warnings.join('; ') || 'no SQL' };
        let s = scored.get(sql);
        if (!s) {
          const t0 = performance.now();
          try {
            const out = await previewFusion({ ...plan, sql }, MAX_FUSED_ROWS);
            const names = outputNames(plan, baseId, [target.id, key.id]);
            const tf = performance.now();
            const r = crossValidate({ rows: out.rows, target: names[0]!, keys: [names[1]!] }, { task: d.task, ...predictor });
            s = { score: r.value, rows: r.rows, features: r.features.length };
            log(`  ${d.name}: ${r.rows} rows x ${r.features.length} features, read ${(tf - t0).toFixed(0)} ms, cv ${(performance.now() - tf).toFixed(0)} ms`);
            predictorFits++;
          } catch (err) {
            s = { score: null, rows: null, features: null, error: (err as Error).message.slice(0, 300) };
          }
          predictorMs += performance.now() - t0;
          scored.set(sql, s);
        }
        return s;
      };
      const push = (method: string, budget: number, ids: string[], latencyMs: number, s: Awaited<ReturnType<typeof evaluate>>) => {
        const retrieved = ids.map(stemOf);
        rows.push({
          dataset: d.name, task: d.task, method, budget, retrieved, gold: d.gold,
          copiesRetrieved: retrieved.filter((r) => d.copies.includes(r)).length,
          metrics: enrichMetrics(retrieved, d), latencyMs: Math.round(latencyMs * 10) / 10, ...s,
        });
      };

      const basePlan = fusedPlan(snapshot, [baseId]);
      const baseScore = await evaluate(basePlan, basePlan.sql);
      datasetRows.set(d.name, baseScore.rows ?? 0);
      push('base only', 0, [], 0, baseScore);
      // The baselines' query: the base table's column names.
      const query = base.columns.map((c) => c.name).join(' ');
      for (const method of methodNames) {
        for (const budget of budgets) {
          const t0 = performance.now();
          let ids: string[];
          let plan: FusionPlan;
          let sql: string | null;
          if (method === 'graft') {
            const r = await enrichTable(engine, baseId, { target: d.target, budget });
            ids = r.tables.slice(1).map((t) => t.id);
            plan = fusedPlan(snapshot, [baseId, ...ids]);
            sql = r.sql;
          } else {
            ids = (await baselines.get(method)!.retrieve(query, budget + 1)).filter((id) => id !== baseId).slice(0, budget);
            plan = fusedPlan(snapshot, [baseId, ...ids]);
            sql = plan.sql;
          }
          const latency = performance.now() - t0;
          retrievalMs += latency;
          push(method, budget, ids, latency, await evaluate(plan, sql));
        }
      }
      const best = rows.filter((r) => r.dataset === d.name);
      log(`${d.name} (${((performance.now() - started) / 1000).toFixed(0)} s): base ${fmt(baseScore.score)}; ${methodNames.map((m) => `${m} ${best.filter((r) => r.method === m).map((r) => fmt(r.score)).join('/')}`).join(', ')}`);
    }
    for (const m of baselines.values()) await m.close?.();

    const summary: EnrichSummary[] = [];
    const baseOf = new Map(rows.filter((r) => r.method === 'base only').map((r) => [r.dataset, r.score]));
    // A fused table that cannot be built or scored leaves the user with the base table alone:
    // it counts as the base-only score, so every average is over the same datasets.
    const summarise = (method: string, budget: number) => {
      const rs = rows.filter((r) => r.method === method && r.budget === budget);
      const value = (r: EnrichRunRow) => r.score ?? baseOf.get(r.dataset) ?? null;
      const reg = rs.filter((r) => r.task === 'regression' && value(r) !== null);
      const cls = rs.filter((r) => r.task === 'classification' && value(r) !== null);
      summary.push({
        method,
        budget,
        retrieval: macroAverage(rs.map((r) => r.metrics)),
        rmse: mean(reg.map((r) => value(r)!)),
        accuracy: mean(cls.map((r) => value(r)!)),
        relativeRmse: mean(reg.filter((r) => baseOf.get(r.dataset)).map((r) => value(r)! / baseOf.get(r.dataset)!)),
        failures: rs.filter((r) => r.score === null).length,
      });
    };
    summarise('base only', 0);
    for (const method of methodNames) for (const budget of budgets) summarise(method, budget);

    return {
      protocol: 'graft-enrich-bench-v1',
      lakeDir,
      seed: manifest.seed,
      budgets,
      methods: methodNames,
      predictor: { ...predictor, library: 'ml-random-forest' },
      datasets: datasets.map((d) => ({ name: d.name, task: d.task, target: d.target, base: d.base, gold: d.gold, copies: d.copies, sourceRows: d.sourceRows, rows: datasetRows.get(d.name) ?? 0, source: d.source, licence: d.licence })),
      rows,
      summary,
      timing: { ingestMs, retrievalMs: Math.round(retrievalMs), predictorMs: Math.round(predictorMs), totalMs: Math.round(performance.now() - started), predictorFits },
      index: { catalogTables: catalog.tables.length, joinEdges: catalog.joins.length, unionEdges: catalog.unions.length, ingested },
      machine: machineInfo(),
      commit: gitCommit(),
      command: opts.command ?? 'graft bench enrich',
      startedAt,
    };
  } finally {
    await db.close();
    await embedder.close?.();
    await closeDuckDB();
  }
}

/**
 * R / P / F1 against the dataset's gold shards, where a copy of a column shard stands in for the
 * shard it copies (the enriched table is the same either way) unless that shard is retrieved
 * too: then the second of the two is a false positive.
 */
export function enrichMetrics(retrieved: string[], d: Pick<EnrichDatasetGold, 'gold' | 'copies' | 'shards'>): QuestionMetrics {
  const copyOf = new Map<string, string>();
  for (const copy of d.copies) {
    const c = d.shards.find((s) => s.lakeName === copy)!;
    const original = d.shards.find((s) => s.kind === 'columns' && s.columns.join('|') === c.columns.join('|'));
    if (original) copyOf.set(copy, original.lakeName);
  }
  const distinct = [...new Set(retrieved)];
  const mapped = distinct.map((r) => copyOf.get(r) ?? r);
  const m = questionMetrics(mapped, d.gold);
  if (m.returned === distinct.length) return m;
  // A copy and its original both returned: the copy counts as returned but not as a hit.
  const precision = distinct.length === 0 ? 0 : (m.precision * m.returned) / distinct.length;
  const f1 = m.recall + precision === 0 ? 0 : (2 * m.recall * precision) / (m.recall + precision);
  return { ...m, precision, f1, returned: distinct.length };
}

function fmt(x: number | null): string {
  return x === null ? '—' : x.toFixed(3);
}

/**
 * The plan every method's tables are fused with: the base (first) as the root, left joins, over
 * the tables connected to the base among those returned (the fusion layer would otherwise run
 * the largest component, which need not hold the base; a table no edge links to the base cannot
 * enrich it).
 */
function fusedPlan(snapshot: LakeSnapshot, ids: string[]): FusionPlan {
  const chosen = new Set(ids);
  const linked = new Set([ids[0]!]);
  for (let grew = true; grew; ) {
    grew = false;
    const reach = (a: string, b: string) => {
      if (chosen.has(a) && chosen.has(b) && linked.has(a) !== linked.has(b)) {
        linked.add(linked.has(a) ? b : a);
        grew = true;
      }
    };
    for (const j of snapshot.joins) reach(j.fromTableId, j.toTableId);
    for (const u of snapshot.unions) if (u.score >= DEFAULT_UNION_THRESHOLD) reach(u.tableAId, u.tableBId);
  }
  return planFusion({ ...buildFusionInput(snapshot, ids.filter((id) => linked.has(id)), []), joinKind: 'left' });
}

/** Output names of base columns in a plan (a clashing name is prefixed by its group). */
function outputNames(plan: FusionPlan, baseId: string, columnIds: string[]): string[] {
  const group = plan.unionGroups.find((g) => g.tableIds.includes(baseId))!;
  return columnIds.map((id) => {
    const col = group.columnMapping.find((m) => m.columns.some((c) => c.columnId === id));
    const out = col && plan.outputColumns.find((o) => o.groupId === group.id && o.column === col.name);
    if (!out) throw new Error(`column ${id} of the base is not in the fused output`);
    return out.name;
  });
}

export async function writeEnrichResults(results: EnrichBenchResults, file: string): Promise<void> {
  await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  await writeFile(file, `${JSON.stringify(results, null, 1)}\n`);
}

export function enrichLakeExists(lakeDir: string): boolean {
  return existsSync(path.join(lakeDir, 'enrich-gold.json'));
}

export type { EnrichDatasetGold };
