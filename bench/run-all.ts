/**
 * `npm run bench`: the whole Spider protocol end to end from a clean checkout, then BIRD.
 *   1. build the Spider lake (../shared/data-raw/spider/database + JAR's dev.json, seed 7) unless
 *      lakes/spider already holds one built with the same seed;
 *   2. ingest it (timed: the index build time) and, unless the catalog already holds one for this
 *      lake state, train the learned value model (`graft value train` defaults; timed);
 *   3. run every method at L = 5, 10, 15 with the offline intent (graft-learned included);
 *   4. run the intent-dependent methods (graft, graft-learned, graft-exact) again with JAR's
 *      published LLM decompositions (decomp:<file>) at L = 5, 10, 15 — the baselines ignore the
 *      intent, so their rows would repeat the offline ones;
 *   5. the same protocol (offline) on the BIRD superhero lake, with its own value model;
 *   6. the error analysis of graft's 20 worst Sufficiency misses at L = 10 (bench/analyse-misses.ts),
 *      and on BIRD at L = 15, where graft falls short of jar's Sufficiency;
 *   7. the Spider train questions (../shared/data-raw/spider-syn: original wording and reworded with
 *      synonyms; the tuning set) at L = 10 with bm25, jar, graft and graft-learned, all questions;
 * and write every table to docs/BENCHMARKS.md and the results to bench/out/.
 * Options: --limit N (smoke run on the first N questions; docs untouched), --skip-bird,
 * --skip-learned (no value model trained, no graft-learned rows), --only-train / --skip-train
 * (just step 7 / everything but step 7), --train-sample N (step 7 on N questions per set, spread
 * over the file).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildBenchLake } from '../src/bench/buildLake.js';
import { throttledProgress } from '../src/bench/progressLog.js';
import { lakeFingerprint, latestValueModel, openCatalog, type CatalogDatabase } from '../src/catalog/index.js';
import { createEmbedder, embedderConfigFromEnv } from '../src/embed/index.js';
import { trainAndStoreValueModel } from '../src/value/catalogTraining.js';
import { FEATURE_VERSION } from '../src/value/features.js';
import '../src/bench/graftMethods.js';
import { BASELINE_METHODS } from '../src/bench/methods.js';
import { runBench, type BenchResults } from '../src/bench/run.js';
import { writeBenchmarksMarkdown } from '../src/bench/report.js';
import { closeDuckDB } from '../src/lake/index.js';
import { intOption } from '../src/cli/options.js';

const SHARED = path.resolve(process.env.GRAFT_SHARED_DATA ?? '../shared/data-raw');
const args = process.argv.slice(2);
const limitArg = args.indexOf('--limit');
const limit = limitArg >= 0 ? intOption('limit', { min: 1 })(args[limitArg + 1] ?? '') : undefined;
const skipBird = args.includes('--skip-bird');
const skipLearned = args.includes('--skip-learned');
const onlyTrain = args.includes('--only-train');
const skipTrain = args.includes('--skip-train');
const trainSampleArg = args.indexOf('--train-sample');
const trainSample = trainSampleArg >= 0 ? intOption('train-sample', { min: 1 })(args[trainSampleArg + 1] ?? '') : undefined;
const TRAIN_SETS = ['train_original', 'train_reworded'];
const BUDGETS = [5, 10, 15];
const ENGINE_METHODS = ['graft', ...(skipLearned ? [] : ['graft-learned']), 'graft-exact'];
const embedder = createEmbedder(embedderConfigFromEnv(process.env));
const log = (m: string) => process.stderr.write(`[bench] ${m}\n`);

async function ensureLake(name: string, dbsDir: string, questionsFile: string): Promise<string> {
  const outDir = path.resolve('lakes', name);
  const manifest = path.join(outDir, 'manifest.json');
  if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).seed === 7) {
    log(`${name}: lake already built in ${outDir}`);
    return outDir;
  }
  log(`${name}: building lake from ${dbsDir}`);
  await buildBenchLake({ dbsDir, questionsFile, outDir, seed: 7 });
  return outDir;
}

/**
 * Runs after the bench has ingested the lake: makes sure the catalog holds a value model for this
 * lake state (trains one with `graft value train` defaults when it does not) and says so.
 */
