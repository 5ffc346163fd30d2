/**
 * API load benchmark: starts `graft serve` in-process on the catalog at GRAFT_HOME (or --home,
 * or DATABASE_URL) with the real engine (on the worker pool, as `graft serve` runs it; or
 * in-process with --in-process), then runs three loads AT THE SAME TIME, each from its own
 * autocannon process (bench/autocannon-client.mjs, so the load generator does not share the
 * server's event loop): `synthesize` (rotating over the demo questions, --connections, default
 * 50), a cheap catalog query (`tables(first: 5)`, 10 connections) and `/healthz` (2
 * connections). Records throughput, p50/p99 latency, errors (HTTP and GraphQL); writes
 * docs/bench/api.json and the `bench:api` section of docs/BENCHMARKS.md. Loopback traffic only.
 *
 *   npm run bench:api                         # = npx tsx bench/api-load.ts
 *   npx tsx bench/api-load.ts [--home DIR] [--demo] [--duration 60] [--connections 50] [--in-process] [--no-write]
 *                             [--only synthesize|catalog|healthz]
 *
 * It also reports the server's CPU time per request over the loads: its main thread (Linux: read
 * from /proc) and its other threads (engine workers, V8's helpers). `--only` runs one of the loads
 * alone (never written to the docs), e.g. to see what one synthesize costs each.
 *
 * --demo builds and ingests the demo lake into the catalog first when it holds no tables.
 * GRAFT_ENGINE_WORKERS, GRAFT_ENGINE_NICE, GRAFT_ENGINE_WARMUP_MS and GRAFT_ENGINE_TASKS_PER_WORKER set the engine pool as for
 * `graft serve`; the loads start once its warm-up is over, as on a server that has been up a few
 * seconds (GRAFT_ENGINE_WARMUP_MS=0: cold workers).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { buildDemoLake, DEMO_LAKE_GOLD } from '../scripts/build-demo-lake.js';
import { createApiToken, createServer } from '../src/api/index.js';
import { gitCommit, machineInfo } from '../src/bench/machine.js';
import { markdownTable, replaceMarkedSection } from '../src/bench/markdown.js';
import { catalogNotices, graftHome, openCatalog } from '../src/catalog/index.js';
import { flagValue, intOption } from '../src/cli/options.js';
import { createEmbedder, embedderConfigFromEnv } from '../src/embed/index.js';
import { createEngine, EnginePool } from '../src/engine/index.js';
import { ingestLake } from '../src/ingest/index.js';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}
type LoadRequest = { method: string; path: string; headers: Record<string, string>; body?: string };

const client = path.join(path.dirname(fileURLToPath(import.meta.url)), 'autocannon-client.mjs');
/** One autocannon run in a child process (see bench/autocannon-client.mjs). */
async function load(job: { url: string; connections: number; duration: number; requests: LoadRequest[] }): Promise<{ result: AutocannonResult; graphqlErrors: number }> {
  const { stdout } = await promisify(execFile)(process.execPath, [client, JSON.stringify(job)], { maxBuffer: 64 * 2 ** 20 });
  return JSON.parse(stdout) as { result: AutocannonResult; graphqlErrors: number };
}

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flag = (name: string) => args.includes(`--${name}`);
const opt = (name: string, fallback: string) => flagValue(args, name, fallback);
const home = path.resolve(opt('home', graftHome()));
const durationS = intOption('duration', { min: 1 })(opt('duration', '60'));
const connections = intOption('connections', { min: 1 })(opt('connections', '50'));
const only = opt('only', '');
if (only && !['synthesize', 'catalog', 'healthz'].includes(only)) throw new Error(`--only: synthesize, catalog or healthz, not "${only}"`);
// One load alone is not the benchmark the docs report.
const write = !flag('no-write') && !only;

const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const rssMiB = () => round(process.memoryUsage().rss / 2 ** 20, 0);

const embedder = createEmbedder(embedderConfigFromEnv(process.env));
const db = await openCatalog(process.env.DATABASE_URL ? {} : { dataDir: path.join(home, 'db') });
let tables = await db.prisma.lakeTable.count();
if (tables === 0) {
  if (!flag('demo')) {
    console.error(`the catalog at ${db.description} holds no tables: run \`graft demo\` (or pass --demo)`);
    await db.close();
    process.exit(2);
  }
  const lake = path.join(home, 'demo-lake');
  await buildDemoLake(lake);
  await ingestLake(db, lake, { embedder });
  tables = await db.prisma.lakeTable.count();
}
// A catalog written by older code answers more slowly than one made today (CSV tables without
// their stored read options are sniffed on every answer): figures taken on it measure the fallback.
const notices = await catalogNotices(db);
if (notices.length > 0) {
  console.error(`the catalog at ${db.description} was written by older code; ingest its lake again first (graft ingest <folder>):\n${notices.map((n) => `  ${n}`).join('\n')}`);
  await db.close();
  process.exit(2);
}

