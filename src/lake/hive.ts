/**
 * Hive-partitioned folders: `sales/year=2024/month=01/part-0.parquet` (or CSV) is ONE table
 * whose partition keys are columns (DuckDB `hive_partitioning=true`), not one table per file.
 *
 * - A folder is partitioned when one of its subfolders is named `key=value`. Below it every
 *   folder must be `key=value` too and every data file must sit at the same key depth (same
 *   keys in the same order), in one format with one extension; otherwise the whole folder is
 *   a problem naming the offending path (so a half-broken folder is not half ingested).
 * - Hidden names (`.x`) and `_`-prefixed names (`_SUCCESS`, `_metadata`, Spark's `_temporary`
 *   of a write in progress) are skipped; so are files with extensions the lake does not read.
 * - DuckDB reads the listed files by name (not a glob, which would also match hidden files
 *   and `_temporary`), so profiling, previews and fused SQL see exactly the listed files.
 * - Fingerprint: sha256 over every data file's relative path, size and mtime (no content is
 *   read), so adding, replacing or removing a partition file re-ingests this table only.
 *
 * The listing is synchronous: `duckdbSourceExpression` (sync) lists the folder again when a
 * caller (fusion, previews) only has the stored uri.
 */
import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { LakeReadError } from '../util/errors.js';
import { csvReadExpression, quickCsvOptions } from './csv.js';
import { formatForPath } from './formats.js';
import { sqlString } from './sql.js';
import type { CsvReadOptions, LakeEntry, LakeFormat } from './types.js';

/** `key=value` folder names (the value may be empty: Hive writes `__HIVE_DEFAULT_PARTITION__` or nothing). */
const PARTITION_DIR = /^[^=]+=/;

export interface HiveDataFile {
  /** Absolute path. */
  path: string;
  /** Path relative to the partitioned folder, `/`-separated. */
  rel: string;
  size: number;
  mtimeMs: number;
}

export interface HiveFolder {
  path: string;
  format: 'csv' | 'parquet';
  /** Partition keys, outermost first (`['year', 'month']`). */
  keys: string[];
  /** Data files in code-point order of their relative paths. */
  files: HiveDataFile[];
}

function skipped(name: string): boolean {
  return name.startsWith('.') || name.startsWith('_');
}

/** Whether `dir` has a `key=value` subfolder (cheap: only names with `=` are stat'ed). */
export function isHiveFolder(dir: string, names: string[]): boolean {
  return names.some((n) => !skipped(n) && PARTITION_DIR.test(n) && isDirectory(join(dir, n)));
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Lists a partitioned folder. Returns the folder, or `{ problem }` (a message naming the
 * offending path) when it is mixed or broken.
 */
export function scanHiveFolder(dir: string): HiveFolder | { problem: string } {
  const files: (HiveDataFile & { keys: string[]; format: LakeFormat; ext: string })[] = [];
  const visit = (folder: string, rel: string, keys: string[]): string | null => {
    let names: string[];
    try {
      names = readdirSync(folder).filter((n) => !skipped(n)).sort();
    } catch (err) {
      return `cannot read folder ${folder}: ${(err as Error).message}`;
    }
    for (const name of names) {
      const path = join(folder, name);
      const childRel = rel ? `${rel}/${name}` : name;
      let st;
      try {
        st = statSync(path); // follows symlinks
      } catch (err) {
        return `cannot stat ${path}: ${(err as Error).message}`;
      }
      if (st.isDirectory()) {
        if (!PARTITION_DIR.test(name)) return `${path} is not a key=value partition folder (next to key=value folders)`;
        const problem = visit(path, childRel, [...keys, name.slice(0, name.indexOf('='))]);
        if (problem) return problem;
      } else if (st.isFile()) {
        const ext = extname(name);
        const format = formatForPath(name);
        if (format) files.push({ path, rel: childRel, size: st.size, mtimeMs: st.mtimeMs, keys, format, ext });
      }
    }
    return null;
  };
  const problem = visit(dir, '', []);
  if (problem) return { problem: `partitioned folder: ${problem}` };
  if (files.length === 0) return { problem: 'partitioned folder has no CSV or Parquet data files' };
  const first = files[0];
  if (first.format !== 'csv' && first.format !== 'parquet') {
    return { problem: `partitioned folder: ${first.path} is a ${first.format} file; only CSV or Parquet files can be partitions` };
  }
  for (const f of files) {
    if (f.format !== first.format || f.ext !== first.ext) {
      return { problem: `partitioned folder: ${f.path} is not a ${first.ext} file like ${first.path} (one format per partitioned table)` };
    }
    if (f.keys.join('/') !== first.keys.join('/')) {
      const where = (k: string[]) => (k.length ? k.join('/') : 'no partition keys');
      return { problem: `partitioned folder: ${f.path} has ${where(f.keys)} but ${first.path} has ${where(first.keys)}` };
    }
  }
  return {
    path: dir,
    format: first.format,
    keys: first.keys,
    files: files.map(({ path, rel, size, mtimeMs }) => ({ path, rel, size, mtimeMs })),
  };
}

/** `scanHiveFolder` for an entry; a mixed or broken folder throws a LakeReadError naming it. */
export function loadHiveFolder(entry: LakeEntry): HiveFolder {
  const folder = scanHiveFolder(entry.path);
  if ('problem' in folder) throw new LakeReadError(entry.path, folder.problem);
  return folder;
}

/** Table name of a partitioned folder: the folder's name (`sales`). */
export function hiveTableName(entry: LakeEntry): string {
  return basename(entry.path);
}

/** Content-free fingerprint: sha256 over the sorted relative paths, sizes and mtimes. */
export function hiveFingerprint(folder: HiveFolder): string {
  const h = createHash('sha256');
  h.update(`hive:${folder.format}\n`);
  for (const f of folder.files) h.update(`${f.rel}\t${f.size}\t${f.mtimeMs}\n`);
  return h.digest('hex');
}

/**
 * `read_parquet([...files], hive_partitioning=true, union_by_name=true)` (partitions written
 * at different times may add columns), or `read_csv([...files], <the CSV options>,
 * hive_partitioning=true)` with the encoding of the first file unless `csv` gives one. CSV
 * goes without `union_by_name`: DuckDB refuses it together with the rejects tables profiling
 * counts malformed lines with, so CSV partitions must share their header (DuckDB's error
 * names the file that does not). `extra` are profiling-only options (rejects tables).
 */
export function hiveReadExpression(folder: HiveFolder, csv?: CsvReadOptions, extra: string[] = []): string {
  const paths = folder.files.map((f) => f.path);
  if (folder.format === 'parquet') return `read_parquet([${paths.map(sqlString).join(', ')}], hive_partitioning=true, union_by_name=true)`;
  return csvReadExpression(paths, csv ?? quickCsvOptions(paths[0]), ['hive_partitioning=true', ...extra]);
}
