import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { DEFAULT_SEED, lakeTableName } from '../../bench/buildLake.js';
import { sqlIdent, sqlString } from '../../lake/index.js';
import { BadInputError } from '../../util/errors.js';
import { mulberry32, shuffle } from '../../util/prng.js';
import type { EnrichTask } from '../types.js';
import { ENRICH_DATASETS, snakeCase, type EnrichDatasetSpec } from './datasets.js';

/** Rows kept per source table (a seeded sample above it): what keeps the predictor's cross-validation in seconds. */
export const MAX_ROWS = 1500;
/** Share of the rows in the base shard; the rest go to one or two row shards. */
export const BASE_ROW_SHARE = 0.5;
/** Attributes the base shard keeps besides its key and target. */
export const BASE_ATTRIBUTES = 2;
/** Chance that a dataset also gets an exact copy of one column shard (not gold: it adds nothing). */
export const COPY_PROBABILITY = 0.5;

export type ShardKind = 'base' | 'rows' | 'columns' | 'copy';

export interface EnrichShard {
  lakeName: string;
  kind: ShardKind;
  rows: number;
  columns: string[];
}

export interface EnrichDatasetGold {
  name: string;
  task: EnrichTask;
  target: string;
  key: string;
  /** Lake name of the base shard (what `enrich` is asked about). */
  base: string;
  /** The other shards of the same table: the row and column shards (copies excluded). */
  gold: string[];
  copies: string[];
  shards: EnrichShard[];
  sourceRows: number;
  source: string;
  licence: string;
}

export interface EnrichLakeManifest {
  seed: number;
  spiderLake: string;
  spiderTables: number;
  datasets: EnrichDatasetGold[];
}

export interface BuildEnrichLakeOptions {
  /** The Spider bench lake (`npm run bench:build:spider`): its tables are the distractors. */
  spiderLake: string;
  outDir: string;
  seed?: number;
  datasets?: EnrichDatasetSpec[];
  /** Folder of the vega-datasets files (default: the installed package's data/). */
  dataDir?: string;
}

export const ENRICH_GOLD_FILE = 'enrich-gold.json';

export function vegaDataDir(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('vega-datasets/package.json')), 'data');
}

async function prepareOutDir(outDir: string): Promise<void> {
  await mkdir(outDir, { recursive: true });
  const names = (await readdir(outDir)).filter((n) => !n.startsWith('.'));
  if (names.length === 0) return;
  if (!names.includes(ENRICH_GOLD_FILE)) {
    throw new BadInputError(`output folder ${outDir} is not empty and holds no ${ENRICH_GOLD_FILE}: refusing to overwrite it`, { path: outDir });
  }
  for (const n of names) if (n.endsWith('.parquet') || n === ENRICH_GOLD_FILE) await rm(path.join(outDir, n), { force: true });
}

/**
 * The enrichment lake: every table of the Spider bench lake (distractors) plus, for each source
 * dataset, the paper's cut of one table into a base shard (key, target, two attributes, half the
 * rows), one or two row shards (the same columns, the other rows) and column shards (the key and
 * the other attributes, every row), sometimes plus an exact copy of a column shard. Draw order
 * (mulberry32, `seed`): per dataset in list order, the row sample (above MAX_ROWS), the key
 * permutation, the attribute order, the row order, the number of row shards, whether a copy is
 * made, and the row order of each column shard. Same seed and inputs -> byte-identical files.
 */
