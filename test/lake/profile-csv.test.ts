import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDuckDB, profileEntry, type ColumnProfile, type TableProfile } from '../../src/lake/index.js';
import { EMPTY_SLOT, MinHash, cellKey } from '../../src/sketch/minhash.js';
import { makeTempDir, writeText } from './helpers.js';

let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('csv'));
});

afterAll(async () => {
  await closeDuckDB();
  await cleanup();
});

async function profileCsv(name: string, text: string, opts?: { sampleRows?: number }): Promise<TableProfile> {
  const path = await writeText(join(dir, name), text);
  return profileEntry({ path, format: 'csv' }, opts);
}

function col(p: TableProfile, name: string): ColumnProfile {
  const c = p.columns.find((x) => x.name === name);
  if (!c) throw new Error(`no column ${name} in ${p.columns.map((x) => x.name).join(', ')}`);
  return c;
}

describe('profileEntry on CSV', () => {
  it('infers logical types', async () => {
    const p = await profileCsv(
      'types.csv',
      'id,price,name,active,day,at\n' +
        '1,9.5,apple,true,2024-01-02,2024-01-02 10:00:00\n' +
        '2,3.25,pear,false,2024-02-03,2024-02-03 11:30:00\n' +
        '3,4,plum,true,2024-03-04,2024-03-04 12:45:00\n',
    );
    expect(p.columns.map((c) => [c.name, c.logicalType])).toEqual([
      ['id', 'integer'],
      ['price', 'float'],
      ['name', 'text'],
      ['active', 'boolean'],
      ['day', 'date'],
      ['at', 'timestamp'],
    ]);
    expect(p.columns.map((c) => c.ordinal)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(p.format).toBe('csv');
    expect(p.name).toBe('types');
    expect(p.uri).toBe(join(dir, 'types.csv'));
    expect(p.rowCount).toBe(3);
    expect(p.profiledRows).toBe(3);
    expect(p.warnings).toEqual([]);
    expect(col(p, 'id').numericMin).toBe(1);
    expect(col(p, 'id').numericMax).toBe(3);
    expect(col(p, 'price').numericMin).toBe(3.25);
    expect(col(p, 'price').numericMax).toBe(9.5);
    expect(col(p, 'name').numericMin).toBeNull();
    expect(col(p, 'day').sampleValues).toEqual(['2024-01-02', '2024-02-03', '2024-03-04']);
  });

  it('computes null share (NULL and blank), uniqueness, distinct counts and lengths', async () => {
    const p = await profileCsv('stats.csv', 'k,city,maybe\n1,Paris,\n2,Rome,x\n3,Paris,\n4,Oslo, \n5,,y\n6,Rome,\n7,Paris,\n8,Oslo,\n');
    const k = col(p, 'k');
    expect(k.nullShare).toBe(0);
    expect(k.uniqueness).toBe(1);
    expect(k.distinctEstimate).toBe(8);
    const city = col(p, 'city');
    expect(city.nullShare).toBeCloseTo(1 / 8);
    expect(city.distinctEstimate).toBe(3);
    expect(city.uniqueness).toBeCloseTo(3 / 7);
    expect(city.sampleValues).toEqual(['Paris', 'Rome', 'Oslo']);
    expect(city.topValues).toEqual(['Paris', 'Rome', 'Oslo']); // 3, 2, 2 (ties in first-seen order)
    expect(city.avgLength).toBeCloseTo((5 + 4 + 5 + 4 + 4 + 5 + 4) / 7);
    const maybe = col(p, 'maybe');
    expect(maybe.nullShare).toBeCloseTo(6 / 8); // empty cells and a lone blank count as missing
    expect(maybe.uniqueness).toBe(1);
    expect(k.topValues).toEqual([]); // numbers are not indexed as text values
  });

  it('keeps 10 distinct sample values in first-seen order, truncated to 200 chars', async () => {
    const long = 'L'.repeat(500);
    const lines = ['v', long, ...Array.from({ length: 30 }, (_, i) => `w${i % 15}`)];
    const p = await profileCsv('samples.csv', lines.join('\n') + '\n');
    const v = col(p, 'v');
    expect(v.sampleValues).toHaveLength(10);
    expect(v.sampleValues[0]).toBe('L'.repeat(200));
    expect(v.sampleValues.slice(1)).toEqual(['w0', 'w1', 'w2', 'w3', 'w4', 'w5', 'w6', 'w7', 'w8']);
    expect(v.distinctEstimate).toBe(16);
    expect(v.topValues[0]).toBe('w0');
    expect(v.topValues).toHaveLength(16);
  });

  it('builds the MinHash over normalised distinct values', async () => {
    const p = await profileCsv('mh.csv', 'name\nAlice\n alice \nBOB\nbob\n\n');
    const expected = new MinHash();
    for (const v of ['Alice', 'BOB']) expected.add(cellKey(v)!);
    const c = col(p, 'name');
    expect(c.minhash).toEqual(expected.toArray());
    expect(c.minhash).toHaveLength(128);
    expect(c.distinctEstimate).toBe(2);
    const empty = await profileCsv('mh-empty.csv', 'a,b\n1,\n2,\n');
    expect(col(empty, 'b').minhash.every((x) => x === EMPTY_SLOT)).toBe(true);
  });

  it('sniffs semicolon and tab delimiters', async () => {
    const semi = await profileCsv('semi.csv', 'id;label;score\n1;a;0,5\n2;b;1,5\n3;c;2,0\n');
    expect(semi.columns.map((c) => c.name)).toEqual(['id', 'label', 'score']);
    expect(col(semi, 'label').sampleValues).toEqual(['a', 'b', 'c']);
    const tab = await profileCsv('tabbed.tsv', 'id\tcity name\n1\tNew York\n2\tSan Jose\n');
    expect(tab.columns.map((c) => c.name)).toEqual(['id', 'city name']);
    expect(col(tab, 'city name').sampleValues).toEqual(['New York', 'San Jose']);
    const txt = await profileCsv('pipes.txt', 'a|b\n1|x\n2|y\n');
    expect(txt.columns.map((c) => c.name)).toEqual(['a', 'b']);
  });

  it('detects whether the first line is a header', async () => {
    const withHeader = await profileCsv('hdr.csv', 'name,age\nann,31\nbob,42\n');
    expect(withHeader.columns.map((c) => c.name)).toEqual(['name', 'age']);
    expect(withHeader.rowCount).toBe(2);
    const noHeader = await profileCsv('nohdr.csv', '1,ann,31\n2,bob,42\n3,cy,53\n');
    expect(noHeader.columns.map((c) => c.name)).toEqual(['column_0', 'column_1', 'column_2']);
    expect(noHeader.rowCount).toBe(3);
    expect(noHeader.csv?.header).toBe(false);
  });

  it('disambiguates duplicate header names and names blank ones column_N', async () => {
    const p = await profileCsv('dups.csv', 'id,name,,name,"",column7\n1,x,2,y,3,4\n');
    expect(p.columns.map((c) => c.name)).toEqual(['id', 'name', 'column_2', 'name_1', 'column_4', 'column7']);
    expect(p.sourceExpression).toContain("names=['id', 'name', 'column_2', 'name_1', 'column_4', 'column7']");
  });

  it('profiles the first sampleRows rows but counts every row', async () => {
    const rows = Array.from({ length: 5000 }, (_, i) => `${i},${i % 7}`);
    const p = await profileCsv('long.csv', `id,mod\n${rows.join('\n')}\n`, { sampleRows: 1000 });
    expect(p.rowCount).toBe(5000);
    expect(p.profiledRows).toBe(1000);
    expect(col(p, 'id').numericMax).toBe(999); // statistics: first 1000 rows only
    const idDistinct = col(p, 'id').distinctEstimate; // whole column, HyperLogLog in SQL
    expect(Math.abs(idDistinct - 5000) / 5000).toBeLessThan(0.05);
    expect(col(p, 'mod').distinctEstimate).toBe(7);
    expect(col(p, 'mod').uniqueness).toBeCloseTo(7 / 1000);
  });
});
