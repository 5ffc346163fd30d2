/**
 * The Spider-lake benchmark protocol's lake builder: pools every table of every SQLite database
 * under `dbsDir` into ONE flat folder of Parquet files, splitting some tables row-wise into
 * shards, and writes the gold tables of every question (see docs/BENCHMARKS.md and
 * ../shared/bench-reference.md for the protocol and reference figures).
 *
 * What a retriever sees is only the file stem `<table>_<hash>`: no database name, no shard
 * number, no primary/foreign keys. The hash (of db_id, table and shard index) only keeps names
 * unique. Deterministic for a seed: same input and seed give byte-identical files.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import Database from 'better-sqlite3';
import { sqlIdent, sqlString } from '../lake/sql.js';
import { appendSqliteValue, duckTypeForValues, type SqliteDuckType } from '../lake/sqlite-duckdb.js';
import { BadInputError } from '../util/errors.js';
import { drawInt, mulberry32 } from '../util/prng.js';
import { sqlTables } from './sqlTables.js';

export { DEFAULT_SEED } from './defaults.js';
import { DEFAULT_SEED } from './defaults.js';
/** Tables with at least this many rows may be split. */
export const SPLIT_MIN_ROWS = 8;
/** Probability that an eligible table is split. */
export const SPLIT_PROBABILITY = 0.3;

export interface BuildBenchLakeOptions {
  /** Folder of databases: `<db>/<db>.sqlite` (Spider, BIRD layout) or `<db>.sqlite` directly inside. */
  dbsDir: string;
  /** Questions JSON: an array of `{ question, db_id, query | sql }` (Spider / BIRD dev.json). */
  questionsFile: string;
  outDir: string;
  seed?: number;
  /** Only these databases (tests build small lakes); default: every database found. */
  onlyDbs?: string[];
  onProgress?: (done: number, total: number, dbId: string) => void;
}

export interface LakeTableManifest {
  /** File stem: the table's name in the lake and in the catalog. */
  name: string;
  file: string;
  dbId: string;
  baseTable: string;
  /** 0-based shard index and the number of shards of the base table (1 = not split). */
  shard: number;
  shardOf: number;
  /** First row (0-based, storage order) of the base table in this shard. */
  rowStart: number;
  rows: number;
}

export interface BenchLakeManifest {
  protocol: 'graft-bench-lake-v1';
  seed: number;
  dbsDir: string;
  questionsFile: string;
  counts: {
    databases: number;
    baseTables: number;
    splitTables: number;
    /** Shards the split tables became (sum of their k). */
    shards: number;
    lakeTables: number;
    rows: number;
    visibleNames: number;
    namesInSeveralDatabases: number;
    questions: number;
    questionsUsed: number;
    questionsSkipped: number;
    questionsMultiTable: number;
    meanGoldBase: number;
    meanGoldLake: number;
  };
  tables: LakeTableManifest[];
}

export interface GoldQuestion {
  /** Position of the question in the questions file (0-based): aligns with decomposition files. */
  index: number;
  question: string;
  dbId: string;
  goldBase: string[];
  /** Lake table names (file stems), every shard of every gold base table. */
  goldLake: string[];
}

export interface BenchGold {
  protocol: 'graft-bench-lake-v1';
  seed: number;
  questionsFile: string;
  questions: GoldQuestion[];
  skipped: { count: number; byDb: Record<string, number>; noTables: number[] };
  /** SQL table references that matched no table of the question's database. */
  unknownReferences: { index: number; refs: string[] }[];
}

export interface BuildBenchLakeResult {
  manifest: BenchLakeManifest;
  gold: BenchGold;
  outDir: string;
  elapsedMs: number;
}

export interface QuestionRecord {
  question: string;
  db_id: string;
  query?: string;
  sql?: string;
  SQL?: string;
}

