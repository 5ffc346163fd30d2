/**
 * `duckdbSourceExpression`: the DuckDB table expression that reads a lake entry, for
 * previews here and for the fusion planner's generated SQL.
 */
import { statSync } from 'node:fs';
import { csvReadExpression, quickCsvOptions } from './csv.js';
import { duckdbTableExpression } from './duckdb-file.js';
import { hiveReadExpression, scanHiveFolder } from './hive.js';
import { sqlString } from './sql.js';
import type { CsvReadOptions, LakeEntry } from './types.js';

/**
 * CSV read options that profiling settled on in this process, keyed by path and checked
 * against size + mtime so an edited file is not read with stale options.
 */
const profiledCsv = new Map<string, { size: number; mtimeMs: number; csv: CsvReadOptions }>();

export function rememberCsvOptions(path: string, size: number, mtimeMs: number, csv: CsvReadOptions): void {
  profiledCsv.set(path, { size, mtimeMs, csv: { ...csv } });
}

function cachedCsvOptions(path: string): CsvReadOptions | undefined {
  const hit = profiledCsv.get(path);
  if (!hit) return undefined;
  try {
    const st = statSync(path);
    if (st.size === hit.size && st.mtimeMs === hit.mtimeMs) return hit.csv;
  } catch {
    // gone: fall through
  }
  profiledCsv.delete(path);
  return undefined;
}

/**
 * The DuckDB table expression for an entry, with every literal SQL-escaped:
 * - Parquet: `read_parquet('<path>')`.
 * - Partitioned folder (`entry.hive`, or, when `entry.hive` is not known, a csv/parquet entry
 *   whose path is a folder, as the catalog's uri gives it): `read_parquet([<every data file>],
 *   hive_partitioning=true, union_by_name=true)` / `read_csv([...], <the CSV options>,
 *   hive_partitioning=true, ...)`, listing the folder now (hive.ts).
 * - CSV: `read_csv('<path>', auto_detect=true, ...)` with the read options, in order of
 *   preference, from `entry.csv` (e.g. `TableProfile.csv` stored by the catalog), from a
 *   profile of the same unchanged file in this process, or from a quick encoding check of
 *   the file's first MiB (which cannot restore `column_N` names for blank header cells).
 * - DuckDB database file: `"graft_db_<hash>"."schema"."table"` of the attached file
 *   (`attachDuckdbFile` must have run on this instance).
 * - SQLite: null. DuckDB reads SQLite only through its `sqlite` extension, which has to be
 *   downloaded and is not available offline; SQLite tables are read with better-sqlite3
 *   (`readRows`), so callers must load them into DuckDB themselves (e.g. via an appender).
 */
export function duckdbSourceExpression(entry: LakeEntry): string | null {
  if (readsAsFolder(entry)) return hiveSourceExpression(entry);
  switch (entry.format) {
    case 'parquet':
      return `read_parquet(${sqlString(entry.path)})`;
    case 'csv':
      return csvReadExpression(entry.path, entry.csv ?? cachedCsvOptions(entry.path) ?? quickCsvOptions(entry.path));
    case 'duckdb':
      // Valid once attachDuckdbFile(entry.path) ran (profiling and the fusion executor do).
      return duckdbTableExpression(entry.path, entry.duckdbTable!);
    case 'sqlite':
      return null;
    case 'iceberg':
      // Needs the manifests (async): `loadIcebergTable(path).sql` (fusion resolves it at run time).
      return null;
    default:
      return null;
  }
}

/**
 * Whether a csv/parquet entry is a partitioned folder: `entry.hive` when known, else whether its
 * path is a folder now (one stat). A catalog snapshot asks once per table when it is loaded
 * (`SnapshotTable.folder`), so answers do not stat every table they name.
 */
export function readsAsFolder(entry: Pick<LakeEntry, 'path' | 'format' | 'hive'>): boolean {
  if (entry.format !== 'parquet' && entry.format !== 'csv') return false;
  if (entry.hive !== undefined) return entry.hive;
  try {
    return statSync(entry.path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * A partitioned folder's files as they are now. A folder that has become mixed or broken gets
 * DuckDB's glob over it, so running the SQL reports DuckDB's own error, as for a missing file.
 */
function hiveSourceExpression(entry: LakeEntry): string {
  const folder = scanHiveFolder(entry.path);
  if (!('problem' in folder)) return hiveReadExpression(folder, entry.csv);
  const glob = sqlString(`${entry.path}/**/*.${entry.format}`);
  return entry.format === 'parquet' ? `read_parquet(${glob}, hive_partitioning=true, union_by_name=true)` : `read_csv(${glob}, hive_partitioning=true)`;
}
