/**
 * API load benchmark: starts `graft serve` in-process on the catalog at GRAFT_HOME (or --home,
 * or DATABASE_URL) with the real engine, then runs autocannon (default 50 connections, 30 s)
 * against two operations: `synthesize` (rotating over the demo questions) and a catalog page
 * (`tables(first: 50)` with columns and join neighbours). Records throughput, p50/p99 latency,
 * errors (HTTP and GraphQL) and RSS before/after each; writes docs/bench/api.json and the
 * `bench:api` section of docs/BENCHMARKS.md. Loopback traffic only.
 *
 *   npm run bench:api                         # = npx tsx bench/api-load.ts
 *   npx tsx bench/api-load.ts [--home DIR] [--demo] [--duration 30] [--connections 50] [--no-write]
 *
 * --demo builds and ingests the demo lake into the catalog first when it holds no tables.
 * Load generator and server share the process (and its cores): figures are a floor.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { buildDemoLake, DEMO_LAKE_GOLD } from '../scripts/build-demo-lake.js';
import { createApiToken, createServer } from '../src/api/index.js';
import { gitCommit, machineInfo } from '../src/bench/machine.js';
import { markdownTable, replaceMarkedSection } from '../src/bench/markdown.js';
import { graftHome, openCatalog } from '../src/catalog/index.js';
import { createEmbedder, embedderConfigFromEnv } from '../src/embed/index.js';
import { createEngine } from '../src/engine/index.js';
import { ingestLake } from '../src/ingest/index.js';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number; max: number };
  throughput: { average: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  duration: number;
}
type AutocannonRequest = { method: string; path: string; headers: Record<string, string>; body: string; onResponse?: (status: number, body: string) => void };
type Autocannon = (opts: {
  url: string;
  connections: number;
  duration: number;
  requests: AutocannonRequest[];
  timeout?: number;
}) => Promise<AutocannonResult>;

// autocannon ships no types; it is only ever called as below.
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flag = (name: string) => args.includes(`--${name}`);
const opt = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const home = path.resolve(opt('home', graftHome()));
const durationS = Number(opt('duration', '30'));
const connections = Number(opt('connections', '50'));
const write = !flag('no-write');

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

const gold = JSON.parse(readFileSync(DEMO_LAKE_GOLD, 'utf8')) as { questions: { question: string }[] };
const questions = gold.questions.slice(0, 5).map((q) => q.question);

const server = await createServer({
  db,
  engine: createEngine(db, embedder),
  embedder,
  // Per-request info logs would measure pino, not the API.
  logger: pino({ level: 'warn' }),
  config: { allowAnonymous: false, production: true, engineTimeoutMs: 30_000 },
});
const { url } = await server.listen({ port: 0, host: '127.0.0.1' });
const token = await createApiToken(db, { name: `bench-${Date.now()}`, grants: ['*'] });
const headers = { 'content-type': 'application/json', authorization: `Bearer ${token.secret}` };

const SYNTHESIZE = 'query($q: String!) { synthesize(question: $q, budget: 10) { id score sql tables { id name role } joinSteps { score } } }';
const CATALOG = '{ tables(first: 50) { totalCount edges { node { id name rowCount columns { name logicalType } joinable { tableName score } } } } }';

const scenarios = [
  { name: 'synthesize', bodies: questions.map((q) => JSON.stringify({ query: SYNTHESIZE, variables: { q } })) },
  { name: 'catalog page (tables first: 50 + columns + joinable)', bodies: [JSON.stringify({ query: CATALOG })] },
];

const loadAverageAtStart = os.loadavg().map((x) => round(x, 2));
const results = [];
try {
  for (const s of scenarios) {
    // Warm up (engine snapshot, query plans) and make sure the operation actually succeeds.
    for (const body of s.bodies) {
      const r = await fetch(`${url}/graphql`, { method: 'POST', headers, body });
      const text = await r.text();
      if (r.status !== 200 || text.includes('"errors"')) throw new Error(`${s.name}: warm-up request failed (${r.status}): ${text.slice(0, 500)}`);
    }
    let graphqlErrors = 0;
    const rssBefore = rssMiB();
    process.stderr.write(`${s.name}: ${connections} connections for ${durationS} s ...\n`);
    const r = await autocannon({
      url,
      connections,
      duration: durationS,
      timeout: 60,
      requests: s.bodies.map((body) => ({
        method: 'POST',
        path: '/graphql',
        headers,
        body,
        onResponse: (_status: number, resBody: string) => {
          if (resBody.includes('"errors"')) graphqlErrors++;
        },
      })),
    });
    results.push({
      scenario: s.name,
      requestsPerSecond: round(r.requests.average),
      requests: r.requests.total,
      latencyMs: { p50: r.latency.p50, p99: r.latency.p99, average: round(r.latency.average), max: r.latency.max },
      errors: r.errors,
      timeouts: r.timeouts,
      non2xx: r.non2xx,
      graphqlErrors,
      rssMiB: { before: rssBefore, after: rssMiB() },
    });
  }
} finally {
  await server.shutdown('bench done');
  await db.prisma.apiToken.update({ where: { id: token.id }, data: { revokedAt: new Date() } }).catch(() => {});
  await db.close();
  await embedder.close?.();
}

const report = {
  benchmark: 'api-load',
  catalog: db.description,
  tables,
  embedder: embedder.id,
  connections,
  durationSeconds: durationS,
  questions,
  results,
  loadAverageAtStart,
  machine: machineInfo(),
  commit: gitCommit(repo),
  measuredAt: new Date().toISOString(),
  command: 'npm run bench:api   # npx tsx bench/api-load.ts',
};
console.log(JSON.stringify(report, null, 2));
if (write) {
  const jsonFile = path.join(repo, 'docs/bench/api.json');
  mkdirSync(path.dirname(jsonFile), { recursive: true });
  writeFileSync(jsonFile, `${JSON.stringify(report, null, 2)}\n`);
  replaceMarkedSection(path.join(repo, 'docs/BENCHMARKS.md'), 'api', markdown(report));
  console.error(`wrote ${path.relative(repo, jsonFile)} and docs/BENCHMARKS.md (bench:api)`);
}

function markdown(r: typeof report): string {
  return [
    `## API load: \`graft serve\`, ${r.connections} connections x ${r.durationSeconds} s per operation`,
    '',
    markdownTable(
      ['operation', 'req/s', 'p50 (ms)', 'p99 (ms)', 'requests', 'errors (HTTP / GraphQL / timeouts)', 'RSS before -> after (MiB)'],
      r.results.map((x) => [
        x.scenario, x.requestsPerSecond, x.latencyMs.p50, x.latencyMs.p99, x.requests,
        `${x.errors + x.non2xx} / ${x.graphqlErrors} / ${x.timeouts}`, `${x.rssMiB.before} -> ${x.rssMiB.after}`,
      ]),
    ),
    '',
    `Catalog: ${r.catalog}, ${r.tables} tables, embedder \`${r.embedder}\`; real engine, token auth, production error mode, ` +
      'logs at warn. autocannon runs in the server process (same cores): the figures are a floor.',
    '',
    `Machine: ${r.machine.cpu}, ${r.machine.cores} cores, ${r.machine.memoryGiB} GiB, ${r.machine.os}, node ${r.machine.node}; ` +
      `load average at start ${r.loadAverageAtStart.join(' / ')} (other work on the machine skews the figures). Commit \`${r.commit}\`, measured ${r.measuredAt}.`,
    '',
    `Command: \`${r.command}\` (raw figures: docs/bench/api.json).`,
  ].join('\n');
}
