import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, loadMigrations } from '../../src/catalog/migrate.js';
import { openPglite, type SqlDriver } from '../../src/catalog/sqlDriver.js';

/**
 * Migrations that rewrite stored rows, run over rows an older version stored: the catalog a user
 * already has, not a fresh one.
 */
describe('migration 20261205000000_table_profile_version', () => {
  let driver: SqlDriver;
  beforeAll(async () => {
    ({ driver } = await openPglite('memory://'));
    const all = await loadMigrations();
    const at = all.findIndex((m) => m.name === '20261205000000_table_profile_version');
    expect(at).toBeGreaterThan(0);
    await applyMigrations(driver, all.slice(0, at));
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
    await applyMigrations(driver, all);
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
