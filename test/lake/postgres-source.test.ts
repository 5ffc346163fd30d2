/**
 * A live PostgreSQL schema as a source, against the real PostgreSQL 15 that
 * scripts/with-test-postgres.sh starts (TEST_DATABASE_URL; CI always sets it, so the suite runs
 * there). The test creates its own schema, then lists, profiles (read-only, pushed into
 * Postgres), ingests, re-ingests incrementally and fuses it with a CSV file.
 */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HashedNgramEmbedder } from '../../src/embed/index.js';
import { countFusion, planFusion, previewFusion, type FusionTable } from '../../src/fusion/index.js';
import { ingestLake } from '../../src/ingest/index.js';
import { closeDuckDB, listLakeEntries, profileEntry, readRows } from '../../src/lake/index.js';
import { withReadOnlyPostgres } from '../../src/lake/postgres.js';
import { catalogBackends } from '../support/catalogs.js';
import { startTestServer } from '../api/support/fixture.js';
import { makeTestEngine } from '../api/support/testEngine.js';
import { cid, joinEdge, tid } from '../fusion/helpers.js';
import { makeTempDir } from './helpers.js';

const serverUrl = process.env.TEST_DATABASE_URL;
const schema = `shop_${randomBytes(4).toString('hex')}`;
let admin: pg.Client;
let dir: string;
let cleanup: () => Promise<void>;
/** The source URL as a user types it, with a password (trust auth ignores it) that must not be stored. */
let sourceUrl: string;

