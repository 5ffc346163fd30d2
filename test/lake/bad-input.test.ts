import { randomBytes } from 'node:crypto';
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDuckDB, profileEntry, readRows, type LakeEntry } from '../../src/lake/index.js';
import { ErrorCode, LakeReadError } from '../../src/util/errors.js';
import { makeTempDir, writeSqlite, writeText } from './helpers.js';

let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('bad'));
});

afterAll(async () => {
  await closeDuckDB();
  await cleanup();
});

async function expectLakeError(entry: LakeEntry, pattern: RegExp, opts?: { maxColumns?: number }): Promise<LakeReadError> {
  const err = await profileEntry(entry, opts).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(LakeReadError);
  const lake = err as LakeReadError;
  expect(lake.code).toBe(ErrorCode.LAKE_READ);
  expect(lake.message).toContain(entry.path);
  expect(lake.message).toMatch(pattern);
  return lake;
}

describe('bad lake input', () => {
  it('corrupt Parquet (random bytes) is a LakeReadError naming the file', async () => {
    const path = await writeText(join(dir, 'garbage.parquet'), randomBytes(4096));
    await expectLakeError({ path, format: 'parquet' }, /not a readable Parquet file/);
    await expect(readRows({ path, format: 'parquet' }, 5)).rejects.toBeInstanceOf(LakeReadError);
  });

  it('truncated Parquet is a LakeReadError too', async () => {
    const path = await writeText(join(dir, 'cut.parquet'), Buffer.concat([Buffer.from('PAR1'), randomBytes(100)]));
    await expectLakeError({ path, format: 'parquet' }, /Parquet/);
  });

  it('ragged CSV still ingests and says how many lines were bad', async () => {
    const path = await writeText(join(dir, 'ragged.csv'), 'a,b,c\n1,2,3\n4,5\n6,7,8,9\n10,11,12\n13,14,15\n');
    const p = await profileEntry({ path, format: 'csv' });
    expect(p.columns.map((c) => c.name)).toEqual(['a', 'b', 'c']);
    expect(p.rowCount).toBe(3);
    expect(p.warnings).toHaveLength(1);
    expect(p.warnings[0]).toMatch(/^2 malformed lines skipped/);
    expect(p.warnings[0]).toMatch(/missing columns/);
    expect(p.warnings[0]).toMatch(/too many columns/);
  });

  it('non-UTF-8 (Latin-1) CSV is read as Latin-1 with a warning', async () => {
    const bytes = Buffer.from('id;name\n1;caf\xe9\n2;na\xefve\n3;Z\xfcrich\n', 'latin1');
    const path = await writeText(join(dir, 'latin1.csv'), bytes);
    const p = await profileEntry({ path, format: 'csv' });
    expect(p.rowCount).toBe(3);
    expect(p.warnings.some((w) => /not valid UTF-8.*Latin-1/.test(w))).toBe(true);
    expect(p.columns[1].sampleValues).toEqual(['café', 'naïve', 'Zürich']);
    expect(p.csv?.encoding).toBe('latin-1');
    // Later reads of the same file use the same encoding.
    expect((await readRows({ path, format: 'csv' }, 1))[0]).toEqual({ id: 1, name: 'café' });
  });

  it('a Latin-1 byte far past the first MiB is still caught', async () => {
    const filler = Array.from({ length: 80_000 }, (_, i) => `${i},plain ascii text`).join('\n'); // ~1.9 MB
    const path = await writeText(join(dir, 'late-latin1.csv'), Buffer.concat([Buffer.from(`id,t\n${filler}\n`), Buffer.from('80000,M\xfcnchen\n', 'latin1')]));
    const p = await profileEntry({ path, format: 'csv' });
    expect(p.rowCount).toBe(80_001);
    expect(p.profiledRows).toBe(50_000);
    expect(p.csv?.encoding).toBe('latin-1');
  });

  it('empty (0 byte) and whitespace-only files are LakeReadErrors', async () => {
    const empty = await writeText(join(dir, 'empty.csv'), '');
    await expectLakeError({ path: empty, format: 'csv' }, /empty file \(0 bytes\)/);
    const emptyParquet = await writeText(join(dir, 'empty.parquet'), '');
    await expectLakeError({ path: emptyParquet, format: 'parquet' }, /empty file/);
    const blank = await writeText(join(dir, 'blank.csv'), '\n \n\n');
    await expectLakeError({ path: blank, format: 'csv' }, /no content/);
  });

  it('a missing file is a LakeReadError', async () => {
    await expectLakeError({ path: join(dir, 'gone.csv'), format: 'csv' }, /cannot read file/);
  });

  it('header-only CSV is a 0-row table with text columns and a warning', async () => {
    const path = await writeText(join(dir, 'header-only.csv'), 'id,name,score\n');
    const p = await profileEntry({ path, format: 'csv' });
    expect(p.rowCount).toBe(0);
    expect(p.profiledRows).toBe(0);
    expect(p.columns.map((c) => [c.name, c.logicalType])).toEqual([
      ['id', 'text'],
      ['name', 'text'],
      ['score', 'text'],
    ]);
    expect(p.columns[0]).toMatchObject({ nullShare: 0, distinctEstimate: 0, uniqueness: 0, sampleValues: [], topValues: [], avgLength: 0 });
    expect(p.warnings.join(' ')).toMatch(/no data rows/);
  });

  it('a 5,000-column file is refused, naming the count and the limit', async () => {
    const header = Array.from({ length: 5000 }, (_, i) => `c${i}`).join(',');
    const row = Array.from({ length: 5000 }, (_, i) => String(i)).join(',');
    const path = await writeText(join(dir, 'wide.csv'), `${header}\n${row}\n${row}\n`);
    const err = await expectLakeError({ path, format: 'csv' }, /5000 columns, more than the limit of 2000/);
    expect(err.details).toMatchObject({ columns: 5000, maxColumns: 2000 });
  });

  it('the column limit is configurable', async () => {
    const path = await writeText(join(dir, 'twelve.csv'), `${Array.from({ length: 12 }, (_, i) => `c${i}`).join(',')}\n${'1,'.repeat(11)}1\n`);
    await expectLakeError({ path, format: 'csv' }, /12 columns, more than the limit of 10/, { maxColumns: 10 });
    const p = await profileEntry({ path, format: 'csv' }, { maxColumns: 12 });
    expect(p.columns).toHaveLength(12);
  });

  it('a too-wide SQLite table is refused the same way', async () => {
    const cols = Array.from({ length: 30 }, (_, i) => `c${i} INTEGER`).join(', ');
    const path = writeSqlite(join(dir, 'wide.sqlite'), `CREATE TABLE w (${cols});`);
    await expectLakeError({ path, format: 'sqlite', sqliteTable: 'w' }, /30 columns, more than the limit of 10/, { maxColumns: 10 });
  });

  it('duplicate file content is fine here and has the same fingerprint', async () => {
    const a = await writeText(join(dir, 'dup-a.csv'), 'x,y\n1,2\n3,4\n');
    const b = join(dir, 'dup-b.csv');
    await copyFile(a, b);
    const [pa, pb] = await Promise.all([profileEntry({ path: a, format: 'csv' }), profileEntry({ path: b, format: 'csv' })]);
    expect(pa.fingerprint).toBe(pb.fingerprint);
    expect(pa.uri).not.toBe(pb.uri);
  });

  it('values that outgrow the sniffed type keep their rows (column read as text)', async () => {
    const lines = ['code,n', ...Array.from({ length: 25_000 }, (_, i) => `${i},${i}`), 'A-17,25000'];
    const path = await writeText(join(dir, 'late-text.csv'), lines.join('\n') + '\n');
    const p = await profileEntry({ path, format: 'csv' }, { sampleRows: 100_000 });
    expect(p.rowCount).toBe(25_001);
    expect(p.columns[0].logicalType).toBe('text');
    expect(p.columns[1].logicalType).toBe('integer');
    expect(p.warnings.join(' ')).toMatch(/column "code" has values that are not BIGINT/);
    expect(p.csv?.types).toEqual({ code: 'VARCHAR' });
  });

  it('a SQLite table that does not exist, or a file that is not SQLite, is a LakeReadError', async () => {
    const path = writeSqlite(join(dir, 'small.sqlite'), 'CREATE TABLE t (a INTEGER);');
    await expectLakeError({ path, format: 'sqlite', sqliteTable: 'missing' }, /no such table/);
    const junk = await writeText(join(dir, 'junk.db'), 'not sqlite at all '.repeat(300));
    await expectLakeError({ path: junk, format: 'sqlite', sqliteTable: 't' }, /not a database/);
  });
});
