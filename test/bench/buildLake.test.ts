import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBenchLake, drawShardCuts, lakeTableName, type BuildBenchLakeResult } from '../../src/bench/buildLake.js';
import { mulberry32 } from '../../src/util/prng.js';
import { SMALL_DBS, SPIDER_DBS, spiderAvailable, writeQuestionsFor } from './spiderFixture.js';

describe('shard draws', () => {
  it('never splits small tables and cuts inside the table', () => {
    const rand = mulberry32(7);
    let split = 0;
    for (let i = 0; i < 2000; i++) {
      const n = 1 + (i % 40);
      const cuts = drawShardCuts(rand, n);
      if (n < 8) expect(cuts).toEqual([]);
      if (cuts.length > 0) split++;
      expect(cuts.length).toBeLessThanOrEqual(2);
      expect([...cuts].sort((a, b) => a - b)).toEqual(cuts);
      expect(new Set(cuts).size).toBe(cuts.length);
      for (const c of cuts) expect(c >= 1 && c <= n - 1).toBe(true);
    }
    // ~0.3 of the 1650 eligible draws
    expect(split / 1650).toBeGreaterThan(0.25);
    expect(split / 1650).toBeLessThan(0.35);
  });

  it('names shards without database or shard number', () => {
    const a = lakeTableName('concert_singer', 'singer', 0);
    const b = lakeTableName('singer', 'singer', 0);
    expect(a).toMatch(/^singer_[0-9a-f]{8}$/);
    expect(a).not.toBe(b);
    expect(lakeTableName('concert_singer', 'singer', 1)).not.toBe(a);
  });
});

async function fileHashes(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of (await readdir(dir)).sort()) out[f] = createHash('sha256').update(await readFile(path.join(dir, f))).digest('hex');
  return out;
}

describe.skipIf(!spiderAvailable)('buildBenchLake on three Spider databases', () => {
  let tmp: string;
  let first: BuildBenchLakeResult;
  let second: BuildBenchLakeResult;
  let questions: number;

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'graft-bench-lake-'));
    const qfile = path.join(tmp, 'questions.json');
    questions = await writeQuestionsFor(SMALL_DBS, qfile);
    first = await buildBenchLake({ dbsDir: SPIDER_DBS, questionsFile: qfile, outDir: path.join(tmp, 'a'), seed: 7, onlyDbs: SMALL_DBS });
    second = await buildBenchLake({ dbsDir: SPIDER_DBS, questionsFile: qfile, outDir: path.join(tmp, 'b'), seed: 7, onlyDbs: SMALL_DBS });
  });
  afterAll(async () => {
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('is deterministic: same manifest, gold and file bytes for seed 7', async () => {
    expect(second.manifest).toEqual(first.manifest);
    expect(second.gold).toEqual(first.gold);
    const a = await fileHashes(path.join(tmp, 'a'));
    const b = await fileHashes(path.join(tmp, 'b'));
    expect(Object.keys(a).length).toBe(first.manifest.tables.length + 2);
    expect(b).toEqual(a);
  });

  it('pools every table, flat, with counts that add up', () => {
    const c = first.manifest.counts;
    expect(c.databases).toBe(3);
    expect(c.baseTables).toBe(9);
    expect(c.lakeTables).toBe(c.baseTables - c.splitTables + c.shards);
    expect(first.manifest.tables.reduce((s, t) => s + t.rows, 0)).toBe(c.rows);
    expect(c.questionsUsed).toBe(questions);
    expect(c.questionsSkipped).toBe(0);
    for (const t of first.manifest.tables) {
      expect(t.file).toBe(`${t.name}.parquet`);
      expect(t.name).toMatch(new RegExp(`^${t.baseTable}_[0-9a-f]{8}$`)); // no database name, no shard number
    }
  });

  it('shards concatenate back to the SQLite table, rows in storage order, types kept', async () => {
    const split = first.manifest.tables.filter((t) => t.shardOf > 1);
    const bases = [...new Set(split.map((t) => `${t.dbId}\u0000${t.baseTable}`))];
    const all = bases.length > 0 ? bases : ['concert_singer\u0000stadium'];
    const duck = await DuckDBInstance.create(':memory:');
    const con = await duck.connect();
    try {
      for (const key of all) {
        const [dbId, table] = key.split('\u0000');
        const shards = first.manifest.tables.filter((t) => t.dbId === dbId && t.baseTable === table).sort((x, y) => x.shard - y.shard);
        const lakeRows: unknown[][] = [];
        for (const s of shards) {
          const r = await con.runAndReadAll(`SELECT * FROM read_parquet('${path.join(tmp, 'a', s.file)}')`);
          expect(r.currentRowCount).toBe(s.rows);
          lakeRows.push(...r.getRows());
        }
        const sqlite = new Database(path.join(SPIDER_DBS, dbId, `${dbId}.sqlite`), { readonly: true });
        const orig = sqlite.prepare(`SELECT * FROM "${table}"`).raw(true).safeIntegers(true).all() as unknown[][];
        sqlite.close();
        expect(lakeRows.length).toBe(orig.length);
        // integers stay integers (bigint), text stays text
        expect(lakeRows.map((r) => r.map(String))).toEqual(orig.map((r) => r.map(String)));
        const kinds = (rows: unknown[][]) => rows.map((r) => r.map((v) => (v === null ? 'null' : typeof v)));
        expect(kinds(lakeRows)).toEqual(kinds(orig));
      }
    } finally {
      con.closeSync();
      duck.closeSync();
    }
  });

  it('derives gold from the SQL, expanded to every shard', () => {
    const q0 = first.gold.questions[0];
    expect(q0.question).toBe('How many singers do we have?');
    expect(q0.goldBase).toEqual(['singer']);
    expect(q0.goldLake).toEqual([lakeTableName('concert_singer', 'singer', 0)]);
    for (const q of first.gold.questions) {
      const expected = first.manifest.tables
        .filter((t) => t.dbId === q.dbId && q.goldBase.includes(t.baseTable))
        .map((t) => t.name)
        .sort();
      expect(q.goldLake).toEqual(expected);
    }
    expect(first.gold.questions.some((q) => q.goldBase.length >= 2)).toBe(true);
  });
});