const gold = JSON.parse(readFileSync(DEMO_LAKE_GOLD, 'utf8')) as { questions: { question: string }[] };
const questions = gold.questions.slice(0, 5).map((q) => q.question);

// The pool as `graft serve` makes it (GRAFT_ENGINE_WORKERS, GRAFT_ENGINE_NICE); 0 workers: in-process.
const pool = flag('in-process') ? null : EnginePool.fromEnv(db, process.env);
const server = await createServer({
  db,
  engine: pool ?? createEngine(db, embedder),
  embedder,
  // Per-request info logs would measure pino, not the API.
  logger: pino({ level: 'warn' }),
  config: { allowAnonymous: false, production: true, engineTimeoutMs: 30_000 },
});
const { url } = await server.listen({ port: 0, host: '127.0.0.1' });
const token = await createApiToken(db, { name: `bench-${Date.now()}`, grants: ['*'] });
const headers = { 'content-type': 'application/json', authorization: `Bearer ${token.secret}` };

const SYNTHESIZE = 'query($q: String!) { synthesize(question: $q, budget: 10) { id score sql tables { id name role } joinSteps { score } } }';
const CATALOG = '{ tables(first: 5) { totalCount edges { node { id name rowCount } } } }';

const post = (body: string): LoadRequest => ({ method: 'POST', path: '/graphql', headers, body });
const scenarios = [
  { name: 'synthesize', connections, requests: questions.map((q) => post(JSON.stringify({ query: SYNTHESIZE, variables: { q } }))) },
  { name: 'catalog query (tables first: 5)', connections: 10, requests: [post(JSON.stringify({ query: CATALOG }))] },
  { name: '/healthz', connections: 2, requests: [{ method: 'GET', path: '/healthz', headers: {} }] },
].filter((s) => !only || s.name.replace('/', '').startsWith(only));

// What `graft serve` does when it starts (in the background there; waited for here).
const warmup = pool ? await pool.warmUp() : null;

const loadAverageAtStart = os.loadavg().map((x) => round(x, 2));
const rssBefore = rssMiB();
let results;
/** The server process's CPU time per request served, over the loads (ms). */
let serverCpu: { mainThread: number | null; otherThreads: number | null; allThreads: number } | null = null;
try {
  // Warm up (engine snapshot in every worker, query plans) and make sure each operation succeeds.
  for (const s of scenarios) {
    for (const r of [...s.requests, ...s.requests, ...s.requests]) {
      const res = await fetch(`${url}${r.path}`, { method: r.method, headers: r.headers, body: r.body });
      const text = await res.text();
      if (res.status !== 200 || text.includes('"errors"')) throw new Error(`${s.name}: warm-up request failed (${res.status}): ${text.slice(0, 500)}`);
    }
  }
  process.stderr.write(`${scenarios.map((s) => `${s.name} x ${s.connections}`).join(', ')}: together for ${durationS} s ...\n`);
  const cpuBefore = { process: process.cpuUsage(), main: mainThreadCpuMs() };
  const runs = await Promise.all(scenarios.map((s) => load({ url, connections: s.connections, duration: durationS, requests: s.requests })));
  const processMs = (() => {
    const d = process.cpuUsage(cpuBefore.process);
    return (d.user + d.system) / 1000;
  })();
  const mainAfter = mainThreadCpuMs();
  const requestsServed = runs.reduce((n, r) => n + r.result.requests.total, 0);
  const mainMs = mainAfter !== null && cpuBefore.main !== null ? mainAfter - cpuBefore.main : null;
  serverCpu = {
    mainThread: mainMs === null ? null : round(mainMs / requestsServed, 3),
    otherThreads: mainMs === null ? null : round((processMs - mainMs) / requestsServed, 3),
    allThreads: round(processMs / requestsServed, 3),
  };
  results = scenarios.map((s, i) => {
    const r = runs[i].result;
    return {
      scenario: s.name,
      connections: s.connections,
      requestsPerSecond: round(r.requests.average),
      requests: r.requests.total,
      latencyMs: { p50: r.latency.p50, p99: r.latency.p99, average: round(r.latency.average), max: r.latency.max },
      errors: r.errors,
      timeouts: r.timeouts,
      non2xx: r.non2xx,
      graphqlErrors: runs[i].graphqlErrors,
    };
  });
} finally {
  await server.shutdown('bench done');
  await pool?.close();
  await db.prisma.apiToken.update({ where: { id: token.id }, data: { revokedAt: new Date() } }).catch(() => {});
  await db.close();
  await embedder.close?.();
}

