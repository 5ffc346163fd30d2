/**
 * Profiling of CSV and Parquet files, and of the tables of DuckDB database files, through DuckDB.
 *
 * What is exact and what is sampled:
 * - `rowCount` is exact: when the sample query returns fewer than `sampleRows` rows it read
 *   the whole file; otherwise a full scan computes `count(*)`.
 * - Column statistics come from the FIRST `sampleRows` rows in file order (DuckDB preserves
 *   insertion order), not a random sample: reproducible, and cheap because the scan stops
 *   early.
 * - `distinctEstimate` is exact over the sample (HyperLogLog past 100k distinct values); when
 *   the file is longer than the sample, the full scan estimates each whole column with a
 *   p=14 HyperLogLog computed in SQL (see `wholeTableSql`) and the larger of the two is kept.
 * - `fingerprint` is the sha256 of the file bytes, streamed.
 */
import { stat } from 'node:fs/promises';
import { DuckDBTypeId, type DuckDBConnection, type DuckDBType } from '@duckdb/node-api';
import { hllEstimate } from '../sketch/hll.js';
import { LakeReadError } from '../util/errors.js';
import { ColumnAccumulator } from './column-stats.js';
import {
  bomEncoding,
  csvReadExpression,
  decodeHead,
  DUCKDB_AUTO_NAME,
  renameGeneratedColumns,
  splitCsvLine,
  CSV_SNIFF_SAMPLE_ROWS,
  quickCsvOptions,
} from './csv.js';
import { attachDuckdbFile, duckdbTableExpression, duckdbTableUri, fingerprintDuckdbTable } from './duckdb-file.js';
import { duckdbMessage, withDuckDB } from './duckdb.js';
import { hiveFingerprint, hiveReadExpression, hiveTableName, loadHiveFolder } from './hive.js';
import { scanFile } from './fingerprint.js';
import { effectiveSampleRows, type ProfileOptions, resolveProfileOptions } from './options.js';
import { rememberCsvOptions } from './source.js';
import { sqlIdent, sqlString } from './sql.js';
import type { CsvReadOptions, LakeEntry, LogicalType, TableProfile } from './types.js';
import { duckdbCell } from './values.js';

/** DuckDB physical type -> logical type. */
export function duckdbLogicalType(type: DuckDBType): LogicalType {
  switch (type.typeId) {
    case DuckDBTypeId.BOOLEAN:
      return 'boolean';
    case DuckDBTypeId.TINYINT:
    case DuckDBTypeId.SMALLINT:
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UTINYINT:
    case DuckDBTypeId.USMALLINT:
    case DuckDBTypeId.UINTEGER:
    case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.UHUGEINT:
      return 'integer';
    case DuckDBTypeId.FLOAT:
    case DuckDBTypeId.DOUBLE:
    case DuckDBTypeId.DECIMAL:
      return 'float';
    case DuckDBTypeId.VARCHAR:
    case DuckDBTypeId.ENUM:
    case DuckDBTypeId.UUID:
      return 'text';
    case DuckDBTypeId.DATE:
      return 'date';
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_S:
    case DuckDBTypeId.TIMESTAMP_MS:
    case DuckDBTypeId.TIMESTAMP_NS:
    case DuckDBTypeId.TIMESTAMP_TZ:
      return 'timestamp';
    default:
      return 'other';
  }
}

let rejectsCounter = 0;

/** HyperLogLog precision of the whole-table distinct counts computed in SQL (p = 14, ~0.8 %). */
const SQL_HLL_P = 14;
const SQL_HLL_M = 1 << SQL_HLL_P;
const SQL_HLL_MASK = `${(1n << BigInt(64 - SQL_HLL_P)) - 1n}::UBIGINT`;

/**
 * One full scan that counts rows and estimates every column's distinct values with a
 * HyperLogLog built in SQL: DuckDB's 64-bit `hash()` of each non-null value (text trimmed
 * and lower-cased, blanks as NULL, like `cellKey`), register = top 14 bits, rank =
 * leading zeros of the other 50 + 1. Only per-column register sums come back, and
 * `hllEstimate` (src/sketch/hll.ts) turns them into counts. DuckDB's own
 * approx_count_distinct was measured ~9 % off at 30k distinct values, too coarse for
 * containment estimates. Every column is projected, so CSV rejects cover all of them.
 */
