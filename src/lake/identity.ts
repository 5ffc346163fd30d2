/** Identity of a lake entry: its URI and a content fingerprint that is cheap to recompute. */
import { LakeReadError } from '../util/errors.js';
import { fingerprintDuckdbTable, duckdbTableUri } from './duckdb-file.js';
import { stem } from './duckdb-profile.js';
import { fingerprintPostgresTable, postgresTableUri } from './postgres.js';
import { scanFile } from './fingerprint.js';
import { icebergFingerprint, icebergTableDir } from './iceberg/table.js';
import { hiveFingerprint, hiveTableName, loadHiveFolder } from './hive.js';
import { fingerprintSqliteTable, tableLabel } from './sqlite.js';
import type { LakeEntry } from './types.js';

/** `TableProfile.uri` of an entry: the absolute file path, `file.sqlite#table`, or the Iceberg table folder. */
export function entryUri(entry: LakeEntry): string {
  if (entry.format === 'duckdb') return duckdbTableUri(entry.path, entry.duckdbTable!);
  if (entry.format === 'postgres') return postgresTableUri(entry);
  if (entry.format === 'iceberg') return icebergTableDir(entry.path);
  return entry.format === 'sqlite' ? tableLabel(entry) : entry.path;
}

/** `TableProfile.name` of an entry without profiling: the SQLite table, or the file stem. */
export function entryName(entry: LakeEntry): string {
  if (entry.format === 'duckdb') return entry.duckdbTable!.table;
  if (entry.format === 'postgres') return entry.pgTable!;
  if (entry.hive) return hiveTableName(entry);
  return entry.format === 'sqlite' ? entry.sqliteTable! : stem(entry.path);
}

/**
 * The fingerprint `profileEntry` would report, without profiling: sha256 of the file bytes
 * (CSV/Parquet, streamed), of a partitioned folder's file list (paths, sizes, mtimes) or of
 * the SQLite table's rows. Lets ingest skip unchanged tables.
 */
export async function fingerprintEntry(entry: LakeEntry): Promise<string> {
  if (entry.format === 'sqlite') return fingerprintSqliteTable(entry);
  if (entry.format === 'duckdb') return fingerprintDuckdbTable(entry);
  if (entry.format === 'postgres') return fingerprintPostgresTable(entry);
  if (entry.format === 'iceberg') return icebergFingerprint(entry.path);
  if (entry.hive) return hiveFingerprint(loadHiveFolder(entry));
  try {
    return (await scanFile(entry.path)).fingerprint;
  } catch (err) {
    throw new LakeReadError(entry.path, `cannot read file: ${(err as Error).message}`);
  }
}
