/**
 * DuckDB database files as a source: every base table (any schema) is one lake entry, profiled
 * through the read-only attached file, fingerprinted per table, ingested, and fused with CSV and
 * SQLite tables (checked against a hand-written query).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countFusion, planFusion, previewFusion, type FusionTable } from '../../src/fusion/index.js';
import { ingestLake } from '../../src/ingest/index.js';
import { HashedNgramEmbedder } from '../../src/embed/index.js';
import { closeDuckDB, fingerprintEntry, listLakeEntries, profileEntry, readRows, type LakeEntry } from '../../src/lake/index.js';
import { catalogBackends } from '../support/catalogs.js';
import { cid, joinEdge, tid } from '../fusion/helpers.js';
import { makeTempDir, writeSqlite } from './helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
let dbFile: string;

/** Runs statements on the file with its own (writing) DuckDB instance, as another tool would. */
async function writeDuckdb(file: string, sql: string): Promise<void> {
  const inst = await DuckDBInstance.create(file);
  const con = await inst.connect();
  try {
    await con.run(sql);
  } finally {
    con.closeSync();
    inst.closeSync();
  }
}

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('duckdb-file'));
  dbFile = path.join(dir, 'warehouse.duckdb');
  await writeDuckdb(
    dbFile,
    `CREATE TABLE stores (store_id INTEGER PRIMARY KEY, city VARCHAR, opened DATE);
     INSERT INTO stores SELECT i, ['Oslo', 'Lima', 'Pune'][1 + i % 3], DATE '2020-01-01' + i::INTEGER FROM range(1, 41) t(i);
     CREATE SCHEMA sales;
     CREATE TABLE sales.orders (order_id BIGINT, store_id INTEGER, amount DECIMAL(10, 2));
     INSERT INTO sales.orders SELECT 1000 + i, 1 + i % 40, (i * 3.25)::DECIMAL(10, 2) FROM range(0, 500) t(i);
     CREATE VIEW big_orders AS SELECT * FROM sales.orders WHERE amount > 100;`,
  );
  await writeFile(path.join(dir, 'not-a-db.duckdb'), 'plain text, not a database');
});

afterAll(async () => {
  await closeDuckDB();
  await cleanup?.();
});

const entryOf = (entries: LakeEntry[], table: string) => entries.find((e) => e.duckdbTable?.table === table)!;

