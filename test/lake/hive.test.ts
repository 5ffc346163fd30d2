/**
 * Hive-partitioned folders (src/lake/hive.ts): real folders written by DuckDB's
 * `COPY ... (PARTITION_BY ...)`, read back through the lake API.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closeDuckDB,
  duckdbSourceExpression,
  entryName,
  entryUri,
  fingerprintEntry,
  listLakeEntries,
  profileEntry,
  readRows,
  withDuckDB,
} from '../../src/lake/index.js';
import { sqlString } from '../../src/lake/sql.js';
import { makeTempDir, writeText } from './helpers.js';

let dir: string;
let cleanup: () => Promise<void>;

/** `COPY (select) TO folder (FORMAT f, PARTITION_BY (keys))`: DuckDB's own hive layout. */
async function writePartitioned(folder: string, select: string, format: 'parquet' | 'csv', keys: string[]): Promise<string> {
  await withDuckDB((con) =>
    con.run(`COPY (${select}) TO ${sqlString(folder)} (FORMAT ${format}, PARTITION_BY (${keys.join(', ')}), OVERWRITE_OR_IGNORE)`),
  );
  return folder;
}

/** 2 years x 3 months of sales rows, 300 rows in all. */
const SALES = `SELECT i AS sale_id, i % 7 AS store_id, round(i * 1.25, 2) AS amount,
  2023 + (i % 2) AS year, 1 + (i % 3) AS month FROM range(300) t(i)`;

async function count(sql: string): Promise<number> {
  return withDuckDB(async (con) => Number((await con.runAndReadAll(sql)).getRows()[0][0]));
}

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('hive'));
});

afterAll(async () => {
  await closeDuckDB();
  await cleanup?.();
});

describe('a hive-partitioned Parquet folder', () => {
  let lake: string;
  let sales: string;

  beforeAll(async () => {
    lake = join(dir, 'lake-parquet');
    await mkdir(lake);
    sales = await writePartitioned(join(lake, 'sales'), SALES, 'parquet', ['year', 'month']);
    // Markers and hidden files a writer leaves behind are not data.
    await writeText(join(sales, '_SUCCESS'), '');
    await writeText(join(sales, 'year=2023', 'month=1', '.part-0.parquet.crc'), 'crc');
    await writeText(join(sales, 'year=2023', 'month=1', '.hidden.parquet'), 'not parquet at all');
    await writeText(join(lake, 'stores.csv'), 'store_id,city\n0,Oslo\n1,Bergen\n');
  });

  it('is listed as one entry (the folder), next to the plain CSV', async () => {
    const { entries, problems } = await listLakeEntries(lake);
    expect(problems).toEqual([]);
    expect(entries).toEqual([
      { path: sales, format: 'parquet', hive: true },
      { path: join(lake, 'stores.csv'), format: 'csv' },
    ]);
    expect(entryUri(entries[0])).toBe(sales);
    expect(entryName(entries[0])).toBe('sales');
    // Ingesting the folder itself gives the same single entry.
    expect((await listLakeEntries(sales)).entries).toEqual([{ path: sales, format: 'parquet', hive: true }]);
  });

  it('profiles as one table: partition keys are integer columns, the row count is the total', async () => {
    const profile = await profileEntry({ path: sales, format: 'parquet', hive: true });
    expect(profile.name).toBe('sales');
    expect(profile.uri).toBe(sales);
    expect(profile.rowCount).toBe(300);
    const types = Object.fromEntries(profile.columns.map((c) => [c.name, c.logicalType]));
    expect(types).toEqual({ sale_id: 'integer', store_id: 'integer', amount: 'float', year: 'integer', month: 'integer' });
    const year = profile.columns.find((c) => c.name === 'year')!;
    expect([year.numericMin, year.numericMax, year.distinctEstimate]).toEqual([2023, 2024, 2]);
    expect(profile.columns.find((c) => c.name === 'month')!.distinctEstimate).toBe(3);
    expect(profile.fingerprint).toBe(await fingerprintEntry({ path: sales, format: 'parquet', hive: true }));
    expect(profile.sourceExpression).toContain('hive_partitioning=true');
  });

  it('the source expression reads every partition with its keys (also from the bare uri)', async () => {
    const expr = duckdbSourceExpression({ path: sales, format: 'parquet' })!;
    expect(expr).toBe(duckdbSourceExpression({ path: sales, format: 'parquet', hive: true }));
    expect(expr).not.toContain('.hidden');
    expect(await count(`SELECT count(*) FROM ${expr} WHERE year = 2024 AND month = 2`)).toBe(
      await count(`SELECT count(*) FROM (${SALES}) WHERE year = 2024 AND month = 2`),
    );
    const rows = await readRows({ path: sales, format: 'parquet', hive: true }, 3);
    expect(Object.keys(rows[0]!).sort()).toEqual(['amount', 'month', 'sale_id', 'store_id', 'year']);
  });

  it('a new partition file changes the fingerprint; the rows grow', async () => {
    const entry = { path: sales, format: 'parquet' as const, hive: true as const };
    const before = await fingerprintEntry(entry);
    expect(await fingerprintEntry(entry)).toBe(before); // stable
    await mkdir(join(sales, 'year=2025', 'month=1'), { recursive: true });
    await withDuckDB((con) =>
      con.run(`COPY (SELECT 1000 + i AS sale_id, 1 AS store_id, 9.5 AS amount FROM range(10) t(i)) TO ${sqlString(join(sales, 'year=2025', 'month=1', 'part-0.parquet'))} (FORMAT parquet)`),
    );
    expect(await fingerprintEntry(entry)).not.toBe(before);
    const profile = await profileEntry(entry);
    expect(profile.rowCount).toBe(310);
    expect(profile.columns.find((c) => c.name === 'year')!.numericMax).toBe(2025);
  });
});

