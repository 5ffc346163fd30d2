import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBenchLake } from '../../src/bench/buildLake.js';
import { macroAverage } from '../../src/bench/metrics.js';
import { missedGold } from '../../src/bench/missedGold.js';
import { BASELINE_METHODS } from '../../src/bench/methods.js';
import { benchMarkdown, writeBenchmarksMarkdown } from '../../src/bench/report.js';
import { runBench, sampledQuestionIndices, summarise, type BenchResults } from '../../src/bench/run.js';
import { openCatalog, type CatalogDatabase } from '../../src/catalog/index.js';
import { HashedNgramEmbedder } from '../../src/embed/index.js';
import { SMALL_DBS, SPIDER_DBS, spiderAvailable, writeQuestionsFor } from './spiderFixture.js';

const LIMIT = 5;

describe.skipIf(!spiderAvailable)('runBench: 3 Spider databases, PGlite, --limit 5', () => {
  let tmp: string;
  let lakeDir: string;
  let db: CatalogDatabase;
  let results: BenchResults;
  let again: BenchResults;
  let qfile: string;

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'graft-bench-run-'));
    qfile = path.join(tmp, 'questions.json');
    await writeQuestionsFor(SMALL_DBS, qfile);
    lakeDir = path.join(tmp, 'lake');
    await buildBenchLake({ dbsDir: SPIDER_DBS, questionsFile: qfile, outDir: lakeDir, seed: 7, onlyDbs: SMALL_DBS });
    db = await openCatalog({ dataDir: 'memory://' });
    const embedder = new HashedNgramEmbedder();
    results = await runBench({
      lakeDir, db, embedder, methods: [...BASELINE_METHODS], budgets: [5, 10, 15], limit: LIMIT,
      outFile: path.join(tmp, 'out', 'results.json'), command: 'test',
    });
    // Second run on the same catalog: no re-ingest; gold derived from the questions file instead.
    again = await runBench({ lakeDir, db, embedder, questionsFile: qfile, methods: ['bm25'], budgets: [5], limit: LIMIT, outFile: false });
  });
  afterAll(async () => {
    await db?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('ingests the lake once, timing it, and sees every lake table', () => {
    const manifest = JSON.parse(readFileSync(path.join(lakeDir, 'manifest.json'), 'utf8'));
    expect(results.index.ingested).toBe(true);
    expect(results.index.ingestMs).toBeGreaterThan(0);
    expect(results.index.lakeTables).toBe(manifest.tables.length);
    expect(results.index.catalogTables).toBe(manifest.tables.length);
    expect(results.index.missingLakeTables).toEqual([]);
    expect(again.index.ingested).toBe(false);
  });

  it('ingests again when an older profiler profiled a table: a run measures what this code reads of a column', async () => {
    await db.sql.query('UPDATE lake_table SET profile_version = profile_version - 1 WHERE uri = (SELECT min(uri) FROM lake_table)');
    const run = () => runBench({ lakeDir, db, embedder: new HashedNgramEmbedder(), methods: ['bm25'], budgets: [5], limit: 1, outFile: false });
    const stale = await run();
    expect(stale.index.ingested).toBe(true);
    expect(stale.index.tablesIngested).toBe(1);
    expect((await run()).index.ingested).toBe(false);
  }, 120_000);

  it('passes engineOptions to the engine methods: floor 1 leaves every graft answer its core', async () => {
    await import('../../src/bench/graftMethods.js');
    const run = (engineOptions?: { minAlternateConfidence: number }) =>
      runBench({ lakeDir, db, embedder: new HashedNgramEmbedder(), methods: ['graft'], budgets: [10], limit: LIMIT, outFile: false, ...(engineOptions ? { engineOptions } : {}) });
    const withDefault = await run();
    const coreOnly = await run({ minAlternateConfidence: 1 });
    const alternates = (r: BenchResults) => r.rows.filter((row) => row.retrieved.length > (row.core ?? 0)).length;
    expect(alternates(withDefault)).toBeGreaterThan(0);
    expect(alternates(coreOnly)).toBe(0);
    expect(coreOnly.rows.map((row) => row.retrieved.slice(0, row.core))).toEqual(withDefault.rows.map((row) => row.retrieved.slice(0, row.core)));
    // Each gold table an answer lacks is traced: at floor 1 an offered one is always under the floor.
    for (const row of [...withDefault.rows, ...coreOnly.rows]) {
      expect(row.missedGold?.map((m) => m.table).sort()).toEqual(row.gold.filter((g) => !row.retrieved.includes(g)).sort());
    }
    const reaches = coreOnly.rows.flatMap((row) => row.missedGold!.map((m) => m.reach));
    expect(reaches).toContain('under the floor');
    expect(reaches).not.toContain('no room');
  }, 120_000);

  it('sampledQuestionIndices names the questions a --sample run answers, by their index in the file', async () => {
    // Every other question asks a database the lake lacks: the sample spreads over the others, not over the file.
    const asked = JSON.parse(readFileSync(qfile, 'utf8')) as { db_id: string }[];
    const mixedFile = path.join(tmp, 'mixed-questions.json');
    await writeFile(mixedFile, JSON.stringify(asked.flatMap((q) => [{ ...q, db_id: 'not_in_the_lake' }, q])));
    const sampled = await runBench({ lakeDir, db, embedder: new HashedNgramEmbedder(), questionsFile: mixedFile, methods: ['bm25'], budgets: [5], sample: 4, outFile: false });
    const indices = await sampledQuestionIndices(lakeDir, mixedFile, 4);
    expect(indices.size).toBe(4);
    expect(new Set(sampled.rows.map((r) => r.questionIndex))).toEqual(indices);
    for (const i of indices) expect(i % 2, `question ${i} asks a database the lake lacks`).toBe(1);
  });

  it('has the documented shape: every method x budget x question, once', () => {
    expect(results.questions).toBe(LIMIT);
    expect(results.rows).toHaveLength(BASELINE_METHODS.length * 3 * LIMIT);
    expect(results.summary).toHaveLength(BASELINE_METHODS.length * 3);
    expect(results.intent).toBe('offline');
    expect(results.machine.cores).toBeGreaterThan(0);
    const lakeNames = new Set(JSON.parse(readFileSync(path.join(lakeDir, 'manifest.json'), 'utf8')).tables.map((t: { name: string }) => t.name));
    for (const r of results.rows) {
      expect(r.intent).toBe('offline');
      expect(r.retrieved.length).toBeLessThanOrEqual(r.budget);
      expect(new Set(r.retrieved).size).toBe(r.retrieved.length);
      for (const t of r.retrieved) expect(lakeNames.has(t)).toBe(true);
      for (const k of ['recall', 'precision', 'f1', 'sufficiency'] as const) {
        expect(r[k]).toBeGreaterThanOrEqual(0);
        expect(r[k]).toBeLessThanOrEqual(1);
      }
      expect(r.latencyMs).toBeGreaterThanOrEqual(0);
    }
    expect(existsSync(results.outFile!)).toBe(true);
    const written = JSON.parse(readFileSync(results.outFile!, 'utf8')) as BenchResults;
    expect(written.rows).toHaveLength(results.rows.length);
  });

  it('macro metrics are recomputable from the per-question rows', () => {
    const written = JSON.parse(readFileSync(results.outFile!, 'utf8')) as BenchResults;
    for (const s of written.summary) {
      const rows = written.rows.filter((r) => r.method === s.method && r.budget === s.budget);
      expect(rows).toHaveLength(LIMIT);
      const all = macroAverage(rows);
      const multi = macroAverage(rows.filter((r) => r.goldBaseCount >= 2));
      for (const k of ['recall', 'precision', 'f1', 'sufficiency', 'avgReturned'] as const) {
        expect(s.all[k]).toBeCloseTo(all[k], 10);
        expect(s.multi[k]).toBeCloseTo(multi[k], 10);
      }
      expect(s.multi.questions).toBe(rows.filter((r) => r.goldBaseCount >= 2).length);
    }
    expect(summarise(written.rows)).toEqual(written.summary);
  });

  it('finds the obvious table: "How many singers do we have?" -> a singer table in the top 5 for bm25', () => {
    const row = results.rows.find((r) => r.method === 'bm25' && r.budget === 5 && r.questionIndex === 0)!;
    expect(row.gold).toHaveLength(1);
    expect(row.retrieved.some((t) => t.startsWith('singer_') && !t.startsWith('singer_in'))).toBe(true);
    // gold from questions file and from gold.json agree
    expect(again.rows.map((r) => r.gold)).toEqual(results.rows.filter((r) => r.method === 'bm25' && r.budget === 5).map((r) => r.gold));
  });

  it('renders markdown between the markers, keeping the rest of the file', async () => {
    const file = path.join(tmp, 'BENCHMARKS.md');
    await writeFile(file, '# Benchmarks\n\nhand-written intro\n\n<!-- bench:lake:start -->\nold\n<!-- bench:lake:end -->\n\ntrailer\n');
    const section = writeBenchmarksMarkdown(results, file);
    expect(section).toBe('lake'); // dataset = lake folder name, offline intent
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('hand-written intro');
    expect(text).toContain('trailer');
    expect(text).not.toContain('\nold\n');
    expect(text).toContain('paper figures: not available offline');
    expect(text).toContain('SMOKE RUN (first 5 questions)');
    for (const m of BASELINE_METHODS) expect(text).toContain(`| ${m} |`);
    expect(() => benchMarkdown({ ...results, summary: [...results.summary, { ...results.summary[0], intent: 'decomp:x' }] })).toThrow(/mix intents/);
  });
});

