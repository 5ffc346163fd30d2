/** `profileEntry`: one lake entry -> TableProfile, dispatching on the format. */
import { LakeReadError } from '../util/errors.js';
import { profileWithDuckDB } from './duckdb-profile.js';
import { profileIcebergTable } from './iceberg/profile.js';
import type { ProfileOptions } from './options.js';
import { profilePostgresTable } from './postgres.js';
import { profileSqliteTable } from './sqlite.js';
import type { LakeEntry, TableProfile } from './types.js';

/**
 * Version of what a stored profile holds. Bump it when profiling changes in a way a catalog
 * should catch up with (a field it now stores, a statistic computed differently): the next ingest
 * profiles every table an older version profiled again, even when its file is unchanged, and
 * `graft doctor` names them until then. 1: CSV tables keep the options they were read with.
 */
export const PROFILE_VERSION = 1;

/**
 * Profile one entry. Bad input (corrupt, empty, too wide, unreadable) throws a
 * LakeReadError naming the file (and table); recoverable oddities (ragged lines, Latin-1
 * text, header-only files) end up in `warnings`.
 */
export async function profileEntry(entry: LakeEntry, opts: ProfileOptions = {}): Promise<TableProfile> {
  switch (entry.format) {
    case 'csv':
    case 'parquet':
    case 'duckdb':
      return profileWithDuckDB(entry, opts);
    case 'sqlite':
      return profileSqliteTable(entry, opts);
    case 'postgres':
      return profilePostgresTable(entry, opts);
    case 'iceberg':
      return profileIcebergTable(entry, opts);
    default:
      throw new LakeReadError(entry.path, `unsupported format ${String((entry as { format: unknown }).format)}`);
  }
}
