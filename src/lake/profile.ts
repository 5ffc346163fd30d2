/** `profileEntry`: one lake entry -> TableProfile, dispatching on the format. */
import { LakeReadError } from '../util/errors.js';
import { profileWithDuckDB } from './duckdb-profile.js';
import { profileIcebergTable } from './iceberg/profile.js';
import type { ProfileOptions } from './options.js';
import { profilePostgresTable } from './postgres.js';
import { profileSqliteTable } from './sqlite.js';
import type { LakeEntry, TableProfile } from './types.js';

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
