import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { projectPath } from '../util/projectRoot.js';
import type { SqlDriver } from './sqlDriver.js';

/** migrations/ at the repository root: one folder per migration holding migration.sql. */
export const MIGRATIONS_DIR = projectPath('migrations');

export interface Migration {
  name: string;
  sql: string;
  /** sha256 of the file, as Prisma records it in `_prisma_migrations.checksum`. */
  checksum: string;
}

export async function loadMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  const out: Migration[] = [];
  for (const name of names) {
    const sql = await readFile(path.join(dir, name, 'migration.sql'), 'utf8');
    out.push({ name, sql, checksum: createHash('sha256').update(sql).digest('hex') });
  }
  return out;
}

// Same shape as the table Prisma Migrate creates, so `prisma migrate status/deploy` agrees
// with what the app applied wherever Prisma's CLI can run.
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

// Arbitrary constant: serialises concurrent start-ups against one real Postgres.
const MIGRATION_LOCK_KEY = 72_465_190;

export interface MigrationResult {
  applied: string[];
  alreadyApplied: string[];
}

/**
 * Applies every migration not yet recorded as finished, each in its own transaction together
 * with its `_prisma_migrations` row, so a crash leaves either the whole migration or none.
 * A recorded migration whose file changed is an error: the database and repo disagree.
 */
export async function applyMigrations(driver: SqlDriver, migrations?: Migration[]): Promise<MigrationResult> {
  const all = migrations ?? (await loadMigrations());
  const result: MigrationResult = { applied: [], alreadyApplied: [] };
  if (driver.kind === 'postgres') await driver.exec(`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
  try {
    await driver.exec(CREATE_MIGRATIONS_TABLE);
    const rows = await driver.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const done = new Map(rows.map((r) => [r.migration_name, r.checksum]));
    for (const m of all) {
      const recorded = done.get(m.name);
      if (recorded !== undefined) {
        if (recorded !== m.checksum) {
          throw new Error(
            `migration ${m.name} was applied with checksum ${recorded} but migrations/${m.name}/migration.sql now hashes to ${m.checksum}; migrations must never be edited after they ship`,
          );
        }
        result.alreadyApplied.push(m.name);
        continue;
      }
      const id = randomUUID();
      await driver.transaction(async (tx) => {
        await tx.exec(m.sql);
        await tx.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
           VALUES ($1, $2, now(), $3, now(), 1)`,
          [id, m.checksum, m.name],
        );
      });
      result.applied.push(m.name);
    }
  } finally {
    if (driver.kind === 'postgres') await driver.exec(`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`);
  }
  return result;
}