function wholeTableSql(source: string, names: string[], types: DuckDBType[]): string {
  const hashes = names.map((n, i) => {
    const v = types[i].typeId === DuckDBTypeId.VARCHAR ? `nullif(lower(trim(${sqlIdent(n)})), '')` : sqlIdent(n);
    return `CASE WHEN ${v} IS NULL THEN NULL ELSE hash(${v}) END`;
  });
  hashes.push('0::UBIGINT'); // sentinel column: its value count is the row count
  const w = `(h & ${SQL_HLL_MASK})`;
  return `WITH u AS (SELECT unnest(range(${hashes.length})) AS col, unnest([${hashes.join(', ')}]) AS h FROM ${source}),
regs AS (SELECT col, h >> ${64 - SQL_HLL_P} AS reg, count(*) AS cnt,
         max(CASE WHEN ${w} = 0 THEN ${64 - SQL_HLL_P + 1} ELSE ${64 - SQL_HLL_P} - floor(log2(${w}::DOUBLE))::INTEGER END) AS r
         FROM u WHERE h IS NOT NULL GROUP BY ALL)
SELECT col, count(*) AS nonzero, sum(pow(2.0, -r)) AS s, sum(cnt) AS n FROM regs GROUP BY col`;
}

async function wholeTableStats(
  con: DuckDBConnection,
  source: string,
  names: string[],
  types: DuckDBType[],
): Promise<{ rowCount: number; distinct: number[] }> {
  const rows = (await con.runAndReadAll(wholeTableSql(source, names, types))).getRowObjects();
  const distinct = names.map(() => 0);
  let rowCount = 0;
  for (const r of rows) {
    const col = Number(r.col);
    if (col === names.length) {
      rowCount = Number(r.n);
      continue;
    }
    const nonzero = Number(r.nonzero);
    const zeros = SQL_HLL_M - nonzero;
    distinct[col] = Math.round(hllEstimate(SQL_HLL_M, Number(r.s) + zeros, zeros));
  }
  return { rowCount, distinct };
}

interface RejectSummary {
  lines: number;
  byType: Map<string, number>;
  /** Columns with CAST errors -> first line seen. */
  castColumns: Map<string, number>;
}

async function readRejects(con: DuckDBConnection, table: string): Promise<RejectSummary> {
  const summary: RejectSummary = { lines: 0, byType: new Map(), castColumns: new Map() };
  let rows: Record<string, unknown>[];
  try {
    rows = (
      await con.runAndReadAll(
        `SELECT line, column_name, error_type::VARCHAR AS error_type FROM ${sqlIdent(table)} ORDER BY line`,
      )
    ).getRowObjects();
  } catch {
    return summary; // the scan recorded no rejects table (e.g. it never reached a data line)
  }
  const lines = new Set<string>();
  const perType = new Map<string, Set<string>>();
  for (const r of rows) {
    const line = String(r.line);
    const type = String(r.error_type);
    lines.add(line);
    if (!perType.has(type)) perType.set(type, new Set());
    perType.get(type)!.add(line);
    if (type === 'CAST' && typeof r.column_name === 'string' && !summary.castColumns.has(r.column_name)) {
      summary.castColumns.set(r.column_name, Number(r.line));
    }
  }
  summary.lines = lines.size;
  for (const [t, s] of perType) summary.byType.set(t, s.size);
  return summary;
}

/** Sniffed dialect facts needed to find blank header cells. */
async function headerFields(
  con: DuckDBConnection,
  path: string,
  csv: CsvReadOptions,
  head: Buffer,
): Promise<{ hasHeader: boolean; fields: string[] | null }> {
  const enc = csv.encoding && csv.encoding !== 'utf-8' ? `, encoding=${sqlString(csv.encoding)}` : '';
  const r = (
    await con.runAndReadAll(
      `SELECT Delimiter AS d, Quote AS q, HasHeader AS h, SkipRows AS s FROM sniff_csv(${sqlString(path)}, sample_size=${CSV_SNIFF_SAMPLE_ROWS}, ignore_errors=true${enc})`,
    )
  ).getRowObjects()[0];
  if (!r || r.h !== true) return { hasHeader: false, fields: null };
  const lines = decodeHead(head, csv.encoding).split(/\r\n|\n|\r/);
  const line = lines[Number(r.s ?? 0)];
  if (line === undefined) return { hasHeader: true, fields: null };
  const quote = typeof r.q === 'string' && r.q !== '(empty)' ? r.q : null;
  return { hasHeader: true, fields: splitCsvLine(line, String(r.d), quote) };
}

