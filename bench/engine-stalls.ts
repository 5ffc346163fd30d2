/**
 * How long the engine holds its thread between two turns of the event loop, the longest stretch
 * per call: what bounds how soon a cancelled call stops (a pool worker hears of it only at a
 * turn) and how long the other calls queued on the same worker wait (src/search/cancel.ts). The
 * engine runs in-process, with a signal as the API passes one, on the Spider dev questions
 * (../shared/data-raw/jar/spider/dev.json) over the catalog of a Spider lake; prints, per budget
 * and beam width, the longest stall over the calls and the 99th percentile of the per-call
 * longest.
 *
 *   npx tsx bench/engine-stalls.ts --catalog <copy of lakes/spider/.graft-db> [--questions 200] [--runs 10x8,30x32]
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openCatalog } from '../src/catalog/index.js';
import { flagValue, intOption } from '../src/cli/options.js';
import { createEmbedder, embedderConfigFromEnv } from '../src/embed/index.js';
import { createEngine } from '../src/engine/index.js';

const SPIDER_DEV = new URL('../../shared/data-raw/jar/spider/dev.json', import.meta.url);
const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => flagValue(args, name, fallback);
const catalog = opt('catalog', '');
if (!catalog) throw new Error('--catalog: the folder of a Spider lake catalog (a copy of lakes/spider/.graft-db: the embedded catalog takes one process)');
const count = intOption('questions', { min: 1 })(opt('questions', '200'));
const runs = opt('runs', '10x8,30x32').split(',').map((r) => {
  const m = /^(\d+)x(\d+)$/.exec(r);
  if (!m) throw new Error(`--runs: budget x beam width pairs such as 10x8,30x32, not "${r}"`);
  return { budget: Number(m[1]), beamWidth: Number(m[2]) };
});

if (!existsSync(SPIDER_DEV)) throw new Error(`no Spider dev questions at ${fileURLToPath(SPIDER_DEV)} (../shared/data-raw/jar/spider/dev.json)`);
const questions = (JSON.parse(readFileSync(SPIDER_DEV, 'utf8')) as { question: string }[]).slice(0, count).map((d) => d.question);
const db = await openCatalog({ dataDir: catalog });
const embedder = createEmbedder(embedderConfigFromEnv(process.env));
const engine = createEngine(db, embedder, { valueModel: 'off' });
const signal = new AbortController().signal;
try {
  // Warm: snapshot, word lists, compiled hot paths.
  for (const q of questions) await engine.synthesize(q, { budget: 10, signal });
  for (const { budget, beamWidth } of runs) {
    const longest: number[] = [];
    for (const question of questions) {
      const h = monitorEventLoopDelay({ resolution: 1 });
      h.enable();
      await engine.synthesize(question, { budget, beamWidth, signal });
      h.disable();
      longest.push(h.max / 1e6);
    }
    longest.sort((a, b) => a - b);
    const p99 = longest[Math.min(longest.length - 1, Math.floor(longest.length * 0.99))];
    console.log(`budget ${budget}, beam width ${beamWidth}: longest stall ${longest.at(-1)!.toFixed(1)} ms, p99 of the per-call longest ${p99.toFixed(1)} ms (${questions.length} questions)`);
  }
} finally {
  await db.close();
}
