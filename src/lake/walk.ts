/** `listLakeEntries`: which files (and SQLite tables) make up a lake. */
import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import { LakeReadError } from '../util/errors.js';
import { listDuckdbTables } from './duckdb-file.js';
import { isPostgresUrl, listPostgresTables } from './postgres.js';
import { icebergCatalogTables, isIcebergSqlCatalog } from './iceberg/catalog.js';
import { isRestCatalogUrl, restCatalogTables } from './iceberg/rest.js';
import { isIcebergTableDir } from './iceberg/table.js';
import { formatForPath } from './formats.js';
import { isHiveFolder, scanHiveFolder } from './hive.js';
import { listSqliteTables } from './sqlite.js';
import type { LakeEntry } from './types.js';

export interface LakeProblem {
  path: string;
  message: string;
}

export interface LakeListing {
  entries: LakeEntry[];
  problems: LakeProblem[];
}


/**
 * Entries under `root`: a folder (walked recursively in code-point order of names, hidden
 * files and folders skipped, symlinked folders followed once), a single file, or a SQLite
 * database (one entry per user table), or a DuckDB database file (one entry per base table). Files with other extensions are skipped silently.
 * SQLite files that cannot be opened or listed, and unreadable folders, become problems;
 * a missing root throws. Iceberg: a table folder (has metadata/*.metadata.json) or a
 * `*.metadata.json` file is one entry; a pyiceberg SQL catalog (SQLite file with
 * `iceberg_tables`) or an Iceberg REST catalog URL (`http(s)://…`) lists its tables.
 * A hive-partitioned folder (`sales/year=2024/month=01/*.parquet`, see hive.ts) is one entry
 * with `hive: true`; a mixed or broken one is a problem naming the offending path.
 */
export async function listLakeEntries(root: string): Promise<LakeListing> {
  // A PostgreSQL schema: one entry per base table; an unreachable server throws (no table to blame).
  if (isPostgresUrl(root)) return { entries: await listPostgresTables(root), problems: [] };
  if (isRestCatalogUrl(root)) {
    const entries: LakeEntry[] = [];
    const problems: LakeProblem[] = [];
    for (const t of await restCatalogTables(root)) {
      if ('problem' in t) problems.push({ path: t.label, message: t.problem });
      else entries.push({ path: t.metadataPath, format: 'iceberg', icebergName: t.name });
    }
    return { entries, problems };
  }
  const abs = resolve(root);
  const entries: LakeEntry[] = [];
  const problems: LakeProblem[] = [];
  let info;
  try {
    info = await stat(abs);
  } catch (err) {
    throw new LakeReadError(abs, `lake root not found or unreadable: ${(err as Error).message}`);
  }
  if (info.isDirectory()) {
    await walk(abs, entries, problems, new Set());
  } else if (abs.endsWith('.metadata.json')) {
    entries.push({ path: abs, format: 'iceberg' });
  } else if (formatForPath(abs)) {
    await addFile(abs, entries, problems);
  } else {
    problems.push({ path: abs, message: `unsupported file type ${JSON.stringify(extname(abs))}` });
  }
  return { entries: dedupeIceberg(entries), problems };
}

/**
 * One entry per Iceberg table folder: a table reached both through a SQL catalog and by
 * walking its folder keeps the catalog's entry (the catalog names the current metadata).
 */
function dedupeIceberg(entries: LakeEntry[]): LakeEntry[] {
  const fromCatalog = new Set(entries.filter((e) => e.format === 'iceberg' && e.icebergName).map((e) => icebergDirOf(e.path)));
  return entries.filter((e) => e.format !== 'iceberg' || e.icebergName || !fromCatalog.has(icebergDirOf(e.path)));
}

function icebergDirOf(path: string): string {
  const dir = path.endsWith('.json') ? resolve(path, '..') : path;
  return basename(dir) === 'metadata' ? resolve(dir, '..') : dir;
}

async function walk(dir: string, entries: LakeEntry[], problems: LakeProblem[], visited: Set<string>): Promise<void> {
  let real: string;
  let names: string[];
  try {
    real = await realpath(dir);
    if (visited.has(real)) return; // symlink cycle
    visited.add(real);
    names = (await readdir(dir)).filter((n) => !n.startsWith('.')).sort();
  } catch (err) {
    problems.push({ path: dir, message: `cannot read folder: ${(err as Error).message}` });
    return;
  }
  if (isIcebergTableDir(dir)) {
    // An Iceberg table is one entry: its data/ and metadata/ files are not tables of their own.
    entries.push({ path: dir, format: 'iceberg' });
    return;
  }
  if (isHiveFolder(dir, names)) {
    // A partitioned folder is one table; a mixed or broken one is one problem on the folder
    // (so ingest keeps what it stored of it rather than removing it file by file).
    const folder = scanHiveFolder(dir);
    if ('problem' in folder) problems.push({ path: dir, message: folder.problem });
    else entries.push({ path: dir, format: folder.format, hive: true });
    return;
  }
  for (const name of names) {
    const path = join(dir, name);
    let st;
    try {
      st = await stat(path); // follows symlinks
    } catch (err) {
      problems.push({ path, message: `cannot stat: ${(err as Error).message}` });
      continue;
    }
    if (st.isDirectory()) await walk(path, entries, problems, visited);
    else if (st.isFile() && formatForPath(path)) await addFile(path, entries, problems);
  }
}

async function addFile(path: string, entries: LakeEntry[], problems: LakeProblem[]): Promise<void> {
  const format = formatForPath(path)!;
  if (format === 'duckdb') {
    try {
      for (const t of await listDuckdbTables(path)) entries.push({ path, format, duckdbTable: t });
    } catch (err) {
      problems.push({ path, message: `cannot open DuckDB database ${basename(path)}: ${(err as Error).message}` });
    }
    return;
  }
  if (format !== 'sqlite') {
    entries.push({ path, format });
    return;
  }
  try {
    if (isIcebergSqlCatalog(path)) {
      for (const t of icebergCatalogTables(path)) {
        if ('problem' in t) problems.push({ path: t.label, message: t.problem });
        else entries.push({ path: t.metadataPath, format: 'iceberg', icebergName: t.name });
      }
      return;
    }
    for (const table of listSqliteTables(path)) entries.push({ path, format, sqliteTable: table });
  } catch (err) {
    problems.push({ path, message: `cannot open SQLite database ${basename(path)}: ${(err as Error).message}` });
  }
}
