import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCatalog, type CatalogDatabase } from '../../src/catalog/database.js';
import { catalogCounts, listTableSummaries } from '../../src/catalog/queries.js';
import { GrantScope } from '../../src/api/auth/grants.js';
import { CatalogReader } from '../../src/api/catalog/reader.js';
import { HashedNgramEmbedder } from '../../src/embed/index.js';
import { ingestLake } from '../../src/ingest/index.js';
import { LakeSnapshot } from '../../src/search/snapshot.js';
import { createTestDatabase } from '../support/catalogs.js';
import { makeDemoLake } from '../support/demoLake.js';

/**
 * Kill -9 an ingest half-way, open the catalog again and re-run it. Right after the kill no
 * reader may see a table the killed run wrote without its embeddings, and the killed run must
 * read `interrupted`; the re-run must converge to the catalog one clean run produces. On PGlite
 * (always) the child pauses itself after a few committed tables; on a real Postgres
 * (TEST_DATABASE_URL) a real `graft ingest` is watched from outside and killed at a random point.
 */
const realUrl = process.env.TEST_DATABASE_URL;

async function snapshot(db: CatalogDatabase) {
  const rows = await db.prisma.$queryRawUnsafe<{ k: string }[]>(`
    SELECT 'T ' || t.uri || ' ' || t.fingerprint || ' ' || t.row_count AS k FROM lake_table t
    UNION ALL SELECT 'C ' || t.uri || '.' || c.name || ' ' || c.logical_type || ' ' || array_to_string(c.minhash, ',') FROM lake_column c JOIN lake_table t ON t.id = c.table_id
    UNION ALL SELECT 'E ' || t.uri || '.' || c.name || ' ' || e.embedding::text FROM column_embedding e JOIN lake_column c ON c.id = e.column_id JOIN lake_table t ON t.id = c.table_id
    UNION ALL SELECT 'J ' || ft.uri || '.' || fc.name || '>' || tt.uri || '.' || tc.name || ' ' || round(j.score::numeric, 6) FROM join_edge j
      JOIN lake_column fc ON fc.id = j.from_column_id JOIN lake_column tc ON tc.id = j.to_column_id
      JOIN lake_table ft ON ft.id = j.from_table_id JOIN lake_table tt ON tt.id = j.to_table_id
    UNION ALL SELECT 'U ' || least(a.uri, b.uri) || '~' || greatest(a.uri, b.uri) || ' ' || round(u.score::numeric, 6) FROM union_edge u
      JOIN lake_table a ON a.id = u.table_a_id JOIN lake_table b ON b.id = u.table_b_id
    ORDER BY 1`);
  return rows.map((r) => r.k);
}

describe.skipIf(!realUrl)('an ingest killed mid-way', () => {
  let lake: string;
  const cleanups: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    ({ dir: lake } = await makeDemoLake());
  });
  afterAll(async () => {
    for (const c of cleanups) await c().catch(() => {});
    await rm(lake, { recursive: true, force: true });
  });

  it('converges, when re-run, to the same catalog as one clean run', { timeout: 180_000 }, async () => {
    const clean = await createTestDatabase();
    cleanups.push(clean.drop);
    const cleanDb = await openCatalog({ databaseUrl: clean.url });
    await ingestLake(cleanDb, lake, { embedder: new HashedNgramEmbedder() });
    const expected = await snapshot(cleanDb);
    await cleanDb.close();

    const killed = await createTestDatabase();
    cleanups.push(killed.drop);
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'ingest', lake], {
      env: { ...process.env, DATABASE_URL: killed.url },
      stdio: 'ignore',
    });
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    const watcher = new pg.Client({ connectionString: killed.url });
    await watcher.connect();
    let tablesAtKill = 0;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 25));
      try {
        const [{ n }] = (await watcher.query(`SELECT count(*)::int AS n FROM lake_table`)).rows;
        if (n >= 3) {
          child.kill('SIGKILL');
          tablesAtKill = n;
          break;
        }
      } catch {
        // The schema appears only once the child has migrated.
      }
    }
    await exited;
    // A table may have committed between the count and the kill: count what really survived.
    tablesAtKill = (await watcher.query(`SELECT count(*)::int AS n FROM lake_table`)).rows[0].n;
    await watcher.end().catch(() => {});
    expect(tablesAtKill).toBeGreaterThanOrEqual(3);
    expect(tablesAtKill).toBeLessThan(14);

    const db = await openCatalog({ databaseUrl: killed.url });
    const interruptedRun = await db.prisma.ingestRun.findFirstOrThrow();
    // Opening the catalog found the run's process dead.
    expect(interruptedRun.status).toBe('interrupted');
    await expectNothingHalfVisible(db);
    const s = await ingestLake(db, lake, { embedder: new HashedNgramEmbedder() });
    expect(s.tablesSkipped).toBe(tablesAtKill);
    expect(await snapshot(db)).toEqual(expected);
    expect((await db.prisma.ingestRun.findUniqueOrThrow({ where: { id: interruptedRun.id } })).status).toBe('interrupted');
    await db.close();
  });
});

