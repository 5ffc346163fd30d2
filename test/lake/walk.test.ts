import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDuckDB, listLakeEntries } from '../../src/lake/index.js';
import { LakeReadError } from '../../src/util/errors.js';
import { makeTempDir, writeParquet, writeSqlite, writeText } from './helpers.js';

let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('walk'));
  await mkdir(join(dir, 'b_sub', 'deeper'), { recursive: true });
  await mkdir(join(dir, '.hidden_dir'));
  await writeText(join(dir, 'z.csv'), 'a\n1\n');
  await writeText(join(dir, 'a.tsv'), 'a\tb\n1\t2\n');
  await writeText(join(dir, 'notes.txt'), 'x,y\n1,2\n');
  await writeText(join(dir, 'README.md'), '# not data\n');
  await writeText(join(dir, 'image.png'), Buffer.from([0x89, 0x50]));
  await writeText(join(dir, '.secret.csv'), 'a\n1\n');
  await writeText(join(dir, '.hidden_dir', 'inside.csv'), 'a\n1\n');
  await writeText(join(dir, 'b_sub', 'deeper', 'm.csv'), 'a\n1\n');
  await writeParquet(join(dir, 'b_sub', 'p.parquet'), 'SELECT 1 AS x');
  writeSqlite(
    join(dir, 'shop.sqlite'),
    `CREATE TABLE orders (id INTEGER PRIMARY KEY AUTOINCREMENT, total REAL);
     INSERT INTO orders (total) VALUES (1.5);
     CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT);
     CREATE VIEW v AS SELECT * FROM customers;`,
  );
  await writeText(join(dir, 'broken.db'), 'this is not a sqlite database, just text padded out '.repeat(100));
  await symlink(join(dir, 'b_sub'), join(dir, 'c_link')); // followed once, no cycle
  await symlink(dir, join(dir, 'b_sub', 'loop')); // a cycle back to the root
});

afterAll(async () => {
  await closeDuckDB();
  await cleanup();
});

describe('listLakeEntries', () => {
  it('walks recursively in sorted order, skipping hidden and unknown files', async () => {
    const { entries, problems } = await listLakeEntries(dir);
    const rel = entries.map((e) => `${e.path.slice(dir.length + 1)}${e.sqliteTable ? `#${e.sqliteTable}` : ''}:${e.format}`);
    expect(rel).toEqual([
      'a.tsv:csv',
      'b_sub/deeper/m.csv:csv',
      'b_sub/p.parquet:parquet',
      // c_link points at b_sub, which was already visited
      'notes.txt:csv',
      'shop.sqlite#customers:sqlite',
      'shop.sqlite#orders:sqlite', // sqlite_sequence (internal) and the view are not listed
      'z.csv:csv',
    ]);
    expect(problems).toHaveLength(1);
    expect(problems[0].path).toBe(join(dir, 'broken.db'));
    expect(problems[0].message).toMatch(/broken\.db/);
    expect(problems[0].message).toMatch(/not a database/i);
  });

  it('accepts a single file or a single SQLite database as the root', async () => {
    const single = await listLakeEntries(join(dir, 'z.csv'));
    expect(single.entries).toEqual([{ path: join(dir, 'z.csv'), format: 'csv' }]);
    const db = await listLakeEntries(join(dir, 'shop.sqlite'));
    expect(db.entries.map((e) => e.sqliteTable)).toEqual(['customers', 'orders']);
    const bad = await listLakeEntries(join(dir, 'broken.db'));
    expect(bad.entries).toEqual([]);
    expect(bad.problems[0].path).toBe(join(dir, 'broken.db'));
  });

  it('reports an unsupported single file and throws for a missing root', async () => {
    const r = await listLakeEntries(join(dir, 'README.md'));
    expect(r.entries).toEqual([]);
    expect(r.problems[0].message).toMatch(/unsupported/);
    await expect(listLakeEntries(join(dir, 'nope'))).rejects.toBeInstanceOf(LakeReadError);
  });
});
