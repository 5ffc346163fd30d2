/**
 * Ingest benchmark for lakehouse sources, each into a fresh PGlite catalog (temp dir) through
 * the real `ingestLake`:
 *
 * 1. A hive-partitioned Parquet folder (`orders/year=…/month=…/*.parquet`, 24 partitions,
 *    1.2M rows by default) that DuckDB writes into a temp dir: first ingest, an unchanged
 *    re-ingest (fingerprints only), and the incremental re-ingest after one new partition file.
 * 2. The Iceberg corpus at ../shared/lakehouse/duckdb-iceberg/data/persistent (pyiceberg,
 *    Spark and BigQuery tables; `bad_data/` and the other deliberately broken tables fail per
 *    table, which is counted, not hidden).
 *
 * Prints the result and writes docs/bench/ingest-lakehouse.json (with a `summary` array) and
 * the `bench:ingest-lakehouse` section of docs/BENCHMARKS.md.
 *
 *   npm run bench:ingest:lakehouse            # = npx tsx bench/ingest-lakehouse.ts
 *   npx tsx bench/ingest-lakehouse.ts [--rows N] [--skip-iceberg] [--no-write]
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { catalogCounts, openCatalog } from '../src/catalog/index.js';
import { intOption } from '../src/cli/options.js';
import { createEmbedder, embedderConfigFromEnv } from '../src/embed/index.js';
import { ingestLake, type IngestSummary } from '../src/ingest/index.js';
import { closeDuckDB, sqlString, withDuckDB } from '../src/lake/index.js';
import { gitCommit, machineInfo } from '../src/bench/machine.js';
import { markdownTable, replaceMarkedSection } from '../src/bench/markdown.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const write = !args.includes('--no-write');
const skipIceberg = args.includes('--skip-iceberg');
const rowsArg = args.indexOf('--rows');
const ROWS = rowsArg >= 0 ? intOption('rows', { min: 1 })(args[rowsArg + 1] ?? '') : 1_200_000;
const ICEBERG = path.resolve(repo, '../shared/lakehouse/duckdb-iceberg/data/persistent');
const NEW_PARTITION_ROWS = 50_000;

interface Run {
  source: string;
  run: string;
  tables: number;
  tablesIngested: number;
  tablesSkipped: number;
  tablesFailed: number;
  rows: number;
  seconds: number;
  rowsPerSecond: number | null;
}

const loadAtStart = os.loadavg().map((x) => round(x, 2));
const work = await mkdtemp(path.join(os.tmpdir(), 'graft-bench-lakehouse-'));
const embedder = createEmbedder(embedderConfigFromEnv(process.env));
const summary: Run[] = [];
const errors: { source: string; path: string; message: string }[] = [];
let partitions = 0;
try {
  // 1. The partitioned folder.
  const lake = path.join(work, 'lake');
  const orders = path.join(lake, 'orders');
  await mkdir(lake);
  const built = performance.now();
  await withDuckDB(async (con) => {
    await con.run(
      `COPY (SELECT i AS order_id, (i * 7919) % 50000 AS customer_id,
                    ['laptop', 'phone', 'tablet', 'monitor', 'keyboard', 'mouse'][1 + i % 6] AS product,
                    1 + i % 9 AS quantity, round(((i * 37) % 100000) / 100.0, 2) AS amount,
                    DATE '2023-01-01' + CAST(i % 730 AS INTEGER) AS order_date,
                    year(DATE '2023-01-01' + CAST(i % 730 AS INTEGER)) AS year,
                    month(DATE '2023-01-01' + CAST(i % 730 AS INTEGER)) AS month
               FROM range(${ROWS}) t(i))
       TO ${sqlString(orders)} (FORMAT parquet, PARTITION_BY (year, month))`,
    );
    partitions = Number((await con.runAndReadAll(`SELECT count(*) FROM glob(${sqlString(`${orders}/*/*/*.parquet`)})`)).getRows()[0]![0]);
  });
  const buildSeconds = round((performance.now() - built) / 1000, 1);
  console.error(`built ${ROWS.toLocaleString('en')} rows in ${partitions} partition files (${buildSeconds} s)`);

  const dataDir = path.join(work, 'catalog-partitioned');
  const db = await openCatalog({ dataDir });
  try {
    summary.push(await timed('partitioned folder', 'first ingest', () => ingestLake(db, lake, { embedder })));
    summary.push(await timed('partitioned folder', 'unchanged re-ingest', () => ingestLake(db, lake, { embedder })));
    const part = path.join(orders, 'year=2025', 'month=1');
    await mkdir(part, { recursive: true });
    await withDuckDB((con) =>
      con.run(
        `COPY (SELECT ${ROWS} + i AS order_id, i % 50000 AS customer_id, 'phone' AS product, 1 AS quantity, 9.99 AS amount,
                      DATE '2025-01-01' + CAST(i % 31 AS INTEGER) AS order_date FROM range(${NEW_PARTITION_ROWS}) t(i))
         TO ${sqlString(path.join(part, 'part-0.parquet'))} (FORMAT parquet)`,
      ),
    );
    summary.push(await timed('partitioned folder', `re-ingest after one new partition file (+${NEW_PARTITION_ROWS.toLocaleString('en')} rows)`, () => ingestLake(db, lake, { embedder })));
  } finally {
    await db.close();
  }

  // 2. The Iceberg corpus.
  if (!skipIceberg && existsSync(ICEBERG)) {
    const iceDb = await openCatalog({ dataDir: path.join(work, 'catalog-iceberg') });
    try {
      summary.push(await timed('iceberg corpus', 'first ingest', () => ingestLake(iceDb, ICEBERG, { embedder })));
      const counts = await catalogCounts(iceDb);
      console.error(`iceberg corpus: ${counts.tables} tables stored`);
    } finally {
      await iceDb.close();
    }
  } else if (!skipIceberg) {
    console.error(`Iceberg corpus not found at ${ICEBERG}: skipped`);
  }

  const result = {
    benchmark: 'ingest-lakehouse',
    embedder: embedder.id,
    catalog: 'pglite (temp dir)',
    partitionedFolder: { rows: ROWS, partitionFiles: partitions, keys: ['year', 'month'], buildSeconds },
    icebergCorpus: skipIceberg ? null : path.relative(repo, ICEBERG),
    summary,
    errors,
    machine: machineInfo(),
    loadAverageAtStart: loadAtStart,
    peakRssMiB: round(process.resourceUsage().maxRSS / 1024, 0),
    commit: gitCommit(repo),
    measuredAt: new Date().toISOString(),
    command: 'npm run bench:ingest:lakehouse   # npx tsx bench/ingest-lakehouse.ts',
  };
  console.log(JSON.stringify(result, null, 2));
  if (write) {
    const jsonFile = path.join(repo, 'docs/bench/ingest-lakehouse.json');
    mkdirSync(path.dirname(jsonFile), { recursive: true });
    writeFileSync(jsonFile, `${JSON.stringify(result, null, 2)}\n`);
    replaceMarkedSection(path.join(repo, 'docs/BENCHMARKS.md'), 'ingest-lakehouse', markdown(result));
    console.error(`wrote ${path.relative(repo, jsonFile)} and docs/BENCHMARKS.md (bench:ingest-lakehouse)`);
  }
} finally {
  await embedder.close?.();
  await closeDuckDB();
  await rm(work, { recursive: true, force: true });
}

async function timed(source: string, run: string, ingest: () => Promise<IngestSummary>): Promise<Run> {
  const t0 = performance.now();
  const s = await ingest();
  const seconds = (performance.now() - t0) / 1000;
  for (const e of s.errors) errors.push({ source, path: e.path, message: e.message.slice(0, 300) });
  const r: Run = {
    source,
    run,
    tables: s.tablesIngested + s.tablesSkipped + s.tablesFailed,
    tablesIngested: s.tablesIngested,
    tablesSkipped: s.tablesSkipped,
    tablesFailed: s.tablesFailed,
    rows: s.rowsProfiled,
    seconds: round(seconds, 2),
    rowsPerSecond: s.rowsProfiled > 0 ? Math.round(s.rowsProfiled / seconds) : null,
  };
  console.error(`${source}, ${run}: ${r.tablesIngested} ingested, ${r.tablesSkipped} skipped, ${r.tablesFailed} failed, ${r.rows.toLocaleString('en')} rows, ${r.seconds} s`);
  return r;
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

function markdown(r: {
  embedder: string; partitionedFolder: { rows: number; partitionFiles: number; buildSeconds: number }; summary: Run[];
  machine: ReturnType<typeof machineInfo>; loadAverageAtStart: number[]; peakRssMiB: number; commit: string; measuredAt: string; command: string;
}): string {
  return [
    '## Ingest: a hive-partitioned Parquet folder and the Iceberg corpus, each into a fresh PGlite catalog',
    '',
    `Partitioned folder: ${r.partitionedFolder.rows.toLocaleString('en')} rows in ${r.partitionedFolder.partitionFiles} files under ` +
      '`orders/year=…/month=…/` (written by DuckDB, not timed), one catalog table. Iceberg: every table under ' +
      '`../shared/lakehouse/duckdb-iceberg/data/persistent`; its deliberately broken tables fail one by one (counted).',
    '',
    markdownTable(
      ['source', 'run', 'tables', 'ingested', 'skipped', 'failed', 'rows', 'seconds', 'rows/s'],
      r.summary.map((s) => [s.source, s.run, s.tables, s.tablesIngested, s.tablesSkipped, s.tablesFailed, s.rows.toLocaleString('en'), s.seconds, s.rowsPerSecond === null ? '–' : s.rowsPerSecond.toLocaleString('en')]),
    ),
    '',
    `Rows are exact counts of the ingested tables; statistics are sampled (first 50,000 rows per table plus one full-scan ` +
      `distinct-count pass). Embedder \`${r.embedder}\`, peak RSS ${r.peakRssMiB} MiB.`,
    '',
    `Machine: ${r.machine.cpu}, ${r.machine.cores} cores, ${r.machine.memoryGiB} GiB, ${r.machine.os}, node ${r.machine.node}. ` +
      `Load average at start ${r.loadAverageAtStart.join(' / ')} (other work on the machine skews the figures). ` +
      `Commit \`${r.commit}\`, measured ${r.measuredAt}.`,
    '',
    `Command: \`${r.command}\` (raw figures and per-table errors: docs/bench/ingest-lakehouse.json).`,
  ].join('\n');
}
