import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closeDuckDB,
  entryUri,
  fingerprintEntry,
  profileEntry,
  type ColumnProfile,
  type LakeEntry,
  type TableProfile,
} from '../../src/lake/index.js';
import { jaccard } from '../../src/sketch/minhash.js';
import { makeTempDir, writeParquet, writeSqlite, writeText } from './helpers.js';

let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('cross'));
});

afterAll(async () => {
  await closeDuckDB();
  await cleanup();
});

function col(p: TableProfile, name: string): ColumnProfile {
  const c = p.columns.find((x) => x.name === name);
  if (!c) throw new Error(`no column ${name}`);
  return c;
}

describe('the same values in CSV, Parquet and SQLite', () => {
  it('give identical MinHash signatures and matching statistics', async () => {
    const ids = Array.from({ length: 100 }, (_, i) => i + 1);
    const csv = await writeText(join(dir, 'ids.csv'), `id,price,label\n${ids.map((i) => `${i},${i}.0,Item ${i}`).join('\n')}\n`);
    const parquet = await writeParquet(
      join(dir, 'ids.parquet'),
      `SELECT range::INTEGER AS id, range::DOUBLE AS price, 'item ' || range AS label FROM range(1, 101)`,
    );
    const sqlite = writeSqlite(join(dir, 'ids.sqlite'), 'CREATE TABLE ids (id INTEGER PRIMARY KEY, price REAL, label TEXT);', {
      sql: 'INSERT INTO ids VALUES (?, ?, ?)',
      values: ids.map((i) => [i, i, `ITEM ${i}`]),
    });
    const profiles = await Promise.all([
      profileEntry({ path: csv, format: 'csv' }),
      profileEntry({ path: parquet, format: 'parquet' }),
      profileEntry({ path: sqlite, format: 'sqlite', sqliteTable: 'ids' }),
    ]);
    const [c, p, s] = profiles;
    for (const name of ['id', 'price', 'label']) {
      expect(col(p, name).minhash, `${name}: parquet vs csv`).toEqual(col(c, name).minhash);
      expect(col(s, name).minhash, `${name}: sqlite vs csv`).toEqual(col(c, name).minhash);
      expect(jaccard(col(c, name).minhash, col(s, name).minhash)).toBe(1);
    }
    for (const prof of profiles) {
      expect(prof.rowCount).toBe(100);
      expect(col(prof, 'id')).toMatchObject({ logicalType: 'integer', distinctEstimate: 100, uniqueness: 1, numericMin: 1, numericMax: 100, nullShare: 0 });
      expect(col(prof, 'id').sampleValues).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
      expect(col(prof, 'label').logicalType).toBe('text');
    }
    // CSV "1.0" is a DOUBLE, SQLite REAL -> float, Parquet DOUBLE.
    expect(profiles.map((x) => col(x, 'price').logicalType)).toEqual(['float', 'float', 'float']);
    // Overlapping but different sets: Jaccard well below 1 and above 0.
    const half = await writeText(join(dir, 'half.csv'), `id\n${Array.from({ length: 100 }, (_, i) => i + 51).join('\n')}\n`);
    const h = await profileEntry({ path: half, format: 'csv' });
    const j = jaccard(col(h, 'id').minhash, col(c, 'id').minhash);
    expect(j).toBeGreaterThan(0.15);
    expect(j).toBeLessThan(0.6); // true Jaccard 50/150
  });
});

describe('SQLite profiling', () => {
  it('infers types from stored values, not declared types', async () => {
    const path = writeSqlite(
      join(dir, 'loose.sqlite'),
      `CREATE TABLE t (a, b TEXT, c VARCHAR(10), d NUMERIC, e BOOLEAN, f DATETIME, g BLOB, h INTEGER);
       INSERT INTO t VALUES (1, '001', 'x', 1.5, 1, '2020-01-02 03:04:05', x'00ff', NULL);
       INSERT INTO t VALUES (2, '002', 'y', 2, 0, '2021-02-03 04:05:06', x'0102', '');
       INSERT INTO t VALUES (3, '003', 7, 3, 1, '2022-03-04', x'0304', NULL);`,
    );
    const p = await profileEntry({ path, format: 'sqlite', sqliteTable: 't' });
    expect(p.columns.map((c) => [c.name, c.logicalType])).toEqual([
      ['a', 'integer'], // no declared type, integers stored
      ['b', 'text'], // numeric-looking strings stay text
      ['c', 'text'], // mixed text and integer
      ['d', 'float'], // NUMERIC holding 1.5 and integers
      ['e', 'boolean'], // declared BOOLEAN holding 0/1
      ['f', 'timestamp'], // ISO timestamps and dates
      ['g', 'other'], // blobs
      ['h', 'integer'], // no values: declared type decides
    ]);
    expect(col(p, 'b').sampleValues).toEqual(['001', '002', '003']);
    expect(col(p, 'h').nullShare).toBe(1); // NULL and '' both missing
    expect(col(p, 'g').sampleValues[0]).toBe('\\x00ff');
    expect(p.format).toBe('sqlite');
    expect(p.name).toBe('t');
    expect(p.uri).toBe(`${path}#t`);
    expect(entryUri({ path, format: 'sqlite', sqliteTable: 't' })).toBe(p.uri);
    expect(p.sourceExpression).toBeNull();
  });

  it('handles empty, WITHOUT ROWID and oddly named tables', async () => {
    const path = writeSqlite(
      join(dir, 'odd.sqlite'),
      `CREATE TABLE "empty one" (id INTEGER, name TEXT);
       CREATE TABLE kv (k TEXT PRIMARY KEY, v INTEGER) WITHOUT ROWID;
       INSERT INTO kv VALUES ('b', 2), ('a', 1);
       CREATE TABLE "we""ird" (x REAL); INSERT INTO "we""ird" VALUES (0.5);`,
    );
    const empty = await profileEntry({ path, format: 'sqlite', sqliteTable: 'empty one' });
    expect(empty.rowCount).toBe(0);
    expect(empty.columns.map((c) => c.logicalType)).toEqual(['integer', 'text']);
    expect(empty.warnings.join(' ')).toMatch(/no rows/);
    const kv = await profileEntry({ path, format: 'sqlite', sqliteTable: 'kv' });
    expect(col(kv, 'k').sampleValues).toEqual(['a', 'b']); // primary-key order
    const weird = await profileEntry({ path, format: 'sqlite', sqliteTable: 'we"ird' });
    expect(col(weird, 'x').numericMax).toBe(0.5);
  });

  it('samples the first rows but counts rows and distinct values over the whole table', async () => {
    const n = 30_000;
    const path = writeSqlite(join(dir, 'big.sqlite'), 'CREATE TABLE big (id INTEGER PRIMARY KEY, grp INTEGER, big INTEGER);', {
      sql: 'INSERT INTO big VALUES (?, ?, ?)',
      values: Array.from({ length: n }, (_, i) => [i + 1, i % 10, 2n ** 60n + BigInt(i)]),
    });
    const p = await profileEntry({ path, format: 'sqlite', sqliteTable: 'big' }, { sampleRows: 2000 });
    expect(p.rowCount).toBe(n);
    expect(p.profiledRows).toBe(2000);
    expect(col(p, 'id').numericMax).toBe(2000);
    expect(col(p, 'id').uniqueness).toBe(1);
    expect(Math.abs(col(p, 'id').distinctEstimate - n) / n).toBeLessThan(0.05);
    expect(col(p, 'grp').distinctEstimate).toBe(10);
    expect(col(p, 'big').sampleValues[0]).toBe((2n ** 60n).toString()); // exact, not rounded
  });
});