describe('DuckDB database files', () => {
  it('lists every base table of every schema (not views); an unreadable file is a problem naming it', async () => {
    const { entries, problems } = await listLakeEntries(dir);
    expect(entries.map((e) => [path.basename(e.path), e.format, e.duckdbTable])).toEqual([
      ['warehouse.duckdb', 'duckdb', { schema: 'main', table: 'stores' }],
      ['warehouse.duckdb', 'duckdb', { schema: 'sales', table: 'orders' }],
    ]);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.path).toBe(path.join(dir, 'not-a-db.duckdb'));
    expect(problems[0]!.message).toMatch(/cannot open DuckDB database not-a-db\.duckdb/);
  });

  it('profiles a table: name, uri, exact row count, DuckDB types mapped', async () => {
    const { entries } = await listLakeEntries(dbFile);
    const p = await profileEntry(entryOf(entries, 'orders'), { sampleRows: 100 });
    expect(p).toMatchObject({ name: 'orders', uri: `${dbFile}#sales.orders`, format: 'duckdb', rowCount: 500, profiledRows: 100 });
    expect(p.columns.map((c) => [c.name, c.logicalType])).toEqual([
      ['order_id', 'integer'],
      ['store_id', 'integer'],
      ['amount', 'float'],
    ]);
    // Whole-column distinct estimate beyond the sample (500 distinct order ids).
    expect(p.columns[0]!.distinctEstimate).toBeGreaterThan(450);
    const s = await profileEntry(entryOf(entries, 'stores'));
    expect(s.columns.map((c) => c.logicalType)).toEqual(['integer', 'text', 'date']);
    expect((await readRows(entryOf(entries, 'stores'), 2)).map((r) => r['city'])).toEqual(['Lima', 'Pune']);
  });

  it('fingerprints per table: a write to one table changes only its fingerprint', async () => {
    const before = await listLakeEntries(dbFile);
    const fStores = await fingerprintEntry(entryOf(before.entries, 'stores'));
    const fOrders = await fingerprintEntry(entryOf(before.entries, 'orders'));
    expect(await fingerprintEntry(entryOf(before.entries, 'stores'))).toBe(fStores);
    await writeDuckdb(dbFile, `INSERT INTO sales.orders VALUES (9999, 1, 1.00)`);
    const after = await listLakeEntries(dbFile);
    expect(await fingerprintEntry(entryOf(after.entries, 'stores'))).toBe(fStores);
    expect(await fingerprintEntry(entryOf(after.entries, 'orders'))).not.toBe(fOrders);
    expect((await profileEntry(entryOf(after.entries, 'orders'))).rowCount).toBe(501);
  });

  it('ingests into the catalog and fuses with a CSV file and a SQLite table, matching a hand-written query', async () => {
    await writeFile(path.join(dir, 'cities.csv'), 'city,country\nOslo,Norway\nLima,Peru\nPune,India\n');
    writeSqlite(
      path.join(dir, 'targets.sqlite'),
      'CREATE TABLE targets (store_id INTEGER PRIMARY KEY, target REAL);',
      { sql: 'INSERT INTO targets VALUES (?, ?)', values: Array.from({ length: 40 }, (_, i) => [i + 1, (i + 1) * 10.5]) },
    );
    const db = await catalogBackends[0]!.open();
    try {
      const s = await ingestLake(db, dir, { embedder: new HashedNgramEmbedder() });
      expect(s.status).toBe('partial'); // not-a-db.duckdb
      expect(s.errors.map((e) => path.basename(e.path))).toEqual(['not-a-db.duckdb']);
      const rows = await db.prisma.lakeTable.findMany({ include: { columns: { orderBy: { ordinal: 'asc' } } }, orderBy: { name: 'asc' } });
      expect(rows.map((r) => [r.name, r.format])).toEqual([
        ['cities', 'csv'],
        ['orders', 'duckdb'],
        ['stores', 'duckdb'],
        ['targets', 'sqlite'],
      ]);
      const tables: Record<string, FusionTable> = Object.fromEntries(
        rows.map((r) => [
          r.name,
          {
            id: tid(r.name),
            name: r.name,
            uri: r.uri,
            format: r.format as FusionTable['format'],
            columns: r.columns.map((c) => ({ id: cid(r.name, c.name), name: c.name, logicalType: c.logicalType })),
          },
        ]),
      );
      const plan = planFusion({
        tables: [tables.orders!, tables.stores!, tables.cities!, tables.targets!],
        joins: [joinEdge('orders.store_id', 'stores.store_id'), joinEdge('stores.city', 'cities.city'), joinEdge('stores.store_id', 'targets.store_id')],
        unions: [],
        filters: [{ columnId: cid('cities', 'country'), operator: '=', literal: 'Peru' }],
      });
      expect(plan.executable, plan.warnings.join('\n')).toBe(true);
      expect(plan.setupSql).toEqual([expect.stringMatching(/^ATTACH IF NOT EXISTS '.*warehouse\.duckdb' AS "graft_db_[0-9a-f]{12}" \(READ_ONLY\)$/)]);
      expect(plan.sql!.startsWith(`-- run first: ${plan.setupSql[0]};\n`)).toBe(true);

      // The hand-written query, on a separate DuckDB that attaches the file itself.
      const inst = await DuckDBInstance.create(':memory:');
      const con = await inst.connect();
      let expected: unknown[][];
      try {
        await con.run(`ATTACH '${dbFile}' AS w (READ_ONLY)`);
        await con.run(`CREATE TABLE targets AS SELECT * FROM (VALUES ${Array.from({ length: 40 }, (_, i) => `(${i + 1}, ${(i + 1) * 10.5})`).join(', ')}) v(store_id, target)`);
        expected = (
          await con.runAndReadAll(
            `SELECT o.order_id, o.store_id, o.amount::DOUBLE, s.city, s.opened::VARCHAR, c.country, t.target::DOUBLE
               FROM w.sales.orders o JOIN w.main.stores s ON o.store_id = s.store_id
               JOIN read_csv('${path.join(dir, 'cities.csv')}') c ON s.city = c.city
               JOIN targets t ON t.store_id = s.store_id
              WHERE c.country = 'Peru'`,
          )
        ).getRows();
      } finally {
        con.closeSync();
        inst.closeSync();
      }
      expect(expected.length).toBeGreaterThan(100);
      const preview = await previewFusion(plan, 1000);
      expect(preview.columns).toEqual(['order_id', 'store_id', 'amount', 'city', 'opened', 'country', 'target']);
      expect(preview.sources.map((x) => [x.name, x.readBy])).toEqual([
        ['orders', 'duckdb'],
        ['stores', 'duckdb'],
        ['cities', 'duckdb'],
        ['targets', 'better-sqlite3'],
      ]);
      const canon = (rs: unknown[][]) => rs.map((r) => JSON.stringify(r.map((v) => String(v)))).sort();
      expect(canon(preview.rows.map((r) => preview.columns.map((c) => r[c])))).toEqual(canon(expected));
      expect(await countFusion(plan)).toBe(expected.length);

      // DuckDB-only plan: graft runs plan.sql itself (with its ATTACH comment) as printed.
      const inPlace = planFusion({ tables: [tables.orders!, tables.stores!], joins: [joinEdge('orders.store_id', 'stores.store_id')], unions: [] });
      expect(inPlace.sources.every((x) => x.copiedBy === null)).toBe(true);
      expect(inPlace.sql).toMatch(/^-- run first: ATTACH/);
      expect(await countFusion(inPlace)).toBe(501);
    } finally {
      await db.close();
    }
  });
});
