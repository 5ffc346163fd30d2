import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openCatalog } from '../../src/catalog/index.js';
import { openPostgresPool } from '../../src/catalog/sqlDriver.js';
import { createTestDatabase } from '../support/catalogs.js';

/**
 * The server ends a session the catalog's pool holds idle (a restart, a failover, an administrator,
 * DROP DATABASE ... WITH (FORCE)): pg-pool emits 'error', which ends the process unless someone
 * listens. The catalog listens for its pool's whole life, and reports what is not its own closing.
 */
const realUrl = process.env.TEST_DATABASE_URL;

/** Ends every other session on the database `url` names, from a connection of its own. */
async function endSessions(url: string): Promise<number> {
  const admin = new pg.Client({ connectionString: realUrl });
  await admin.connect();
  try {
    const name = new URL(url).pathname.slice(1);
    const r = await admin.query(`SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [name]);
    return r.rows.filter((x) => x.ended).length;
  } finally {
    await admin.end();
  }
}

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.skipIf(!realUrl)('idle catalog connections the server ends', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });

  it('are reported, not thrown, and the next query opens a new connection', async () => {
    const fresh = await createTestDatabase();
    cleanups.push(fresh.drop);
    const reported: Error[] = [];
    const { driver } = openPostgresPool(fresh.url, (err) => reported.push(err));
    cleanups.unshift(() => driver.close());
    // Two sessions, both idle once their queries are answered.
    await Promise.all([driver.query('SELECT pg_sleep(0.05)'), driver.query('SELECT pg_sleep(0.05)')]);
    expect(await endSessions(fresh.url)).toBe(2);
    await until(() => reported.length === 2);
    // 57P01: admin_shutdown, "terminating connection due to administrator command".
    expect(reported.map((e) => (e as Error & { code?: string }).code)).toEqual(['57P01', '57P01']);
    expect(await driver.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('a catalog closed while the server ends its sessions closes quietly, Prisma connected', async () => {
    const fresh = await createTestDatabase();
    cleanups.push(fresh.drop);
    const reported: Error[] = [];
    const db = await openCatalog({ databaseUrl: fresh.url, onIdleConnectionError: (err) => reported.push(err) });
    await Promise.all([db.prisma.lakeTable.count(), db.sql.query('SELECT pg_sleep(0.05)'), db.sql.query('SELECT pg_sleep(0.05)')]);
    // `end()` resolves once the connections are removed, before their sessions have ended: what
    // the server says to them now reaches a pool nobody else listens to any more.
    await db.close();
    await endSessions(fresh.url);
    await new Promise((r) => setTimeout(r, 200));
    expect(reported).toEqual([]);
  });
});
