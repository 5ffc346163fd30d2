import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDuckDB, duckdbSourceExpression, profileEntry, readRows, withDuckDB } from '../../src/lake/index.js';
import { makeTempDir, writeParquet, writeSqlite, writeText } from './helpers.js';

let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir("src-o'brien"));
});

afterAll(async () => {
  await closeDuckDB();
  await cleanup();
});

describe('duckdbSourceExpression', () => {
  it('escapes quotes in paths and yields SQL DuckDB can run', async () => {
    const csv = await writeText(join(dir, "it's.csv"), 'a,b\n1,x\n2,y\n');
    const pq = await writeParquet(join(dir, "o'neil.parquet"), "SELECT 7 AS n, 'z' AS s");
    const csvExpr = duckdbSourceExpression({ path: csv, format: 'csv' })!;
    const pqExpr = duckdbSourceExpression({ path: pq, format: 'parquet' })!;
    expect(csvExpr).toContain(`'${csv.replace(/'/g, "''")}'`);
    expect(csvExpr).toMatch(/^read_csv\('.*', auto_detect=true/);
    expect(pqExpr).toBe(`read_parquet('${pq.replace(/'/g, "''")}')`);
    const rows = await withDuckDB(async (con) => ({
      csv: (await con.runAndReadAll(`SELECT count(*) AS n FROM ${csvExpr}`)).getRowObjectsJson(),
      pq: (await con.runAndReadAll(`SELECT n, s FROM ${pqExpr}`)).getRowObjectsJson(),
    }));
    expect(rows.csv).toEqual([{ n: '2' }]);
    expect(rows.pq).toEqual([{ n: 7, s: 'z' }]);
  });

  it('is null for SQLite (no DuckDB sqlite extension offline)', () => {
    expect(duckdbSourceExpression({ path: join(dir, 'x.sqlite'), format: 'sqlite', sqliteTable: 't' })).toBeNull();
  });

  it('reuses what profiling learned: encoding and renamed columns', async () => {
    const path = await writeText(join(dir, 'blank-header.csv'), Buffer.from('id,,name\n1,2,J\xf6rg\n', 'latin1'));
    const p = await profileEntry({ path, format: 'csv' });
    expect(p.columns.map((c) => c.name)).toEqual(['id', 'column_1', 'name']);
    expect(duckdbSourceExpression({ path, format: 'csv' })).toBe(p.sourceExpression);
    expect(duckdbSourceExpression({ path, format: 'csv', csv: p.csv })).toBe(p.sourceExpression);
    expect(p.sourceExpression).toContain("encoding='latin-1'");
    // Without a profile in this process, a quick check still finds the encoding.
    const other = await writeText(join(dir, 'other.csv'), Buffer.from('a\nM\xfcller\n', 'latin1'));
    expect(duckdbSourceExpression({ path: other, format: 'csv' })).toContain("encoding='latin-1'");
  });
});

describe('readRows', () => {
  it('returns the first rows of CSV, Parquet and SQLite as plain values', async () => {
    const csv = await writeText(join(dir, 'r.csv'), 'id,name,day\n1,ann,2024-01-02\n2,bob,2024-01-03\n3,cy,2024-01-04\n');
    const pq = await writeParquet(join(dir, 'r.parquet'), `SELECT range AS id, range * 0.5 AS half, 12.50::DECIMAL(6,2) AS price FROM range(5)`);
    const db = writeSqlite(
      join(dir, 'r.sqlite'),
      `CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT, big INTEGER); INSERT INTO t VALUES (1, 'a', 9007199254740993), (2, 'b', 3), (3, 'c', 4);`,
    );
    expect(await readRows({ path: csv, format: 'csv' }, 2)).toEqual([
      { id: 1, name: 'ann', day: '2024-01-02' },
      { id: 2, name: 'bob', day: '2024-01-03' },
    ]);
    expect(await readRows({ path: pq, format: 'parquet' }, 2)).toEqual([
      { id: 0, half: 0, price: 12.5 },
      { id: 1, half: 0.5, price: 12.5 },
    ]);
    expect(await readRows({ path: db, format: 'sqlite', sqliteTable: 't' }, 2)).toEqual([
      { id: 1, v: 'a', big: '9007199254740993' }, // beyond 2^53: exact text
      { id: 2, v: 'b', big: 3 },
    ]);
    expect(await readRows({ path: csv, format: 'csv' }, 0)).toEqual([]);
  });
});
