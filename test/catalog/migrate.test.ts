import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, loadMigrations } from '../../src/catalog/migrate.js';
import { openPglite, type SqlDriver } from '../../src/catalog/sqlDriver.js';

/**
 * The checksum of every migration that has shipped, as catalogs recorded it when they applied it
 * (`_prisma_migrations.checksum`). A catalog refuses to open when a file no longer hashes to what
 * it recorded, so a shipped migration is never edited, not even its comments: a change goes into
 * a new migration. A new migration is added here when it is committed.
 */
const SHIPPED_CHECKSUMS: Record<string, string> = {
  '20261202000000_init': '043dae2bbbd7520ed2c5988700c1ec385c9ef00e2d8beade0ed5d4726031dcdc',
  '20261202010000_api': '9086b353b07bff1e3ac8d7fe86edca19c600f0047f31402a49a18720189c7ab3',
  '20261202020000_value_model': 'd949ee0beb87f9c25b4c314ac5dcf95a9a8170cf7c30d9ee28d45b0e9f7ca98c',
  '20261203000000_ingest_run_owner': '146889a8161b8210118a4801be0f03cf15a8df5e8bb21ff0f3c1930fe794977b',
  '20261204000000_catalog_state': '77a3b41a5a2e5b1d13df0ff6e03598a7374f84cefb7070e6d138db5b2f871915',
  '20261204010000_table_csv_options': 'd650bc7a78dae0393fb4bec31dfff811c792ff442c6f99d01e9d66134fabd4f4',
  '20261205000000_table_profile_version': '4d6f0eaf9fbee626c529e1610708293974b56bc8727439e37fdc5d81a6d1bd36',
  '20261205010000_synthesis_json': '3e48a640ae4aae5ef0d30bf5006e6ce93e89b05b8892be2ee77c1fb7f0da8631',
  '20261206000000_column_value_hashes': '97c837b4d9f51ab1bdb539798e1057f5c282fa2f85879ab7bdc4a406c396297a',
};

describe('migrations/', () => {
  it('holds every shipped migration unedited, and no migration missing from the record', async () => {
    const found = Object.fromEntries((await loadMigrations()).map((m) => [m.name, m.checksum]));
    expect(found).toEqual(SHIPPED_CHECKSUMS);
  });
});

/**
 * Migrations that rewrite stored rows, run over rows an older version stored: the catalog a user
 * already has, not a fresh one.
 */

/** An in-memory catalog with every migration before `name` applied, and the apply-the-rest step. */
async function catalogBefore(name: string): Promise<{ driver: SqlDriver; migrateRest: () => Promise<unknown> }> {
  const { driver } = await openPglite('memory://');
  const all = await loadMigrations();
  const at = all.findIndex((m) => m.name === name);
  expect(at).toBeGreaterThan(0);
  await applyMigrations(driver, all.slice(0, at));
  return { driver, migrateRest: () => applyMigrations(driver, all) };
}

describe('migration 20261205000000_table_profile_version', () => {
  let driver: SqlDriver;
  beforeAll(async () => {
    const before = await catalogBefore('20261205000000_table_profile_version');
    driver = before.driver;
    await driver.query(`INSERT INTO source (id, root_path, kind) VALUES ('00000000-0000-8000-8000-000000000001', '/lake', 'folder')`);
    const table = (n: number, format: string, csvOptions: string | null) =>
      driver.query(
        `INSERT INTO lake_table (id, source_id, name, uri, format, row_count, profiled_rows, column_count, fingerprint, csv_options)
         VALUES ($1::uuid, '00000000-0000-8000-8000-000000000001', $2, $3, $4, 1, 1, 1, 'f', $5::jsonb)`,
        [`00000000-0000-8000-8000-00000000001${n}`, `t${n}`, `/lake/t${n}.${format}`, format, csvOptions],
      );
    await table(1, 'csv', null);
    await table(2, 'csv', JSON.stringify({ encoding: 'utf-8' }));
    await table(3, 'parquet', null);
    await before.migrateRest();
  });
  afterAll(async () => {
    await driver.close();
  });

  it('marks what version 1 of the profiler stores: a CSV table without its read options is version 0', async () => {
    const rows = await driver.query<{ name: string; profile_version: number }>('SELECT name, profile_version FROM lake_table ORDER BY name');
    expect(rows.map((r) => [r.name, r.profile_version])).toEqual([
      ['t1', 0],
      ['t2', 1],
      ['t3', 1],
    ]);
  });
});

describe('migration 20261205010000_synthesis_json', () => {
  let driver: SqlDriver;
  const stored = { question: 'orders by region', tables: [{ id: 't1', role: 'witness' }], score: 0.5, sql: 'SELECT 1' };
  beforeAll(async () => {
    const before = await catalogBefore('20261205010000_synthesis_json');
    driver = before.driver;
    await driver.query(`INSERT INTO synthesis (id, question, result) VALUES ('00000000-0000-8000-8000-000000000003', 'orders by region', $1::jsonb)`, [JSON.stringify(stored)]);
    await before.migrateRest();
  });
  afterAll(async () => {
    await driver.close();
  });

  it('keeps the syntheses stored before, as JSON', async () => {
    const rows = await driver.query<{ result: unknown; type: string }>(`SELECT result, pg_typeof(result)::text AS type FROM synthesis`);
    expect(rows).toEqual([{ result: stored, type: 'json' }]);
  });
});