const report = {
  benchmark: 'api-load',
  catalog: db.description,
  tables,
  embedder: embedder.id,
  engine: pool ? `worker pool, ${pool.threads} threads at nice +${pool.niceIncrement}, ${pool.tasksPerWorker} calls per worker at once, ${warmup && warmup.questions > 0 ? `warmed up on ${warmup.questions} questions from the catalog's names in ${warmup.ms} ms` : 'not warmed up'}` : 'in-process',
  connections,
  rssMiB: { before: rssBefore, after: rssMiB() },
  durationSeconds: durationS,
  questions,
  results,
  serverCpuMsPerRequest: serverCpu,
  loadAverageAtStart,
  machine: machineInfo(),
  commit: gitCommit(repo),
  measuredAt: new Date().toISOString(),
  command: `npm run bench:api -- ${args.includes('--home') ? `--home ${home} ` : ''}--duration ${durationS}${pool ? '' : ' --in-process'}${only ? ` --only ${only}` : ''}   # npx tsx bench/api-load.ts`,
};
console.log(JSON.stringify(report, null, 2));
if (write) {
  const jsonFile = path.join(repo, 'docs/bench/api.json');
  mkdirSync(path.dirname(jsonFile), { recursive: true });
  writeFileSync(jsonFile, `${JSON.stringify(report, null, 2)}\n`);
  replaceMarkedSection(path.join(repo, 'docs/BENCHMARKS.md'), 'api', markdown(report));
  console.error(`wrote ${path.relative(repo, jsonFile)} and docs/BENCHMARKS.md (bench:api)`);
}

/** CPU time of this process's main thread so far (ms), from /proc (Linux); null elsewhere. */
function mainThreadCpuMs(): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    // Fields after the parenthesised command name: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // In USER_HZ ticks: 100 a second on every Linux build Node runs on.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

function markdown(r: typeof report): string {
  return [
    `## API load: \`graft serve\`, synthesize (${r.connections} connections), a catalog query and /healthz at the same time for ${r.durationSeconds} s`,
    '',
    markdownTable(
      ['operation', 'connections', 'req/s', 'p50 (ms)', 'p99 (ms)', 'requests', 'errors (HTTP / GraphQL / timeouts)'],
      (r.results ?? []).map((x) => [x.scenario, x.connections, x.requestsPerSecond, x.latencyMs.p50, x.latencyMs.p99, x.requests, `${x.errors + x.non2xx} / ${x.graphqlErrors} / ${x.timeouts}`]),
    ),
    '',
    `Catalog: ${r.catalog}, ${r.tables} tables, embedder \`${r.embedder}\`; engine ${r.engine}; token auth, production error mode, ` +
      `logs at warn; server RSS ${r.rssMiB.before} -> ${r.rssMiB.after} MiB. Each load runs in its own autocannon process, on the same cores as the server.` +
      (r.serverCpuMsPerRequest
        ? ` Server CPU per request over the loads: ${r.serverCpuMsPerRequest.allThreads} ms` +
          (r.serverCpuMsPerRequest.mainThread !== null ? ` (main thread ${r.serverCpuMsPerRequest.mainThread}, other threads ${r.serverCpuMsPerRequest.otherThreads}).` : '.')
        : ''),
    '',
    `Machine: ${r.machine.cpu}, ${r.machine.cores} cores, ${r.machine.memoryGiB} GiB, ${r.machine.os}, node ${r.machine.node}; ` +
      `load average at start ${r.loadAverageAtStart.join(' / ')} (other work on the machine skews the figures). Commit \`${r.commit}\`, measured ${r.measuredAt}.`,
    '',
    `Command: \`${r.command}\` (raw figures: docs/bench/api.json).`,
  ].join('\n');
}