/** Every read path shows only complete tables: each one it shows has all its vectors. */
async function expectNothingHalfVisible(db: CatalogDatabase): Promise<void> {
  const complete = await db.prisma.$queryRawUnsafe<{ id: string }[]>(
    `SELECT t.id::text AS id FROM lake_table t WHERE NOT EXISTS (
       SELECT 1 FROM lake_column c LEFT JOIN column_embedding e ON e.column_id = c.id WHERE c.table_id = t.id AND e.column_id IS NULL)
     ORDER BY 1`,
  );
  const completeIds = complete.map((r) => r.id);
  const cli = (await listTableSummaries(db)).map((t) => t.id).sort();
  const api = (await new CatalogReader(db, GrantScope.all()).tablePage(undefined, 1000)).rows.map((t) => t.id).sort();
  const search = (await LakeSnapshot.load(db)).tables.map((t) => t.id).sort();
  for (const shown of [cli, api, search]) expect(shown.every((id) => completeIds.includes(id))).toBe(true);
  expect((await catalogCounts(db)).tables).toBe(cli.length);
}

describe('an ingest killed mid-way on the embedded PGlite catalog', () => {
  let lake: string;
  let home: string;
  beforeAll(async () => {
    ({ dir: lake } = await makeDemoLake());
    home = await mkdtemp(path.join(os.tmpdir(), 'graft-kill-'));
  });
  afterAll(async () => {
    await rm(lake, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  it('leaves no half table visible, reads interrupted at the next open, and converges when re-run', { timeout: 180_000 }, async () => {
    const cleanDb = await openCatalog({ dataDir: 'memory://' });
    await ingestLake(cleanDb, lake, { embedder: new HashedNgramEmbedder() });
    const expected = await snapshot(cleanDb);
    const tablesInLake = await cleanDb.prisma.lakeTable.count();
    await cleanDb.close();

    const dataDir = path.join(home, 'db');
    const pauseAfter = 3;
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/ingest/ingest-child.mts', dataDir, lake, String(pauseAfter)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += d;
        if (out.includes('PAUSED')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`the ingest child exited (${code}) before pausing: ${out}${err}`)));
    });
    child.kill('SIGKILL');
    await exited;

    const db = await openCatalog({ dataDir });
    try {
      const stored = await db.prisma.lakeTable.findMany({ select: { state: true } });
      // The killed run committed its first tables, columns and edges, but not their vectors.
      expect(stored.length).toBeGreaterThanOrEqual(pauseAfter);
      expect(stored.length).toBeLessThan(tablesInLake);
      expect(stored.every((t) => t.state === 'pending')).toBe(true);
      expect(await listTableSummaries(db)).toEqual([]);
      expect((await LakeSnapshot.load(db)).tables).toEqual([]);
      expect((await new CatalogReader(db, GrantScope.all()).tablePage(undefined, 100)).rows).toEqual([]);
      expect(await catalogCounts(db)).toMatchObject({ tables: 0, columns: 0, embeddings: 0 });
      await expectNothingHalfVisible(db);
      const [run] = await db.prisma.ingestRun.findMany();
      expect(run.status).toBe('interrupted');
      expect(run.finishedAt).not.toBeNull();

      const s = await ingestLake(db, lake, { embedder: new HashedNgramEmbedder() });
      expect(s.tablesSkipped).toBe(stored.length);
      expect(await snapshot(db)).toEqual(expected);
      expect((await listTableSummaries(db)).length).toBe(tablesInLake);
      expect((await db.prisma.ingestRun.findUniqueOrThrow({ where: { id: run.id } })).status).toBe('interrupted');
    } finally {
      await db.close();
    }
  });
});
