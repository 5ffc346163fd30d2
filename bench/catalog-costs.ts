/**
 * What one API request costs the catalog, and what the engine costs without the API: the
 * figures behind the read cache and the raw-driver statements (docs/BENCHMARKS.md, "API load").
 * On the embedded catalog at GRAFT_HOME (or --home; the demo catalog of `graft demo`):
 *
 * - statements per request: a synthesize and the catalog query of bench/api-load.ts through the
 *   real server, with the read cache off (GRAFT_CATALOG_CACHE_MS=0) and on (the default), counted
 *   at the PGlite client (every Prisma call and raw statement goes through it);
 * - one small SELECT through Prisma's `$queryRawUnsafe` against the raw driver, and one stored
 *   synthesis row through Prisma's `createMany` against the raw driver's INSERT, the row as the
 *   server writes it (with its token), alone and four to a statement (rows removed after);
 * - the engine pool alone (no HTTP) on the demo questions, after the warm-up `graft serve` gives
 *   it: ms per task one at a time, tasks/s at 50 in flight. The pool is made as `graft serve`
 *   makes it, from GRAFT_ENGINE_WORKERS, GRAFT_ENGINE_NICE and GRAFT_ENGINE_WARMUP_MS.
 *
 *   npx tsx bench/catalog-costs.ts [--home DIR] [--reps 200]
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pino } from 'pino';
import { DEMO_LAKE_GOLD } from '../scripts/build-demo-lake.js';
import { createApiToken, createServer } from '../src/api/index.js';
import { graftHome, openCatalog } from '../src/catalog/index.js';
import { flagValue, intOption } from '../src/cli/options.js';
import { createEmbedder, embedderConfigFromEnv } from '../src/embed/index.js';
import { EnginePool } from '../src/engine/index.js';

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => flagValue(args, name, fallback);
const home = path.resolve(opt('home', graftHome()));
const reps = intOption('reps', { min: 1 })(opt('reps', '200'));

// Every statement of this process, counted where Prisma and the raw driver both end up.
let statements = 0;
for (const method of ['query', 'exec'] as const) {
  const original = PGlite.prototype[method] as (...a: unknown[]) => Promise<unknown>;
  (PGlite.prototype as unknown as Record<string, unknown>)[method] = function (this: PGlite, ...a: unknown[]) {
    statements++;
    return original.apply(this, a);
  };
}

const db = await openCatalog({ dataDir: path.join(home, 'db') });
if ((await db.prisma.lakeTable.count()) === 0) {
  console.error(`the catalog at ${db.description} holds no tables: run \`graft demo\` (GRAFT_HOME=${home})`);
  await db.close();
  process.exit(2);
}
const questions = (JSON.parse(readFileSync(DEMO_LAKE_GOLD, 'utf8')) as { questions: { question: string }[] }).questions.slice(0, 5).map((q) => q.question);
const embedder = createEmbedder(embedderConfigFromEnv(process.env));
// The pool as `graft serve` makes it: GRAFT_ENGINE_WORKERS, GRAFT_ENGINE_NICE, GRAFT_ENGINE_WARMUP_MS.
const pool = EnginePool.fromEnv(db, process.env);
if (!pool) {
  console.error('GRAFT_ENGINE_WORKERS=0 runs the engine in-process: this bench measures the pool');
  await db.close();
  process.exit(2);
}
const token = await createApiToken(db, { name: `catalog-costs-${Date.now()}`, grants: ['*'] });
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
const rows: string[][] = [];

try {
  // Statements per request, the same requests as bench/api-load.ts.
  const SYNTHESIZE = 'query($q: String!) { synthesize(question: $q, budget: 10) { id score sql tables { id name role } joinSteps { score } } }';
  const CATALOG = '{ tables(first: 5) { totalCount edges { node { id name rowCount } } } }';
  for (const catalogCacheMs of [0, 1_000]) {
    const server = await createServer({ db, engine: pool, embedder, logger: pino({ level: 'warn' }), config: { allowAnonymous: false, production: true, catalogCacheMs } });
    const { url } = await server.listen({ port: 0, host: '127.0.0.1' });
    const send = async (query: string, variables?: object) => {
      const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token.secret}` }, body: JSON.stringify({ query, variables }) });
      const text = await res.text();
      if (res.status !== 200 || text.includes('"errors"')) throw new Error(`request failed (${res.status}): ${text.slice(0, 300)}`);
    };
    for (const q of questions) await send(SYNTHESIZE, { q }); // warm: engine snapshot, token last-used
    for (const [name, query, vars] of [['synthesize', SYNTHESIZE, (i: number) => ({ q: questions[i % questions.length] })], ['catalog query', CATALOG, () => undefined]] as const) {
      statements = 0;
      for (let i = 0; i < 20; i++) await send(query, vars(i));
      rows.push([`statements per ${name} (cache ${catalogCacheMs ? `${catalogCacheMs} ms` : 'off'}, 20 in a row)`, String(round(statements / 20, 1))]);
    }
    await server.shutdown('measured');
  }

  const time = async (f: (i: number) => Promise<unknown>) => {
    for (let i = 0; i < 10; i++) await f(i);
    const t = performance.now();
    for (let i = 0; i < reps; i++) await f(i);
    return round((performance.now() - t) / reps);
  };
  const SELECT = `SELECT t.id::text AS id, t.name, t.row_count::float8 AS row_count FROM lake_table t JOIN source s ON s.id = t.source_id
    WHERE t.state = 'ready' ORDER BY t.name, t.id LIMIT $1`;
  rows.push(['small SELECT, Prisma $queryRawUnsafe (ms)', String(await time(() => db.prisma.$queryRawUnsafe(SELECT, 6)))]);
  rows.push(['small SELECT, raw driver (ms)', String(await time(() => db.sql.query(SELECT, [6])))]);
  const stored = await db.prisma.synthesis.findFirst({ orderBy: { createdAt: 'desc' } });
  const result = (stored?.result ?? { tables: [] }) as object;
  const question = `catalog-costs ${randomUUID()}`;
  rows.push([
    `one synthesis row (${JSON.stringify(result).length} bytes of JSON), Prisma createMany (ms)`,
    String(await time(() => db.prisma.synthesis.createMany({ data: [{ id: randomUUID(), question, result, tokenId: null }] }))),
  ]);
  // As the server stores it (src/api/syntheses.ts): with the token that asked, alone or several
  // rows to a statement. The result's column type is left to the catalog (JSONB before migration
  // 20261205010000, JSON since), so the same script measures both.
  const insert = (n: number) => {
    const params: unknown[] = [];
    const values = Array.from({ length: n }, () => {
      params.push(randomUUID(), question, JSON.stringify(result), token.id);
      return `($${params.length - 3}::uuid, $${params.length - 2}, $${params.length - 1}, $${params.length}::uuid)`;
    });
    return db.sql.query(`INSERT INTO synthesis (id, question, result, token_id) VALUES ${values.join(', ')}`, params);
  };
  rows.push(['the same row with its token, raw driver INSERT (ms)', String(await time(() => insert(1)))]);
  rows.push(['four such rows in one INSERT (ms per row)', String(round((await time(() => insert(4))) / 4))]);
  await db.sql.query('DELETE FROM synthesis WHERE question = $1', [question]);

  const ask = (i: number) => pool.synthesize(questions[i % questions.length], { budget: 10 });
  // Warmed up as `graft serve` warms its pool (GRAFT_ENGINE_WARMUP_MS; 0: cold workers).
  const warmup = await pool.warmUp();
  rows.push(['engine pool threads', String(pool.threads)]);
  rows.push(['engine pool warm-up (questions from the catalog names / ms)', `${warmup.questions} / ${warmup.ms}`]);
  rows.push(['engine pool, one task at a time (ms per task)', String(await time(ask))]);
  const t = performance.now();
  let done = 0;
  await Promise.all(Array.from({ length: 50 }, async (_, j) => {
    for (let i = j; i < reps * 2; i += 50) await ask(i), done++;
  }));
  rows.push(['engine pool, 50 in flight (tasks/s)', String(round(done / ((performance.now() - t) / 1000), 1))]);
} finally {
  await pool.close();
  await db.prisma.apiToken.update({ where: { id: token.id }, data: { revokedAt: new Date() } }).catch(() => {});
  await db.close();
  await embedder.close?.();
}

process.stdout.write(`| figure | value |\n| --- | --- |\n${rows.map((r) => `| ${r.join(' | ')} |`).join('\n')}\n`);
process.stdout.write(`catalog: ${home}/db, ${reps} repetitions, node ${process.version}\n`);