describe('summarise: diagnostics of traced answers', () => {
  const row = (retrieved: string[], gold: string[], core: number, questionIndex: number) => ({
    questionIndex, method: 'graft', budget: 5, intent: 'offline', retrieved, gold, goldBaseCount: 2,
    recall: 0, precision: 0, f1: 0, sufficiency: 0 as const, returned: retrieved.length, latencyMs: 1, core, regionRecall: 1,
  });

  it('scores the core alone (the first `core` tables), apart from the whole answer', () => {
    const [s] = summarise([
      // core {a, b} is the gold: F1 1, sufficient; the alternate c does not change that
      row(['a', 'b', 'c'], ['a', 'b'], 2, 0),
      // core {a} misses b, which only an alternate brings: core F1 2/3, not sufficient
      row(['a', 'x', 'b'], ['a', 'b'], 1, 1),
    ]);
    expect(s.diagnostics.meanCore).toBe(1.5);
    expect(s.diagnostics.coreF1).toBeCloseTo((1 + 2 / 3) / 2, 10);
    expect(s.diagnostics.coreSufficiency).toBe(0.5);
  });

  it('has no core figures for methods without a trace', () => {
    const untraced = { ...row(['a'], ['a', 'b'], 1, 0), core: undefined, regionRecall: undefined };
    expect(summarise([untraced])[0].diagnostics).toMatchObject({ meanCore: null, coreF1: null, coreSufficiency: null, missedGold: null });
  });

  it('tells where each missing gold table was lost: never offered, offered under the floor, or no room left', () => {
    const offers = [
      { tables: ['b1', 'b2'], stage: 'relevant', confidence: 0.01 },
      { tables: ['c'], stage: 'strong-join', confidence: 0.3 },
      { tables: ['x'], stage: 'runner-up', confidence: 0.9 },
    ];
    const missed = missedGold(['a', 'b2', 'c', 'd', 'x'], ['a', 'x'], offers, 0.02);
    expect(missed).toEqual([
      { table: 'b2', reach: 'under the floor', stage: 'relevant', confidence: 0.01 },
      { table: 'c', reach: 'no room', stage: 'strong-join', confidence: 0.3 },
      { table: 'd', reach: 'not offered' },
    ]);
    const [s] = summarise([
      { ...row(['a', 'x'], ['a', 'b2', 'c', 'd', 'x'], 1, 0), missedGold: missed },
      { ...row(['a'], ['a', 'd'], 1, 1), missedGold: missedGold(['a', 'd'], ['a'], [], 0.02) },
    ]);
    expect(s.diagnostics.missedGold).toEqual({ 'not offered': 2, 'under the floor': 1, 'no room': 1 });
  });
});