describe('a hive-partitioned CSV folder', () => {
  it('is one table with a text partition key and the total row count', async () => {
    const lake = join(dir, 'lake-csv');
    await mkdir(lake);
    const events = await writePartitioned(
      join(lake, 'events'),
      `SELECT i AS event_id, 'user' || (i % 5) AS user_name, ['eu', 'us', 'apac'][1 + i % 3] AS region FROM range(90) t(i)`,
      'csv',
      ['region'],
    );
    const { entries, problems } = await listLakeEntries(lake);
    expect(problems).toEqual([]);
    expect(entries).toEqual([{ path: events, format: 'csv', hive: true }]);
    const profile = await profileEntry(entries[0]);
    expect(profile.rowCount).toBe(90);
    expect(Object.fromEntries(profile.columns.map((c) => [c.name, c.logicalType]))).toEqual({
      event_id: 'integer',
      user_name: 'text',
      region: 'text',
    });
    expect(profile.columns.find((c) => c.name === 'region')!.distinctEstimate).toBe(3);
    expect(profile.csv).toBeDefined();
    const expr = duckdbSourceExpression({ path: events, format: 'csv', csv: profile.csv })!;
    expect(expr).toMatch(/^read_csv\(\[/);
    expect(await count(`SELECT count(*) FROM ${expr} WHERE region = 'us'`)).toBe(30);
  });
});

describe('a CSV partition whose values outgrow the type DuckDB sniffed', () => {
  it('re-reads the column as text across the folder (no rows lost) and says so', async () => {
    const t = join(dir, 'lake-csv-cast', 'readings');
    await mkdir(join(t, 'site=a'), { recursive: true });
    await mkdir(join(t, 'site=b'), { recursive: true });
    // Past the sniffer's 20,480-line sample: only the full read meets the text value.
    const lines = Array.from({ length: 25_000 }, (_, i) => `${i},${i === 24_000 ? 'n/a' : i * 10}`);
    await writeText(join(t, 'site=a', 'part-0.csv'), `reading_id,value\n${lines.join('\n')}\n`);
    await writeText(join(t, 'site=b', 'part-0.csv'), 'reading_id,value\n100000,7\n100001,9\n');
    const profile = await profileEntry({ path: t, format: 'csv', hive: true }, { sampleRows: 1000 });
    expect(profile.rowCount).toBe(25_002);
    expect(profile.columns.map((c) => [c.name, c.logicalType])).toEqual([
      ['reading_id', 'integer'],
      ['value', 'text'],
      ['site', 'text'],
    ]);
    expect(profile.csv?.types).toEqual({ value: 'VARCHAR' });
    expect(profile.warnings.join('\n')).toMatch(/column "value" has values that are not BIGINT/);
    const expr = duckdbSourceExpression({ path: t, format: 'csv', csv: profile.csv })!;
    expect(await count(`SELECT count(*) FROM ${expr} WHERE value = 'n/a' AND site = 'a'`)).toBe(1);
    expect(await count(`SELECT count(*) FROM ${expr}`)).toBe(25_002);
  });
});

describe('mixed or broken partitioned folders', () => {
  async function parquetFolder(name: string): Promise<string> {
    const lake = join(dir, name);
    await mkdir(lake);
    await writePartitioned(join(lake, 'sales'), SALES, 'parquet', ['year']);
    return lake;
  }

  it('a CSV file among Parquet partitions is a problem naming it; nothing of the folder is listed', async () => {
    const lake = await parquetFolder('mixed-format');
    const stray = await writeText(join(lake, 'sales', 'year=2024', 'extra.csv'), 'a,b\n1,2\n');
    const { entries, problems } = await listLakeEntries(lake);
    expect(entries).toEqual([]);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.path).toBe(join(lake, 'sales'));
    expect(problems[0]!.message).toContain(stray);
  });

  it('a folder that is not key=value next to key=value ones is a problem naming it', async () => {
    const lake = await parquetFolder('mixed-folder');
    await mkdir(join(lake, 'sales', 'backup'));
    const { entries, problems } = await listLakeEntries(lake);
    expect(entries).toEqual([]);
    expect(problems).toEqual([{ path: join(lake, 'sales'), message: expect.stringContaining(`${join(lake, 'sales', 'backup')} is not a key=value`) }]);
  });

  it('a data file outside the partitions (different keys) is a problem naming it', async () => {
    const lake = await parquetFolder('mixed-depth');
    await withDuckDB((con) => con.run(`COPY (SELECT 1 AS sale_id) TO ${sqlString(join(lake, 'sales', 'loose.parquet'))} (FORMAT parquet)`));
    const { problems } = await listLakeEntries(lake);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.path).toBe(join(lake, 'sales'));
    expect(problems[0]!.message).toContain(`${join(lake, 'sales', 'loose.parquet')} has no partition keys`);
  });

  it('an unreadable partition file fails profiling with a LakeReadError naming the folder and the file', async () => {
    const lake = await parquetFolder('corrupt');
    const bad = await writeText(join(lake, 'sales', 'year=2024', 'part-9.parquet'), 'PAR1 this is not parquet');
    const { entries } = await listLakeEntries(lake);
    expect(entries).toHaveLength(1);
    const err = await profileEntry(entries[0]!).catch((e: unknown) => e);
    expect((err as Error).name).toBe('LakeReadError');
    expect((err as Error).message).toContain(join(lake, 'sales'));
    expect((err as Error).message).toContain(bad);
  });

  it('a folder with only empty key=value folders is a problem', async () => {
    const lake = join(dir, 'no-files');
    await mkdir(join(lake, 't', 'k=1'), { recursive: true });
    await writeFile(join(lake, 't', 'k=1', 'README.md'), 'nothing here');
    const { entries, problems } = await listLakeEntries(lake);
    expect(entries).toEqual([]);
    expect(problems).toEqual([{ path: join(lake, 't'), message: 'partitioned folder has no CSV or Parquet data files' }]);
  });
});
