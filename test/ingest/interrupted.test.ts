import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCatalog, type CatalogDatabase } from '../../src/catalog/database.js';
import { HashedNgramEmbedder } from '../../src/embed/index.js';
import { ingestLake } from '../../src/ingest/index.js';
import { makeDemoLake } from '../support/demoLake.js';

/**
 * Kill -9 an ingest half-way (a real `graft ingest` process against a real Postgres), re-run
 * it, and compare with one clean run: the catalogs must be identical. Needs TEST_DATABASE_URL
 * (another process must watch the catalog while the ingest writes it, which PGlite's single
 * in-process backend cannot offer).
 */
const realUrl = process.env.TEST_DATABASE_URL;

async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `graft_k_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: realUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(realUrl!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const a = new pg.Client({ connectionString: realUrl });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

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
    const clean = await freshDatabase();
    cleanups.push(clean.drop);
    const cleanDb = await openCatalog({ databaseUrl: clean.url });
    await ingestLake(cleanDb, lake, { embedder: new HashedNgramEmbedder() });
    const expected = await snapshot(cleanDb);
    await cleanDb.close();

    const killed = await freshDatabase();
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
    expect(interruptedRun.status).toBe('running');
    const s = await ingestLake(db, lake, { embedder: new HashedNgramEmbedder() });
    expect(s.tablesSkipped).toBe(tablesAtKill);
    expect(await snapshot(db)).toEqual(expected);
    expect((await db.prisma.ingestRun.findUniqueOrThrow({ where: { id: interruptedRun.id } })).status).toBe('interrupted');
    await db.close();
  });
});