export async function buildEnrichLake(opts: BuildEnrichLakeOptions): Promise<EnrichLakeManifest> {
  const seed = opts.seed ?? DEFAULT_SEED;
  const outDir = path.resolve(opts.outDir);
  const spiderLake = path.resolve(opts.spiderLake);
  if (!existsSync(path.join(spiderLake, 'manifest.json'))) {
    throw new BadInputError(`${spiderLake} is not a bench lake (no manifest.json): run npm run bench:build:spider first`, { path: spiderLake });
  }
  await prepareOutDir(outDir);
  const spider = (await readdir(spiderLake)).filter((n) => n.endsWith('.parquet')).sort();
  for (const n of spider) await copyFile(path.join(spiderLake, n), path.join(outDir, n));

  const dataDir = opts.dataDir ?? vegaDataDir();
  const rand = mulberry32(seed);
  const duck = await DuckDBInstance.create(':memory:', { threads: '1' });
  const con = await duck.connect();
  const datasets: EnrichDatasetGold[] = [];
  try {
    for (const spec of opts.datasets ?? ENRICH_DATASETS) {
      datasets.push(await cutDataset(con, spec, path.join(dataDir, spec.file), outDir, rand, spider));
    }
  } finally {
    con.closeSync();
    duck.closeSync();
  }
  const manifest: EnrichLakeManifest = { seed, spiderLake, spiderTables: spider.length, datasets };
  await writeFile(path.join(outDir, ENRICH_GOLD_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

async function cutDataset(
  con: DuckDBConnection,
  spec: EnrichDatasetSpec,
  file: string,
  outDir: string,
  rand: () => number,
  taken: string[],
): Promise<EnrichDatasetGold> {
  if (!existsSync(file)) throw new BadInputError(`${file}: dataset ${spec.name} not found (is vega-datasets installed?)`, { path: file });
  const reader = file.endsWith('.json') ? `read_json_auto(${sqlString(file)})` : `read_csv_auto(${sqlString(file)}, header = true)`;
  const described = (await con.runAndReadAll(`DESCRIBE SELECT * FROM ${reader}`)).getRowObjects() as { column_name: string }[];
  const columns = described.map((c) => ({ raw: c.column_name, name: snakeCase(c.column_name) })).filter((c) => !spec.drop.includes(c.name));
  if (!columns.some((c) => c.name === spec.target)) throw new BadInputError(`${file}: no column ${spec.target} (have ${columns.map((c) => c.name).join(', ')})`, { field: 'target' });
  // File order, rows with a target only (a base row without one teaches nothing).
  await con.run(
    `CREATE OR REPLACE TABLE src AS SELECT row_number() OVER () AS __ord, ${columns.map((c) => `${sqlIdent(c.raw)} AS ${sqlIdent(c.name)}`).join(', ')} FROM ${reader}`,
  );
  await con.run(`DELETE FROM src WHERE ${sqlIdent(spec.target)} IS NULL`);
  const ords = ((await con.runAndReadAll('SELECT __ord FROM src ORDER BY __ord')).getRows() as [bigint][]).map((r) => Number(r[0]));
  const sourceRows = ords.length;
  const sample = ords.length > MAX_ROWS ? shuffle(ords, rand).slice(0, MAX_ROWS).sort((a, b) => a - b) : ords;
  const n = sample.length;
  const keys = shuffle(Array.from({ length: n }, (_, i) => i + 1), rand);
  const attributes = shuffle(columns.map((c) => c.name).filter((c) => c !== spec.target), rand);
  const order = shuffle(Array.from({ length: n }, (_, i) => i), rand);
  const twoRowShards = rand() < 0.5;
  const withCopy = rand() < COPY_PROBABILITY;

  const baseCols = [spec.key, spec.target, ...attributes.slice(0, BASE_ATTRIBUTES)];
  const rest = attributes.slice(BASE_ATTRIBUTES);
  const half = Math.ceil(rest.length / 2);
  const columnGroups = rest.length >= 2 ? [rest.slice(0, half), rest.slice(half)] : [rest];
  const baseRows = Math.round(n * BASE_ROW_SHARE);
  const rowParts = twoRowShards ? [order.slice(baseRows, baseRows + Math.ceil((n - baseRows) / 2)), order.slice(baseRows + Math.ceil((n - baseRows) / 2))] : [order.slice(baseRows)];

  // The key of sample row i is keys[i]; shards list sample rows in the order they are written.
  await con.run('CREATE OR REPLACE TABLE keyed (__pos INTEGER, __ord BIGINT, __key BIGINT)');
  const shards: EnrichShard[] = [];
  let shardNo = 0;
  const write = async (kind: ShardKind, rows: number[], cols: string[]) => {
    const lakeName = lakeTableName(`vega:${spec.name}`, spec.name, shardNo++);
    if (taken.includes(`${lakeName}.parquet`)) throw new Error(`lake name ${lakeName} collides with a Spider table`);
    await con.run('DELETE FROM keyed');
    for (let i = 0; i < rows.length; i += 500) {
      const chunk = rows.slice(i, i + 500).map((r, j) => `(${i + j}, ${sample[r]}, ${keys[r]})`);
      await con.run(`INSERT INTO keyed VALUES ${chunk.join(', ')}`);
    }
    const select = cols.map((c) => (c === spec.key ? `k.__key AS ${sqlIdent(c)}` : `s.${sqlIdent(c)}`)).join(', ');
    const target = path.join(outDir, `${lakeName}.parquet`);
    await con.run(`COPY (SELECT ${select} FROM keyed k JOIN src s ON s.__ord = k.__ord ORDER BY k.__pos) TO ${sqlString(target)} (FORMAT parquet)`);
    shards.push({ lakeName, kind, rows: rows.length, columns: cols });
  };
  await write('base', order.slice(0, baseRows), baseCols);
  for (const part of rowParts) if (part.length > 0) await write('rows', part, baseCols);
  const columnOrders = columnGroups.map(() => shuffle(order, rand));
  for (let g = 0; g < columnGroups.length; g++) if (columnGroups[g]!.length > 0) await write('columns', columnOrders[g]!, [spec.key, ...columnGroups[g]!]);
  if (withCopy && columnGroups[0]!.length > 0) await write('copy', shuffle(order, rand), [spec.key, ...columnGroups[0]!]);
  return {
    name: spec.name,
    task: spec.task,
    target: spec.target,
    key: spec.key,
    base: shards[0]!.lakeName,
    gold: shards.filter((s) => s.kind === 'rows' || s.kind === 'columns').map((s) => s.lakeName),
    copies: shards.filter((s) => s.kind === 'copy').map((s) => s.lakeName),
    shards,
    sourceRows,
    source: spec.source,
    licence: spec.licence,
  };
}

export async function readEnrichManifest(lakeDir: string): Promise<EnrichLakeManifest> {
  const file = path.join(lakeDir, ENRICH_GOLD_FILE);
  if (!existsSync(file)) throw new BadInputError(`${file} not found: build the enrichment lake first (graft bench enrich --build)`, { path: file });
  return JSON.parse(await readFile(file, 'utf8')) as EnrichLakeManifest;
}
