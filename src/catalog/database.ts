import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient } from '../generated/prisma/client.js';
import { type CatalogLocation, catalogLocationFromEnv, describeLocation } from './config.js';
import { acquireCatalogLock, type CatalogLock } from './catalogLock.js';
import { markDeadRunsInterrupted } from './ingestRuns.js';
import { applyMigrations, type MigrationResult } from './migrate.js';
import { type BufferPool, type IdleConnectionErrorHandler, openPglite, openPostgresPool, type SqlDriver } from './sqlDriver.js';

export type { PrismaClient };

/** An open catalog: the Prisma client plus the raw driver under it, migrated and ready. */
export interface CatalogDatabase {
  readonly kind: 'pglite' | 'postgres';
  /** Where it lives, credentials masked. */
  readonly description: string;
  readonly prisma: PrismaClient;
  readonly sql: SqlDriver;
  readonly migrations: MigrationResult;
  close(): Promise<void>;
}

export interface OpenCatalogOptions extends Partial<CatalogLocation> {
  /** Apply pending migrations at open (default true). */
  migrate?: boolean;
  /** Embedded catalog only: 'small' for a short-lived process that reads little (see `BufferPool`). */
  bufferPool?: BufferPool;
  /** PostgreSQL only: where errors of idle pooled connections go (default: a line on stderr). */
  onIdleConnectionError?: IdleConnectionErrorHandler;
}

export async function openCatalog(options: OpenCatalogOptions = {}): Promise<CatalogDatabase> {
  const env = catalogLocationFromEnv();
  const location: CatalogLocation = {
    databaseUrl: options.databaseUrl ?? (options.dataDir ? undefined : env.databaseUrl),
    dataDir: options.dataDir ?? env.dataDir,
  };
  let prisma: PrismaClient;
  let driver: SqlDriver;
  if (location.databaseUrl) {
    const { driver: d, pool } = openPostgresPool(location.databaseUrl, options.onIdleConnectionError);
    driver = d;
    prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  } else {
    // One process at a time on an embedded catalog (src/catalog/catalogLock.ts).
    const lock: CatalogLock | null = location.dataDir === 'memory://' ? null : await acquireCatalogLock(location.dataDir);
    let opened: Awaited<ReturnType<typeof openPglite>>;
    try {
      opened = await openPglite(location.dataDir, options.bufferPool);
    } catch (err) {
      lock?.release();
      throw err;
    }
    const d = opened.driver;
    // The lock goes when the database is closed (and with the process, if it dies).
    driver = lock ? { ...d, close: () => d.close().finally(() => lock.release()) } : d;
    prisma = new PrismaClient({ adapter: new PrismaPGlite(opened.client) });
  }
  let migrations: MigrationResult = { applied: [], alreadyApplied: [] };
  try {
    if (options.migrate !== false) migrations = await applyMigrations(driver);
  } catch (err) {
    await prisma.$disconnect().catch(() => {});
    await driver.close().catch(() => {});
    throw err;
  }
  let closed = false;
  const db: CatalogDatabase = {
    kind: driver.kind,
    description: describeLocation(location),
    prisma,
    sql: driver,
    migrations,
    async close() {
      if (closed) return;
      closed = true;
      await prisma.$disconnect();
      await driver.close();
    },
  };
  if (options.migrate !== false) {
    try {
      // Runs left `running` by a process that died (kill -9, crash) are over: say so at start-up.
      await markDeadRunsInterrupted(db);
    } catch (err) {
      await db.close().catch(() => {});
      throw err;
    }
  }
  return db;
}
