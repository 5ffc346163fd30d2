/**
 * What a cancelled call costs the calls after it, when the engine pool terminates the worker that
 * runs it and starts another (src/engine README, "Cancellation": a call with preview rows, which
 * no checkpoint interrupts; `--preview 0` cancels a call that stops at a checkpoint instead, and
 * keeps its worker). On the embedded catalog
 * at GRAFT_HOME (or --home; the demo catalog of `graft demo`), with no warm-up: one call on each
 * worker, then one cancelled while it runs, then --rounds rounds of one call per worker at once
 * (the demo questions in turn), each call's milliseconds printed, the first round being the one
 * the replacement can delay.
 *
 *   npx tsx bench/worker-replacement.ts [--home DIR] [--threads 2] [--rounds 4] [--idle-ms 0] [--preview 5]
 *
 * --idle-ms waits that long after the cancellation, so the replacement has started before the
 * next calls arrive.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DEMO_LAKE_GOLD } from '../scripts/build-demo-lake.js';
import { graftHome, openCatalog } from '../src/catalog/index.js';
import { flagValue, intOption } from '../src/cli/options.js';
import { embedderConfigFromEnv } from '../src/embed/index.js';
import { EnginePool } from '../src/engine/index.js';

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => flagValue(args, name, fallback);
const home = path.resolve(opt('home', graftHome()));
const threads = intOption('threads', { min: 1, max: 256 })(opt('threads', '2'));
const rounds = intOption('rounds', { min: 1 })(opt('rounds', '4'));
const idleMs = intOption('idle-ms', { min: 0 })(opt('idle-ms', '0'));
const preview = intOption('preview', { min: 0, max: 100 })(opt('preview', '5'));

const db = await openCatalog({ dataDir: path.join(home, 'db') });
const pool = new EnginePool(db, embedderConfigFromEnv(process.env), { threads, warmupMs: 0 });
const questions = (JSON.parse(readFileSync(DEMO_LAKE_GOLD, 'utf8')) as { questions: { question: string }[] }).questions.map((q) => q.question);
const timed = async (question: string): Promise<number> => {
  const started = performance.now();
  await pool.synthesize(question, { budget: 10 });
  return Math.round(performance.now() - started);
};
const round = (r: number) => Promise.all(Array.from({ length: threads }, (_, i) => timed(questions[(r * threads + i) % questions.length])));
try {
  console.log(`start: ${(await round(0)).join(', ')} ms`);
  const controller = new AbortController();
  const cancelled = pool.synthesize(questions[0], { budget: 30, beamWidth: 32, preview, signal: controller.signal });
  setTimeout(() => controller.abort(new Error('cancelled')), 5);
  await cancelled.then(
    () => console.log('the call to cancel finished first: nothing was replaced'),
    () => console.log(`cancelled one call: ${preview > 0 ? 'its worker is replaced' : 'it stops at a checkpoint, its worker stays'}`),
  );
  await new Promise((resolve) => setTimeout(resolve, idleMs));
  for (let r = 1; r <= rounds; r++) console.log(`round ${r}: ${(await round(r)).join(', ')} ms`);
} finally {
  await pool.close();
  await db.close();
}