/** `<db>/<db>.sqlite` folders and loose `*.sqlite` files; db_id -> path, sorted by db_id. */
export async function findDatabases(dbsDir: string): Promise<Map<string, string>> {
  const root = path.resolve(dbsDir);
  if (!existsSync(root)) throw new BadInputError(`databases folder not found: ${root}`, { path: root });
  const found = new Map<string, string>();
  for (const name of (await readdir(root)).sort()) {
    if (name.startsWith('.')) continue;
    const p = path.join(root, name);
    const st = await stat(p);
    if (st.isDirectory()) {
      for (const ext of ['.sqlite', '.sqlite3', '.db']) {
        const f = path.join(p, name + ext);
        if (existsSync(f)) {
          found.set(name, f);
          break;
        }
      }
    } else if (/\.(sqlite3?|db)$/i.test(name)) {
      found.set(name.replace(/\.(sqlite3?|db)$/i, ''), p);
    }
  }
  return new Map([...found.entries()].sort((a, b) => cmp(a[0], b[0])));
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The lake name of one shard: visible table name + short hash of (db, table, shard). */
export function lakeTableName(dbId: string, table: string, shard: number): string {
  const hash = createHash('sha256').update(`${dbId}\u0000${table}\u0000${shard}`).digest('hex').slice(0, 8);
  const visible = table.replace(/[^\p{L}\p{N}_-]+/gu, '_');
  return `${visible}_${hash}`;
}

/** Cut points for a table of n rows, per the protocol's draw order (consumes the stream as documented). */
export function drawShardCuts(rand: () => number, n: number): number[] {
  if (n < SPLIT_MIN_ROWS) return [];
  const u = rand();
  if (u >= SPLIT_PROBABILITY) return [];
  const k = rand() < 0.5 ? 2 : 3;
  const cuts = new Set<number>();
  while (cuts.size < k - 1) cuts.add(drawInt(rand, 1, n - 1));
  return [...cuts].sort((a, b) => a - b);
}

interface SqliteColumn {
  name: string;
  declared: string;
}

/** Distinct, non-empty Parquet column names (DuckDB names are case-insensitive). */
function parquetColumnNames(cols: SqliteColumn[]): string[] {
  const seen = new Set<string>();
  return cols.map((c, i) => {
    let name = c.name.trim() || `column_${i}`;
    let k = 2;
    while (seen.has(name.toLowerCase())) name = `${c.name}_${k++}`;
    seen.add(name.toLowerCase());
    return name;
  });
}

async function writeShard(
  con: DuckDBConnection,
  file: string,
  names: string[],
  types: SqliteDuckType[],
  rows: unknown[][],
): Promise<void> {
  await con.run(`CREATE OR REPLACE TABLE shard (${names.map((n, i) => `${sqlIdent(n)} ${types[i]}`).join(', ')})`);
  const app = await con.createAppender('shard');
  try {
    for (const row of rows) {
      for (let c = 0; c < types.length; c++) appendSqliteValue(app, types[c]!, row[c]);
      app.endRow();
    }
    app.flushSync();
  } finally {
    app.closeSync();
  }
  await con.run(`COPY shard TO ${sqlString(file)} (FORMAT parquet)`);
  await con.run('DROP TABLE shard');
}

export function loadQuestions(raw: unknown, file: string): QuestionRecord[] {
  if (!Array.isArray(raw)) throw new BadInputError(`${file}: expected a JSON array of questions`, { path: file });
  raw.forEach((q, i) => {
    const r = q as Partial<QuestionRecord>;
    if (typeof r?.question !== 'string' || typeof r.db_id !== 'string' || typeof (r.query ?? r.sql ?? r.SQL) !== 'string') {
      throw new BadInputError(`${file}: question ${i} lacks question / db_id / query (or sql)`, { path: file, field: `[${i}]` });
    }
  });
  return raw as QuestionRecord[];
}

/** Removes what an earlier build wrote; refuses to clear a folder the builder does not own. */
async function prepareOutDir(outDir: string): Promise<void> {
  await mkdir(outDir, { recursive: true });
  const names = (await readdir(outDir)).filter((n) => !n.startsWith('.'));
  if (names.length === 0) return;
  if (!names.includes('manifest.json')) {
    throw new BadInputError(`output folder ${outDir} is not empty and holds no bench manifest.json: refusing to overwrite it`, {
      path: outDir,
    });
  }
  for (const n of names) {
    if (n.endsWith('.parquet') || n === 'manifest.json' || n === 'gold.json') await rm(path.join(outDir, n), { force: true });
  }
}

export async function buildBenchLake(opts: BuildBenchLakeOptions): Promise<BuildBenchLakeResult> {
  const started = performance.now();
  const seed = opts.seed ?? DEFAULT_SEED;
  const outDir = path.resolve(opts.outDir);
  const questionsFile = path.resolve(opts.questionsFile);
  let dbs = await findDatabases(opts.dbsDir);
  if (opts.onlyDbs) {
    const only = new Set(opts.onlyDbs);
    dbs = new Map([...dbs].filter(([id]) => only.has(id)));
  }
  const questions = loadQuestions(JSON.parse(await readFile(questionsFile, 'utf8')), questionsFile);
  await prepareOutDir(outDir);

  const rand = mulberry32(seed);
  const tables: LakeTableManifest[] = [];
  const tablesByDb = new Map<string, string[]>();
  const shardsOf = new Map<string, string[]>(); // `${db}\u0000${table}` -> lake names
  const usedNames = new Set<string>();
  let rowsTotal = 0;
  let splitTables = 0;
  let shardsOfSplit = 0;

  const duck = await DuckDBInstance.create(':memory:', { threads: '1' });
  const con = await duck.connect();
  try {
    let done = 0;
    for (const [dbId, file] of dbs) {
      const sqlite = new Database(file, { readonly: true, fileMustExist: true });
      try {
        const names = (
          sqlite
            .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'`)
            .all() as { name: string }[]
        )
          .map((r) => r.name)
          .sort((a, b) => cmp(a.toLowerCase(), b.toLowerCase()) || cmp(a, b));
        tablesByDb.set(dbId, names);
        for (const table of names) {
          const cols = (sqlite.prepare(`PRAGMA table_info(${sqlIdent(table)})`).all() as { name: string; type: string }[]).map(
            (c) => ({ name: c.name, declared: c.type ?? '' }),
          );
          const rows = sqlite
            .prepare(`SELECT * FROM ${sqlIdent(table)}`)
            .raw(true)
            .safeIntegers(true)
            .all() as unknown[][];
          const n = rows.length;
          const cuts = drawShardCuts(rand, n);
          const bounds = [0, ...cuts, n];
          const k = bounds.length - 1;
          if (k > 1) {
            splitTables++;
            shardsOfSplit += k;
          }
          const colNames = parquetColumnNames(cols);
          const types = cols.map((c, i) => duckTypeForValues(rows.map((r) => r[i]), c.declared));
          const lakeNames: string[] = [];
          for (let s = 0; s < k; s++) {
            const name = lakeTableName(dbId, table, s);
            if (usedNames.has(name.toLowerCase())) {
              throw new BadInputError(`lake name collision for ${dbId}.${table} shard ${s}: ${name}`, { path: file });
            }
            usedNames.add(name.toLowerCase());
            const fileName = `${name}.parquet`;
            await writeShard(con, path.join(outDir, fileName), colNames, types, rows.slice(bounds[s], bounds[s + 1]));
            tables.push({
              name, file: fileName, dbId, baseTable: table, shard: s, shardOf: k, rowStart: bounds[s], rows: bounds[s + 1] - bounds[s],
            });
            lakeNames.push(name);
          }
          shardsOf.set(`${dbId}\u0000${table}`, lakeNames);
          rowsTotal += n;
        }
      } finally {
        sqlite.close();
      }
      opts.onProgress?.(++done, dbs.size, dbId);
    }
  } finally {
    con.closeSync();
    duck.closeSync();
  }

  const gold = computeGold(questions, questionsFile, seed, tablesByDb, shardsOf);

  const nameDbs = new Map<string, Set<string>>();
  for (const t of tables) {
    const key = t.baseTable.toLowerCase();
    if (!nameDbs.has(key)) nameDbs.set(key, new Set());
    nameDbs.get(key)!.add(t.dbId);
  }
  const used = gold.questions;
  const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
  const manifest: BenchLakeManifest = {
    protocol: 'graft-bench-lake-v1',
    seed,
    dbsDir: path.resolve(opts.dbsDir),
    questionsFile,
    counts: {
      databases: dbs.size,
      baseTables: shardsOf.size,
      splitTables,
      shards: shardsOfSplit,
      lakeTables: tables.length,
      rows: rowsTotal,
      visibleNames: nameDbs.size,
      namesInSeveralDatabases: [...nameDbs.values()].filter((s) => s.size > 1).length,
      questions: questions.length,
      questionsUsed: used.length,
      questionsSkipped: gold.skipped.count,
      questionsMultiTable: used.filter((q) => q.goldBase.length >= 2).length,
      meanGoldBase: round(mean(used.map((q) => q.goldBase.length)), 4),
      meanGoldLake: round(mean(used.map((q) => q.goldLake.length)), 4),
    },
    tables,
  };
  await writeFile(path.join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await writeFile(path.join(outDir, 'gold.json'), `${JSON.stringify(gold, null, 2)}\n`);
  return { manifest, gold, outDir, elapsedMs: performance.now() - started };
}

/**
 * Gold tables of every question: the tables its SQL reads (`sqlTables`), each expanded to all
 * its lake shards. Questions whose database is not in the lake, or whose SQL names none of its
 * tables, are skipped and counted.
 */
export function computeGold(
  questions: QuestionRecord[],
  questionsFile: string,
  seed: number,
  tablesByDb: ReadonlyMap<string, string[]>,
  shardsOf: ReadonlyMap<string, string[]>,
): BenchGold {
  const gold: BenchGold = {
    protocol: 'graft-bench-lake-v1',
    seed,
    questionsFile,
    questions: [],
    skipped: { count: 0, byDb: {}, noTables: [] },
    unknownReferences: [],
  };
  questions.forEach((q, index) => {
    const dbTables = tablesByDb.get(q.db_id);
    if (!dbTables) {
      gold.skipped.count++;
      gold.skipped.byDb[q.db_id] = (gold.skipped.byDb[q.db_id] ?? 0) + 1;
      return;
    }
    const { tables: goldBase, unknown } = sqlTables(q.query ?? q.sql ?? q.SQL ?? '', dbTables);
    if (unknown.length > 0) gold.unknownReferences.push({ index, refs: unknown });
    if (goldBase.length === 0) {
      gold.skipped.count++;
      gold.skipped.noTables.push(index);
      return;
    }
    const goldLake = goldBase.flatMap((t) => shardsOf.get(`${q.db_id}\u0000${t}`) ?? []).sort();
    gold.questions.push({ index, question: q.question, dbId: q.db_id, goldBase, goldLake });
  });
  return gold;
}

/** Gold for a questions file over an already built lake (its manifest says which shards exist). */
export async function goldFromQuestions(questionsFile: string, manifest: BenchLakeManifest): Promise<BenchGold> {
  const file = path.resolve(questionsFile);
  const questions = loadQuestions(JSON.parse(await readFile(file, 'utf8')), file);
  const tablesByDb = new Map<string, string[]>();
  const shardsOf = new Map<string, string[]>();
  for (const t of manifest.tables) {
    const key = `${t.dbId}\u0000${t.baseTable}`;
    if (!shardsOf.has(key)) {
      shardsOf.set(key, []);
      if (!tablesByDb.has(t.dbId)) tablesByDb.set(t.dbId, []);
      tablesByDb.get(t.dbId)!.push(t.baseTable);
    }
    shardsOf.get(key)!.push(t.name);
  }
  return computeGold(questions, file, manifest.seed, tablesByDb, shardsOf);
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** Reads a gold.json written by `buildBenchLake`. */
export async function readBenchGold(file: string): Promise<BenchGold> {
  const g = JSON.parse(await readFile(file, 'utf8')) as BenchGold;
  if (!g || !Array.isArray(g.questions)) throw new BadInputError(`${file}: not a bench gold.json (no questions array)`, { path: file });
  return g;
}

export async function readBenchManifest(file: string): Promise<BenchLakeManifest> {
  const m = JSON.parse(await readFile(file, 'utf8')) as BenchLakeManifest;
  if (!m || !Array.isArray(m.tables)) throw new BadInputError(`${file}: not a bench manifest.json (no tables array)`, { path: file });
  return m;
}
