/**
 * `npm run bench`: the whole Spider protocol end to end from a clean checkout, then BIRD.
 *   1. build the Spider lake (../shared/data-raw/spider/database + JAR's dev.json, seed 7) unless
 *      lakes/spider already holds one built with the same seed;
 *   2. ingest it (timed: the index build time) and run every method at L = 5, 10, 15 with the
 *      offline intent;
 *   3. run the intent-dependent methods (graft, graft-exact) again with JAR's published LLM
 *      decompositions (decomp:<file>) at L = 10 — the baselines ignore the intent, so their rows
 *      would repeat the offline ones;
 *   4. the same protocol on the BIRD superhero lake;
 * and write every table to docs/BENCHMARKS.md and the results to bench/out/.
 * Options: --limit N (smoke run on the first N questions; docs untouched), --skip-bird.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { buildBenchLake } from '../src/bench/buildLake.js';
import '../src/bench/graftMethods.js';
import { BASELINE_METHODS } from '../src/bench/methods.js';
import { runBench, type BenchResults } from '../src/bench/run.js';
import { writeBenchmarksMarkdown } from '../src/bench/report.js';
import { closeDuckDB } from '../src/lake/index.js';

const SHARED = path.resolve(process.env.GRAFT_SHARED_DATA ?? '../shared/data-raw');
const args = process.argv.slice(2);
const limitArg = args.indexOf('--limit');
const limit = limitArg >= 0 ? Number(args[limitArg + 1]) : undefined;
const skipBird = args.includes('--skip-bird');
const BUDGETS = [5, 10, 15];
const ENGINE_METHODS = ['graft', 'graft-exact'];
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

async function run(lakeDir: string, methods: string[], intent: string, budgets = BUDGETS): Promise<BenchResults> {
  const command = `npm run bench${limit ? ` -- --limit ${limit}` : ''}  (graft bench run --lake ${path.relative('.', lakeDir)} --methods ${methods.join(',')} --budgets ${budgets.join(',')} --intent ${intent.replace(SHARED, '../shared/data-raw')})`;
  const results = await runBench({ lakeDir, budgets, methods, intent, limit, command, onProgress: log });
  if (!limit) writeBenchmarksMarkdown(results, path.resolve('docs/BENCHMARKS.md'));
  return results;
}

const started = Date.now();
const spider = await ensureLake('spider', path.join(SHARED, 'spider/database'), path.join(SHARED, 'jar/spider/dev.json'));
await run(spider, [...BASELINE_METHODS, ...ENGINE_METHODS], 'offline');
// The decomposition comparison at the headline budget only, to keep the whole run near 30 minutes.
await run(spider, ENGINE_METHODS, `decomp:${path.join(SHARED, 'jar/spider/decomp.json')}`, [10]);
if (!skipBird) {
  const birdDbs = path.join(SHARED, 'bird/dev_databases');
  const bird = await ensureLake('bird', birdDbs, path.join(SHARED, 'jar/bird/dev.json'));
  await run(bird, [...BASELINE_METHODS, ...ENGINE_METHODS], 'offline');
}
await closeDuckDB();
log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
