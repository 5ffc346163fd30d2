import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openCatalog, type CatalogDatabase } from '../../src/catalog/database.js';

/**
 * The storage backends every catalog suite runs against: the embedded PGlite always, and a
 * real PostgreSQL + pgvector when TEST_DATABASE_URL is set (scripts/with-test-postgres.sh sets
 * it; CI always does). Each `open()` yields a fresh, empty, migrated catalog.
 */
export interface CatalogBackend {
  name: 'pglite' | 'postgres';
  open(): Promise<CatalogDatabase>;
}

const realUrl = process.env.TEST_DATABASE_URL;
if (!realUrl && process.env.CI) {
  throw new Error('CI=true but TEST_DATABASE_URL is unset: run the tests through scripts/with-test-postgres.sh');
}

/** A throwaway database on the real server (TEST_DATABASE_URL): its URL, and how to drop it. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  if (!realUrl) throw new Error('TEST_DATABASE_URL is unset');
  const admin = new pg.Client({ connectionString: realUrl });
  await admin.connect();
  const name = `graft_t_${randomBytes(6).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(realUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const a = new pg.Client({ connectionString: realUrl });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

/** Creates a throwaway database on the real server and drops it when the catalog closes. */
async function openFreshPostgres(): Promise<CatalogDatabase> {
  const fresh = await createTestDatabase();
  const db = await openCatalog({ databaseUrl: fresh.url });
  const close = db.close.bind(db);
  return Object.assign(db, {
    async close() {
      await close();
      await fresh.drop();
    },
  });
}

export const catalogBackends: CatalogBackend[] = [
  { name: 'pglite', open: () => openCatalog({ dataDir: 'memory://' }) },
  ...(realUrl ? [{ name: 'postgres' as const, open: openFreshPostgres }] : []),
];

if (!realUrl) {
  console.warn('[catalog tests] TEST_DATABASE_URL unset: running against PGlite only (use scripts/with-test-postgres.sh for both)');
}
