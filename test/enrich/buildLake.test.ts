import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEnrichLake, type EnrichLakeManifest } from '../../src/enrich/bench/buildLake.js';
import { ENRICH_DATASETS } from '../../src/enrich/bench/datasets.js';
import { closeDuckDB, sqlString, withDuckDB } from '../../src/lake/index.js';

const datasets = ENRICH_DATASETS.filter((d) => d.name === 'cars' || d.name === 'penguins');

async function hashes(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const n of (await readdir(dir)).filter((x) => x.endsWith('.parquet')).sort()) out[n] = createHash('sha256').update(await readFile(path.join(dir, n))).digest('hex');
  return out;
}

const rowsOf = (dir: string, lakeName: string) =>
  withDuckDB(async (con) => (await con.runAndReadAll(`SELECT * FROM read_parquet(${sqlString(path.join(dir, `${lakeName}.parquet`))})`)).getRowObjectsJson() as Record<string, unknown>[]);

describe('the enrichment lake (vega-datasets cut into shards, mixed into a Spider lake)', () => {
  let tmp: string;
  let spider: string;
  let a: EnrichLakeManifest;
  beforeAll(async () => {
    tmp = await mkdtemp(path.join(tmpdir(), 'graft-enrich-lake-'));
    spider = path.join(tmp, 'spider');
    await buildFakeSpider(spider);
    a = await buildEnrichLake({ spiderLake: spider, outDir: path.join(tmp, 'a'), seed: 7, datasets });
    await buildEnrichLake({ spiderLake: spider, outDir: path.join(tmp, 'b'), seed: 7, datasets });
    await buildEnrichLake({ spiderLake: spider, outDir: path.join(tmp, 'c'), seed: 8, datasets });
  }, 120_000);
  afterAll(async () => {
    await closeDuckDB();
    await rm(tmp, { recursive: true, force: true });
  });

  it('is deterministic by seed: same seed, byte-identical files; another seed, another cut', async () => {
    const ha = await hashes(path.join(tmp, 'a'));
    expect(await hashes(path.join(tmp, 'b'))).toEqual(ha);
    expect(await hashes(path.join(tmp, 'c'))).not.toEqual(ha);
    expect(await readFile(path.join(tmp, 'a', 'enrich-gold.json'), 'utf8')).toBe(await readFile(path.join(tmp, 'b', 'enrich-gold.json'), 'utf8'));
    // The Spider tables come along as distractors.
    expect(Object.keys(ha)).toContain('singer_00000000.parquet');
    expect(a.spiderTables).toBe(1);
  });

  it('cuts each table into a base, row shards and column shards that rebuild it; gold = the other shards', async () => {
    const dir = path.join(tmp, 'a');
    for (const d of a.datasets) {
      const base = d.shards.find((s) => s.kind === 'base')!;
      expect(d.base).toBe(base.lakeName);
      expect(base.columns.slice(0, 2)).toEqual([d.key, d.target]);
      expect(base.columns).toHaveLength(4);
      expect(d.gold.sort()).toEqual(d.shards.filter((s) => s.kind === 'rows' || s.kind === 'columns').map((s) => s.lakeName).sort());
      expect(d.gold).not.toContain(d.base);
      for (const c of d.copies) expect(d.gold).not.toContain(c);
      // Base + row shards: the rows, each key once; column shards: every key, the other attributes.
      const rowKeys: unknown[] = [];
      for (const s of d.shards.filter((x) => x.kind === 'base' || x.kind === 'rows')) {
        expect(s.columns).toEqual(base.columns);
        for (const r of await rowsOf(dir, s.lakeName)) rowKeys.push(r[d.key]);
      }
      expect(new Set(rowKeys).size).toBe(rowKeys.length);
      expect(rowKeys.length).toBe(d.sourceRows);
      const attributes = new Set(base.columns);
      for (const s of d.shards.filter((x) => x.kind === 'columns')) {
        const keys = (await rowsOf(dir, s.lakeName)).map((r) => r[d.key]);
        expect(new Set(keys)).toEqual(new Set(rowKeys));
        s.columns.slice(1).forEach((c) => attributes.add(c));
      }
      const spec = datasets.find((x) => x.name === d.name)!;
      expect(attributes.size).toBe(spec.name === 'cars' ? 9 : 8); // key + every column but the dropped ones
    }
  });

  it('a copy holds the same rows as the column shard it copies (in another order)', async () => {
    const dir = path.join(tmp, 'a');
    const withCopy = a.datasets.find((d) => d.copies.length > 0);
    expect(withCopy, 'seed 7 gives cars a copy').toBeDefined();
    const copy = withCopy!.shards.find((s) => s.kind === 'copy')!;
    const original = withCopy!.shards.find((s) => s.kind === 'columns' && s.columns.join() === copy.columns.join())!;
    const sorted = (rows: Record<string, unknown>[]) => rows.map((r) => JSON.stringify(r)).sort();
    const [x, y] = [await rowsOf(dir, copy.lakeName), await rowsOf(dir, original.lakeName)];
    expect(sorted(x)).toEqual(sorted(y));
    expect(x.map((r) => r[withCopy!.key])).not.toEqual(y.map((r) => r[withCopy!.key]));
  });

  it('refuses a folder that is not an enrichment lake, and a missing Spider lake', async () => {
    const other = path.join(tmp, 'other');
    await buildFakeSpider(other);
    await expect(buildEnrichLake({ spiderLake: spider, outDir: other, datasets })).rejects.toThrow(/refusing to overwrite/);
    await expect(buildEnrichLake({ spiderLake: path.join(tmp, 'none'), outDir: path.join(tmp, 'd'), datasets })).rejects.toThrow(/bench:build:spider/);
  });
});

/** A one-table stand-in for the Spider bench lake (the real one needs ../shared). */
async function buildFakeSpider(dir: string): Promise<void> {
  await import('node:fs/promises').then((fs) => fs.mkdir(dir, { recursive: true }));
  await writeFile(path.join(dir, 'manifest.json'), '{}\n');
  await withDuckDB((con) => con.run(`COPY (SELECT 1 AS singer_id, 'Ann' AS name) TO ${sqlString(path.join(dir, 'singer_00000000.parquet'))} (FORMAT parquet)`));
}