function fail(entry: LakeEntry, err: unknown): never {
  if (err instanceof LakeReadError) throw err;
  if (entry.format === 'duckdb') throw new LakeReadError(duckdbTableUri(entry.path, entry.duckdbTable!), `cannot read DuckDB table: ${duckdbMessage(err)}`);
  const what = entry.hive
    ? `cannot read partitioned ${entry.format === 'parquet' ? 'Parquet' : 'CSV'} folder`
    : entry.format === 'parquet' ? 'not a readable Parquet file' : entry.format === 'iceberg' ? 'cannot read Iceberg table' : 'cannot read CSV';
  throw new LakeReadError(entry.path, `${what}: ${duckdbMessage(err)}`);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * A table DuckDB reads through a ready-made expression rather than one file (Iceberg: the
 * scan over its live data files minus deletes). Profiling is the same as for a file.
 */
export interface DuckDBTableSource {
  name: string;
  expression: string;
  fingerprint: string;
}

export async function profileWithDuckDB(
  entry: LakeEntry,
  options: ProfileOptions = {},
  source?: DuckDBTableSource,
): Promise<TableProfile> {
  const { sampleRows, maxColumns } = resolveProfileOptions(options);
  const isCsv = entry.format === 'csv';
  // A table of a DuckDB database file, or one read through a ready-made expression (Iceberg):
  // no file of its own to stat or hash.
  const dbTable = entry.format === 'duckdb';
  // A partitioned folder: many files read as one table, fingerprinted by its file list.
  const hive = !source && entry.hive ? loadHiveFolder(entry) : undefined;
  let info;
  let scan: Awaited<ReturnType<typeof scanFile>> | undefined;
  let fingerprint: string;
  if (source) {
    fingerprint = source.fingerprint;
  } else if (hive) {
    fingerprint = hiveFingerprint(hive);
  } else if (dbTable) {
    await attachDuckdbFile(entry.path);
    fingerprint = await fingerprintDuckdbTable(entry);
  } else {
    try {
      info = await stat(entry.path);
    } catch (err) {
      throw new LakeReadError(entry.path, `cannot read file: ${(err as Error).message}`);
    }
    if (!info.isFile()) throw new LakeReadError(entry.path, 'not a regular file');
    if (info.size === 0) throw new LakeReadError(entry.path, 'empty file (0 bytes)');
    scan = await scanFile(entry.path, { checkUtf8: isCsv });
    fingerprint = scan.fingerprint;
  }
  const warnings: string[] = [];
  // Profiling re-derives the read options from the file; entry.csv is for later reads.
  const csv: CsvReadOptions = {};
  if (isCsv && scan) {
    if (scan.bytes === scan.head.length && scan.head.toString('latin1').trim() === '') {
      throw new LakeReadError(entry.path, 'file has no content (only whitespace)');
    }
    const bom = bomEncoding(scan.head);
    if (bom) csv.encoding = bom;
    else if (!scan.utf8) {
      csv.encoding = 'latin-1';
      warnings.push('file is not valid UTF-8; read as Latin-1 (ISO-8859-1)');
    }
  }
  if (isCsv && hive) {
    // The encoding of the first partition file (its first MiB) holds for the folder.
    Object.assign(csv, quickCsvOptions(hive.files[0].path));
    if (csv.encoding === 'latin-1') warnings.push(`${hive.files[0].rel} is not valid UTF-8; the folder is read as Latin-1 (ISO-8859-1)`);
  }
  const expression = (extra: string[] = []) =>
    source
      ? source.expression
      : dbTable
        ? duckdbTableExpression(entry.path, entry.duckdbTable!)
        : hive
          ? hiveReadExpression(hive, csv, extra)
          : isCsv
          ? csvReadExpression(entry.path, csv, extra)
          : `read_parquet(${sqlString(entry.path)})`;

  const profile = await withDuckDB(async (con) => {
    // 1. Schema (CSV: sniffing only, no data scan).
    let names: string[];
    let types: DuckDBType[];
    try {
      const r = await con.runAndReadAll(`SELECT * FROM ${expression()} LIMIT 0`);
      names = r.columnNames();
      types = r.columnTypes();
    } catch (err) {
      fail(entry, err);
    }
    if (names.length > maxColumns) {
      throw new LakeReadError(entry.path, `${source || hive ? 'table' : 'file'} has ${names.length} columns, more than the limit of ${maxColumns}`, {
        columns: names.length,
        maxColumns,
      });
    }
    if (isCsv && scan && names.some((n) => DUCKDB_AUTO_NAME.test(n))) {
      try {
        const { hasHeader, fields } = await headerFields(con, entry.path, csv, scan!.head);
        const renamed = renameGeneratedColumns(names, hasHeader ? fields : null);
        if (renamed) {
          csv.header = hasHeader;
          csv.names = renamed;
          names = renamed;
        }
      } catch (err) {
        fail(entry, err);
      }
    }

    // 2. Sample (+ full scan when the sample did not reach the end). A CSV column whose later
    //    values do not fit the sniffed type is re-read as VARCHAR once rather than losing rows.
    const sampleN = effectiveSampleRows(sampleRows, names.length);
    for (let attempt = 0; ; attempt++) {
      const rejects = `graft_rejects_${++rejectsCounter}`;
      const extra = isCsv ? ['store_rejects=true', `rejects_table=${sqlString(rejects)}`, `rejects_scan=${sqlString(`${rejects}_scan`)}`] : [];
      let columns: unknown[][];
      let rowCount: number;
      let approx: number[] | undefined;
      try {
        const sample = await con.runAndReadAll(`SELECT * FROM ${expression(extra)} LIMIT ${sampleN}`);
        columns = sample.getColumns();
        types = sample.columnTypes();
        names = sample.columnNames();
        rowCount = sample.currentRowCount;
      } catch (err) {
        fail(entry, err);
      }
      let rejectsTable = rejects;
      if (rowCount >= sampleN) {
        rejectsTable = `${rejects}_full`;
        const fullExtra = isCsv
          ? ['store_rejects=true', `rejects_table=${sqlString(rejectsTable)}`, `rejects_scan=${sqlString(`${rejectsTable}_scan`)}`]
          : [];
        try {
          ({ rowCount, distinct: approx } = await wholeTableStats(con, expression(fullExtra), names, types));
        } catch (err) {
          fail(entry, err);
        }
      }
      const rej = isCsv ? await readRejects(con, rejectsTable) : null;
      if (rej && rej.castColumns.size > 0 && attempt === 0) {
        csv.types = { ...csv.types };
        for (const [col, line] of rej.castColumns) {
          const idx = names.indexOf(col);
          const sniffed = idx >= 0 ? String(types[idx]) : 'its sniffed type';
          csv.types[col] = 'VARCHAR';
          warnings.push(`column ${JSON.stringify(col)} has values that are not ${sniffed} (first on line ${line}); read as text`);
        }
        continue;
      }
      if (rej && rej.lines > 0) {
        const detail = [...rej.byType].map(([t, n]) => `${n} ${t.toLowerCase()}`).join(', ');
        warnings.push(`${plural(rej.lines, 'malformed line')} skipped (${detail})`);
      }
      const profiledRows = columns[0]?.length ?? 0;
      if (rowCount === 0) {
        warnings.push(isCsv ? 'no data rows (header only); columns typed from the header alone' : dbTable || source || hive ? 'table has no rows' : 'file has no rows');
      }
      return {
        name: source?.name ?? (dbTable ? entry.duckdbTable!.table : hive ? hiveTableName(entry) : stem(entry.path)),
        uri: dbTable ? duckdbTableUri(entry.path, entry.duckdbTable!) : entry.path,
        format: entry.format,
        rowCount,
        profiledRows: Math.min(profiledRows, rowCount),
        fingerprint,
        columns: names.map((name, i) => {
          const acc = new ColumnAccumulator(name, i);
          const values = columns[i] ?? [];
          for (let r = 0; r < values.length; r++) acc.add(duckdbCell(values[r]));
          return acc.finish(duckdbLogicalType(types[i]), approx?.[i]);
        }),
        warnings,
        sourceExpression: expression(),
        ...(isCsv ? { csv: { ...csv } } : {}),
      } satisfies TableProfile;
    }
  });
  if (isCsv && info) rememberCsvOptions(entry.path, info.size, info.mtimeMs, csv);
  return profile;
}

/** File name without directory and (last) extension. */
export function stem(path: string): string {
  const base = path.split(/[\\/]/).pop() ?? path;
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}
