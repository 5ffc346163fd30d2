import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogDatabase } from '../../src/catalog/database.js';
import { applyMigrations } from '../../src/catalog/migrate.js';
import { openPglite } from '../../src/catalog/sqlDriver.js';
import { HashedNgramEmbedder } from '../../src/embed/index.js';
import { PrismaClient } from '../../src/generated/prisma/client.js';
import { ingestLake } from '../../src/ingest/index.js';
import { startTestServer, type TestServer } from './support/fixture.js';
import { makeTestEngine } from './support/testEngine.js';

/**
 * DataLoader batching, measured: a PGlite catalog whose client counts every SQL statement it
 * runs (the Prisma adapter and the raw driver both go through `query`/`exec`), and a lake of
 * 120 tables in 40 unionable groups of 3. A page of tables with their columns, join and union
 * neighbours (and each neighbour's name through its Table) must cost the same, small number of
 * statements whether the page holds 10 tables or 100. Batching is measured on a server without
 * the shared read cache (GRAFT_CATALOG_CACHE_MS=0); what the cache saves is measured beside it.
 */

async function openCountingCatalog(): Promise<{ db: CatalogDatabase; counter: { n: number; sql: string[] } }> {
  const { driver, client } = await openPglite('memory://');
  const counter = { n: 0, sql: [] as string[] };
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  client.query = ((sql: string, ...rest: unknown[]) => {
    counter.n++;
    counter.sql.push(sql);
    return (query as (...a: unknown[]) => unknown)(sql, ...rest);
  }) as typeof client.query;
  client.exec = ((sql: string, ...rest: unknown[]) => {
    counter.n++;
    counter.sql.push(sql);
    return (exec as (...a: unknown[]) => unknown)(sql, ...rest);
  }) as typeof client.exec;
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(client) });
  const migrations = await applyMigrations(driver);
  const db: CatalogDatabase = {
    kind: 'pglite',
    description: 'pglite memory:// (counting)',
    prisma,
    sql: driver,
    migrations,
    async close() {
      await prisma.$disconnect();
      await driver.close();
    },
  };
  return { db, counter };
}

async function buildBulkLake(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'graft-bulk-'));
  const lake = path.join(dir, 'bulk');
  await mkdir(lake);
  for (let g = 0; g < 40; g++) {
    for (let shard = 0; shard < 3; shard++) {
      const rows = Array.from({ length: 25 }, (_, i) => {
        const id = g * 1000 + shard * 100 + i;
        return `${id},item ${g}-${shard}-${i},${(i * 17) % 97}`;
      });
      await writeFile(path.join(lake, `group${String(g).padStart(2, '0')}_part${shard}.csv`), `g${g}_id,g${g}_label,amount\n${rows.join('\n')}\n`);
    }
  }
  return dir;
}

describe('DataLoader batching (query counts)', () => {
  let db: CatalogDatabase;
  let counter: { n: number; sql: string[] };
  let api: TestServer;
  let cached: TestServer;
  let tmp: string;

  beforeAll(async () => {
    tmp = await buildBulkLake();
    ({ db, counter } = await openCountingCatalog());
    const s = await ingestLake(db, path.join(tmp, 'bulk'), { embedder: new HashedNgramEmbedder() });
    expect(s.status).toBe('succeeded');
    const { engine } = await makeTestEngine(db);
    api = await startTestServer(db, engine, { catalogCacheMs: 0 });
    cached = await startTestServer(db, engine, { catalogCacheMs: 60_000 });
  }, 300_000);
  afterAll(async () => {
    await api?.close();
    await cached?.close();
    await db?.close();
    await rm(tmp, { recursive: true, force: true });
  });

  const PAGE = `query($n: Int) { tables(first: $n) {
      totalCount pageInfo { hasNextPage endCursor }
      edges { cursor node {
        id name rowCount columns { id name logicalType }
        joinable { tableName score localColumn remoteColumn table { id name } }
        unionable { tableName score alignedColumns table { id name } }
      } } } }`;

  async function countFor(n: number, server = api) {
    counter.n = 0;
    counter.sql = [];
    const r = await server.gql<{ tables: { edges: { node: { columns: unknown[]; unionable: unknown[] } }[] } }>(PAGE, { n });
    expect(r.errors).toBeUndefined();
    return { statements: counter.n, sql: [...counter.sql], edges: r.data!.tables.edges };
  }

  it('costs the same bounded number of statements for 10, 50 and 100 tables', async () => {
    expect(await db.prisma.lakeTable.count()).toBe(120);
    expect(await db.prisma.unionEdge.count()).toBeGreaterThanOrEqual(40);
    const results = [];
    for (const n of [10, 50, 100]) results.push(await countFor(n));
    for (const r of results) {
      expect(r.edges.every((e) => e.node.columns.length === 3)).toBe(true);
      expect(r.edges.some((e) => e.node.unionable.length > 0)).toBe(true);
    }
    expect(results[2].edges).toHaveLength(100);
    // page + count + columns + join neighbours + union neighbours (+ neighbour tables not on the page).
    for (const r of results) expect(r.statements, r.sql.join('\n---\n')).toBeLessThanOrEqual(6);
    expect(new Set(results.map((r) => r.statements)).size).toBe(1);
  });

  it('the same page with a token adds only the token lookup', async () => {
    const { createApiToken } = await import('../../src/api/index.js');
    const token = await createApiToken(db, { name: 'count', grants: ['bulk.*'] });
    await api.gql('{ tables(first: 1) { totalCount } }', undefined, { token: token.secret }); // first use writes last_used_at
    counter.n = 0;
    const r = await api.gql<{ tables: { edges: unknown[] } }>(PAGE, { n: 100 }, { token: token.secret });
    expect(r.errors).toBeUndefined();
    expect(r.data!.tables.edges).toHaveLength(100);
    expect(counter.n).toBeLessThanOrEqual(7);
  });

  it('with the read cache, the same page again costs no statement until the catalog changes through the server', async () => {
    const first = await countFor(50, cached);
    expect(first.statements).toBeGreaterThan(0);
    const again = await countFor(50, cached);
    expect(again.statements, again.sql.join('\n---\n')).toBe(0);
    expect(again.edges).toEqual(first.edges);
    // A different page is a different statement: it reads.
    expect((await countFor(10, cached)).statements).toBeGreaterThan(0);
    cached.server.services.catalogChanged();
    const afterChange = await countFor(50, cached);
    expect(afterChange.statements).toBe(first.statements);
    expect(afterChange.edges).toEqual(first.edges);
  });
});