describe.skipIf(!serverUrl)('PostgreSQL schema as a source', () => {
  beforeAll(async () => {
    ({ dir, cleanup } = await makeTempDir('pg-source'));
    admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.query(`
      CREATE TABLE ${schema}.customers (customer_id integer PRIMARY KEY, name text, city text, signup date);
      INSERT INTO ${schema}.customers SELECT i, 'Customer ' || i, (ARRAY['Oslo','Lima','Pune'])[1 + i % 3], DATE '2021-01-01' + i FROM generate_series(1, 300) i;
      CREATE TABLE ${schema}.orders (order_id bigint PRIMARY KEY, customer_id integer, amount numeric(10,2), placed_at timestamp, note text);
      INSERT INTO ${schema}.orders SELECT 100000 + i, 1 + i % 300, (i % 997) * 1.25, TIMESTAMP '2024-01-01 08:00' + i * INTERVAL '1 hour', CASE WHEN i % 4 = 0 THEN NULL ELSE 'n' || (i % 7) END FROM generate_series(1, 20000) i;
      CREATE VIEW ${schema}.big_orders AS SELECT * FROM ${schema}.orders WHERE amount > 500;
      ANALYZE ${schema}.customers; ANALYZE ${schema}.orders;`);
    const u = new URL(serverUrl!);
    u.password = 's3cret-pw';
    u.searchParams.set('schema', schema);
    sourceUrl = u.toString();
  });

  afterAll(async () => {
    await admin?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
    await admin?.end();
    await closeDuckDB();
    await cleanup?.();
  });

  it('lists the base tables (not views) under a root without the password', async () => {
    const { entries, problems } = await listLakeEntries(sourceUrl);
    expect(problems).toEqual([]);
    expect(entries.map((e) => e.pgTable)).toEqual(['customers', 'orders']);
    expect(entries[0]!.path).toMatch(new RegExp(`^postgres://postgres@127\\.0\\.0\\.1:\\d+/graft_test/${schema}$`));
    expect(entries[0]!.path).not.toContain('s3cret');
  });

  it('profiles in Postgres: exact count, TABLESAMPLE sample, pg_stats distinct counts and null shares, mapped types', async () => {
    const { entries } = await listLakeEntries(sourceUrl);
    const p = await profileEntry(entries[1]!, { sampleRows: 2000 });
    expect(p).toMatchObject({ name: 'orders', format: 'postgres', rowCount: 20000 });
    expect(p.uri).toBe(`${entries[1]!.path}#orders`);
    expect(p.profiledRows).toBeGreaterThan(0);
    expect(p.profiledRows).toBeLessThanOrEqual(2000);
    expect(p.columns.map((c) => [c.name, c.logicalType])).toEqual([
      ['order_id', 'integer'],
      ['customer_id', 'integer'],
      ['amount', 'float'],
      ['placed_at', 'timestamp'],
      ['note', 'text'],
    ]);
    const byName = Object.fromEntries(p.columns.map((c) => [c.name, c]));
    // pg_stats: order_id is unique (n_distinct = -1 -> 20000), note is 25% null.
    expect(byName.order_id!.distinctEstimate).toBe(20000);
    expect(byName.customer_id!.distinctEstimate).toBeGreaterThan(250);
    expect(byName.note!.nullShare).toBeCloseTo(0.25, 1);
    const small = await profileEntry(entries[0]!);
    expect(small.profiledRows).toBe(300); // whole table: fewer rows than the sample size
    expect(small.columns.map((c) => c.logicalType)).toEqual(['integer', 'text', 'text', 'date']);
    expect((await readRows(entries[0]!, 2)).map((r) => r['signup'])).toEqual(['2021-01-02', '2021-01-03']);
  });

  it('reads in READ ONLY transactions', async () => {
    const { entries } = await listLakeEntries(sourceUrl);
    await expect(withReadOnlyPostgres(entries[0]!.path, (c) => c.query(`DELETE FROM ${schema}.customers`))).rejects.toThrow(/read-only transaction/);
    expect((await admin.query(`SELECT count(*)::int AS n FROM ${schema}.customers`)).rows[0].n).toBe(300);
  });

  it('a read whose session the server ends fails with that error, and nothing else is thrown', async () => {
    const { entries } = await listLakeEntries(sourceUrl);
    const read = withReadOnlyPostgres(entries[0]!.path, async (c) => {
      const [{ pid }] = (await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      // The server's notice reaches the idle session as an 'error' event before this query.
      await new Promise((r) => setTimeout(r, 200));
      return c.query('SELECT 1');
    });
    await expect(read).rejects.toThrow(/terminating connection due to administrator command|Connection terminated|not queryable/);
  });

  it('ingests, re-ingests only a changed table, keeps no password, and fuses with a CSV file like a hand-written query', async () => {
    const db = await catalogBackends[0]!.open();
    try {
      const embedder = new HashedNgramEmbedder();
      const first = await ingestLake(db, sourceUrl, { embedder });
      expect(first).toMatchObject({ status: 'succeeded', tablesIngested: 2 });
      const source = await db.prisma.source.findFirstOrThrow();
      expect(source.kind).toBe('postgres');
      expect(JSON.stringify(await db.prisma.source.findMany())).not.toContain('s3cret');
      expect(JSON.stringify(await db.prisma.ingestRun.findMany({ select: { path: true, errors: true, warnings: true } }))).not.toContain('s3cret');
      expect(JSON.stringify(await db.prisma.lakeTable.findMany({ select: { uri: true } }))).not.toContain('s3cret');
      expect(await ingestLake(db, sourceUrl, { embedder })).toMatchObject({ tablesIngested: 0, tablesSkipped: 2 });
      await admin.query(`UPDATE ${schema}.customers SET city = 'Kobe' WHERE customer_id = 7`);
      expect(await ingestLake(db, sourceUrl, { embedder })).toMatchObject({ tablesIngested: 1, tablesSkipped: 1 });

      await writeFile(path.join(dir, 'cities.csv'), 'city,country\nOslo,Norway\nLima,Peru\nPune,India\nKobe,Japan\n');
      await ingestLake(db, dir, { embedder });
      const rows = await db.prisma.lakeTable.findMany({ include: { columns: { orderBy: { ordinal: 'asc' } } } });
      const t: Record<string, FusionTable> = Object.fromEntries(
        rows.map((r) => [
          r.name,
          { id: tid(r.name), name: r.name, uri: r.uri, format: r.format as FusionTable['format'], columns: r.columns.map((c) => ({ id: cid(r.name, c.name), name: c.name, logicalType: c.logicalType })) },
        ]),
      );
      const plan = planFusion({
        tables: [t.orders!, t.customers!, t.cities!],
        joins: [joinEdge('orders.customer_id', 'customers.customer_id'), joinEdge('customers.city', 'cities.city')],
        unions: [],
        filters: [{ columnId: cid('cities', 'country'), operator: 'in', literal: ['Japan', 'Peru'] }],
      });
      expect(plan.executable, plan.warnings.join('\n')).toBe(true);
      expect(plan.sql).toContain(`postgres_scan(`);
      expect(plan.sql).not.toContain('s3cret');
      const expected = (
        await admin.query({
          text: `SELECT o.order_id::text, o.customer_id::text, o.amount::float8::text, o.placed_at::text, o.note, c.name, c.city, c.signup::text, v.country
                   FROM ${schema}.orders o JOIN ${schema}.customers c ON o.customer_id = c.customer_id
                   JOIN (VALUES ('Oslo','Norway'),('Lima','Peru'),('Pune','India'),('Kobe','Japan')) v(city, country) ON c.city = v.city
                  WHERE v.country IN ('Japan', 'Peru')`,
          rowMode: 'array',
        })
      ).rows as unknown[][];
      expect(expected.length).toBeGreaterThan(6000);
      const preview = await previewFusion(plan, 100_000);
      expect(preview.sources.map((s) => [s.name, s.readBy, s.truncated])).toEqual([
        ['orders', 'pg', false],
        ['customers', 'pg', false],
        ['cities', 'duckdb', false],
      ]);
      const canon = (rs: unknown[][]) => rs.map((r) => JSON.stringify(r.map((v) => (v === null ? null : String(v))))).sort();
      expect(canon(preview.rows.map((r) => preview.columns.map((c) => r[c])))).toEqual(canon(expected));
      expect(await countFusion(plan)).toBe(expected.length);
    } finally {
      await db.close();
    }
  });

  it('the GraphQL ingest mutation reads only allow-listed database URLs, with the allow-list credentials', async () => {
    const db = await catalogBackends[0]!.open();
    const { engine } = await makeTestEngine(db);
    const allowed = new URL(serverUrl!);
    allowed.searchParams.set('schema', schema);
    const api = await startTestServer(db, engine, { databaseSources: [allowed.toString()], lakeRoots: [dir] });
    try {
      const ask = (url: string) =>
        api.gql<{ ingest: { id: string } }>('mutation($p: String!) { ingest(path: $p) { id } }', { p: url });
      const other = new URL(serverUrl!);
      other.searchParams.set('schema', 'public');
      const refused = await ask(other.toString());
      expect(refused.errors?.[0]?.extensions.code).toBe('FORBIDDEN');
      expect(refused.errors?.[0]?.message).toMatch(/GRAFT_DATABASE_SOURCES/);
      const wrongDb = new URL(allowed.toString());
      wrongDb.pathname = '/postgres';
      expect((await ask(wrongDb.toString())).errors?.[0]?.extensions.code).toBe('FORBIDDEN');

      // The caller names the schema without any password; graft connects with the allow-list entry.
      const mine = new URL(allowed.toString());
      mine.password = '';
      const r = await ask(mine.toString());
      expect(r.errors).toBeUndefined();
      let status = 'running';
      for (let i = 0; i < 400 && status === 'running'; i++) {
        await new Promise((res) => setTimeout(res, 50));
        const p = await api.gql<{ ingestRun: { status: string; tablesIngested: number } }>(`{ ingestRun(id: "${r.data!.ingest.id}") { status tablesIngested } }`);
        status = p.data!.ingestRun.status;
        if (status !== 'running') expect(p.data!.ingestRun.tablesIngested).toBe(2);
      }
      expect(status).toBe('succeeded');
      const names = (await db.prisma.lakeTable.findMany({ select: { name: true }, orderBy: { name: 'asc' } })).map((x) => x.name);
      expect(names).toEqual(['customers', 'orders']);
    } finally {
      await api.close();
      await db.close();
    }
  });
});