describe('fingerprints', () => {
  it('are stable for unchanged files and change with the content (CSV, Parquet)', async () => {
    const path = await writeText(join(dir, 'fp.csv'), 'a,b\n1,2\n');
    const e: LakeEntry = { path, format: 'csv' };
    const first = await profileEntry(e);
    expect(first.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect((await profileEntry(e)).fingerprint).toBe(first.fingerprint);
    expect(await fingerprintEntry(e)).toBe(first.fingerprint);
    await appendFile(path, '3,4\n');
    const changed = await profileEntry(e);
    expect(changed.fingerprint).not.toBe(first.fingerprint);
    expect(changed.rowCount).toBe(2);

    const pq = await writeParquet(join(dir, 'fp.parquet'), 'SELECT 1 AS x');
    const p1 = await profileEntry({ path: pq, format: 'parquet' });
    expect(await fingerprintEntry({ path: pq, format: 'parquet' })).toBe(p1.fingerprint);
    await writeParquet(pq, 'SELECT 2 AS x');
    expect((await profileEntry({ path: pq, format: 'parquet' })).fingerprint).not.toBe(p1.fingerprint);
  });

  it('for SQLite hash the table rows: stable, per table, and sensitive to edits', async () => {
    const path = writeSqlite(
      join(dir, 'fp.sqlite'),
      `CREATE TABLE a (id INTEGER PRIMARY KEY, v TEXT); INSERT INTO a VALUES (1, 'x'), (2, 'y');
       CREATE TABLE b (id INTEGER PRIMARY KEY, v TEXT); INSERT INTO b VALUES (1, 'x'), (2, 'y');
       CREATE TABLE c (id INTEGER PRIMARY KEY, v TEXT); INSERT INTO c VALUES (1, 'q');`,
    );
    const fa = (await profileEntry({ path, format: 'sqlite', sqliteTable: 'a' })).fingerprint;
    const fb = (await profileEntry({ path, format: 'sqlite', sqliteTable: 'b' })).fingerprint;
    const fc = await fingerprintEntry({ path, format: 'sqlite', sqliteTable: 'c' });
    expect(fa).toBe(fb); // same content in two tables
    expect(await fingerprintEntry({ path, format: 'sqlite', sqliteTable: 'a' })).toBe(fa);
    const db = new Database(path);
    db.exec(`UPDATE a SET v = 'z' WHERE id = 2`);
    db.close();
    expect((await profileEntry({ path, format: 'sqlite', sqliteTable: 'a' })).fingerprint).not.toBe(fa);
    expect(await fingerprintEntry({ path, format: 'sqlite', sqliteTable: 'c' })).toBe(fc); // untouched table
    // Integer 1 and text '1' differ.
    const typed = writeSqlite(join(dir, 'typed.sqlite'), `CREATE TABLE t (v); INSERT INTO t VALUES (1); CREATE TABLE u (v); INSERT INTO u VALUES ('1');`);
    expect(await fingerprintEntry({ path: typed, format: 'sqlite', sqliteTable: 't' })).not.toBe(
      await fingerprintEntry({ path: typed, format: 'sqlite', sqliteTable: 'u' }),
    );
  });

  it('for a rewritten file with identical bytes stay the same', async () => {
    const path = join(dir, 'rewrite.csv');
    await writeFile(path, 'k\n1\n');
    const before = await fingerprintEntry({ path, format: 'csv' });
    await writeFile(path, 'k\n1\n');
    expect(await fingerprintEntry({ path, format: 'csv' })).toBe(before);
  });
});