async function ensureValueModel(db: CatalogDatabase): Promise<string> {
  const existing = await latestValueModel(db, await lakeFingerprint(db), FEATURE_VERSION);
  if (existing) return `Value model ${existing.id} (already trained on this lake state: ${(existing.trainMs / 1000).toFixed(0)} s, held-out MAPE ${existing.heldOutMape.toFixed(3)}).`;
  log('training the value model (graft value train defaults)');
  const { record } = await trainAndStoreValueModel(db, embedder, {
    onProgress: throttledProgress(log, 30_000),
  });
  return `Value model ${record.id} trained in this run in ${(record.trainMs / 1000).toFixed(0)} s (${record.trajectories} sampled table sets, ${record.transitions} transitions, held-out MAPE ${record.heldOutMape.toFixed(3)}).`;
}

async function run(db: CatalogDatabase, lakeDir: string, methods: string[], intent: string, budgets = BUDGETS, questionsFile?: string, sample?: number): Promise<BenchResults> {
  const questions = questionsFile ? ` --questions ${path.relative('.', questionsFile).replace(/^(\.\.\/)+shared/, '../shared')}` : '';
  const command = `npm run bench${limit ? ` -- --limit ${limit}` : ''}  (graft bench run --lake ${path.relative('.', lakeDir)}${questions}${sample ? ` --sample ${sample}` : ''} --methods ${methods.join(',')} --budgets ${budgets.join(',')} --intent ${intent.replace(SHARED, '../shared/data-raw')})`;
  const results = await runBench({
    lakeDir, db, embedder, budgets, methods, intent, limit, command, onProgress: log, questionsFile, sample,
    afterIngest: skipLearned ? undefined : ensureValueModel,
  });
  if (!limit) {
    const section = writeBenchmarksMarkdown(results, path.resolve('docs/BENCHMARKS.md'));
    // The figures, machine-readable, beside the docs (per-question rows stay in bench/out/).
    const { rows: _rows, ...summary } = results;
    writeFileSync(path.resolve('docs/bench', `${section}.json`), `${JSON.stringify(summary, null, 2)}\n`);
  }
  return results;
}

/**
 * graft's error analysis of a full run at `budget` (its 20 worst Sufficiency misses), written to
 * the section bench:<dataset>-misses; not for a --limit run.
 */
function analyseMisses(results: BenchResults, budget: number): void {
  if (limit || !results.outFile) return;
  execFileSync(process.execPath, ['--import', 'tsx', 'bench/analyse-misses.ts', results.outFile, '--method', 'graft', '--budget', String(budget), '--write'], { stdio: ['ignore', 'ignore', 'inherit'] });
  log(`error analysis written (bench:${results.dataset}-misses)`);
}

const started = Date.now();
const spider = await ensureLake('spider', path.join(SHARED, 'spider/database'), path.join(SHARED, 'jar/spider/dev.json'));
const spiderDb = await openCatalog({ dataDir: path.join(spider, '.graft-db') });
try {
  if (!onlyTrain) {
    const offline = await run(spiderDb, spider, [...BASELINE_METHODS, ...ENGINE_METHODS], 'offline');
    analyseMisses(offline, 10);
    await run(spiderDb, spider, ENGINE_METHODS, `decomp:${path.join(SHARED, 'jar/spider/decomp.json')}`);
  }
  if (!skipTrain) {
    // The tuning questions: Spider train over the train databases, which are in the same lake.
    const trainMethods = ['bm25', 'jar', 'graft', ...(skipLearned ? [] : ['graft-learned'])];
    for (const set of TRAIN_SETS) await run(spiderDb, spider, trainMethods, 'offline', [10], path.join(SHARED, 'spider-syn', `${set}.json`), trainSample);
  }
} finally {
  await spiderDb.close();
}
if (!skipBird && !onlyTrain) {
  const birdDbs = path.join(SHARED, 'bird/dev_databases');
  const bird = await ensureLake('bird', birdDbs, path.join(SHARED, 'jar/bird/dev.json'));
  const birdDb = await openCatalog({ dataDir: path.join(bird, '.graft-db') });
  try {
    const offline = await run(birdDb, bird, [...BASELINE_METHODS, ...ENGINE_METHODS], 'offline');
    analyseMisses(offline, 15);
  } finally {
    await birdDb.close();
  }
}
await embedder.close?.();
await closeDuckDB();
log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
