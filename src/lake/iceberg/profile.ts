/** Profiling an Iceberg table: the shared DuckDB profiler over the table's scan SQL. */
import { basename } from 'node:path';
import { profileWithDuckDB } from '../duckdb-profile.js';
import type { ProfileOptions } from '../options.js';
import type { LakeEntry, TableProfile } from '../types.js';
import { icebergFingerprint, icebergTableDir, loadIcebergTable } from './table.js';

export async function profileIcebergTable(entry: LakeEntry, opts: ProfileOptions = {}): Promise<TableProfile> {
  const plan = await loadIcebergTable(entry.path);
  const profile = await profileWithDuckDB(entry, opts, {
    name: entry.icebergName ?? basename(icebergTableDir(entry.path)),
    expression: plan.sql,
    fingerprint: icebergFingerprint(plan.metadataPath),
  });
  // the scan's own warnings (e.g. a deletion vector read from a bare blob) come first
  return { ...profile, uri: icebergTableDir(entry.path), warnings: [...plan.warnings, ...profile.warnings] };
}
