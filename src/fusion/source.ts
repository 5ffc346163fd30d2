/**
 * How the fused SQL reads each table. DuckDB reads CSV and Parquet itself
 * (`duckdbSourceExpression`). Formats it has no offline reader for are copied into a DuckDB temp
 * table at run time by a `SourceCopier`; the plan's SQL names them with the expression a stock
 * DuckDB (whose extensions can be downloaded) would use, so the SQL stays runnable outside graft.
 *
 * DuckDB database files are read in place too, once attached (`prepareSource`); `plan.setupSql`
 * holds their ATTACH statements for running the SQL elsewhere.
 *
 * Hook for new source kinds: either `duckdbSourceExpression` in src/lake returns a DuckDB
 * expression for the entry (nothing to do here), or the format gets a copier in `COPIERS` below
 * (a copy, or an expression resolved at run time as for Iceberg tables).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { attachDuckdbFile, duckdbAttachStatement, duckdbEntryOfUri, duckdbSourceExpression, parsePostgresSource, sqlString } from '../lake/index.js';
import { loadIcebergTable } from '../lake/iceberg/index.js';
import { copyPostgresTable } from '../lake/postgres.js';
import { copySqliteTable } from '../lake/sqlite-duckdb.js';
import type { LakeEntry, LakeFormat } from '../lake/types.js';
import type { FusionSource, FusionTable } from './types.js';

/** The lake entry behind a catalog table: the uri is the path, or `file.sqlite#table` for SQLite. */
export function lakeEntryOf(table: FusionTable): LakeEntry {
  const entry = listedEntryOf(table);
  return table.root && entry.format !== 'postgres' ? { ...entry, root: table.root } : entry;
}

function listedEntryOf(table: FusionTable): LakeEntry {
  if (table.format === 'sqlite') {
    const hash = table.uri.lastIndexOf('#');
    if (hash < 0) return { path: table.uri, format: 'sqlite', sqliteTable: table.name };
    return { path: table.uri.slice(0, hash), format: 'sqlite', sqliteTable: table.uri.slice(hash + 1) };
  }
  if (table.format === 'duckdb') return duckdbEntryOfUri(table.uri);
  if (table.format === 'postgres') {
    const hash = table.uri.lastIndexOf('#');
    return { path: table.uri.slice(0, hash), format: 'postgres', pgTable: table.uri.slice(hash + 1) };
  }
  return { path: table.uri, format: table.format, ...(table.csv ? { csv: table.csv } : {}), ...(table.folder !== undefined ? { hive: table.folder } : {}) };
}

/** Makes `source.expression` valid on the shared instance (attaches a DuckDB file). */
export async function prepareSource(entry: LakeEntry): Promise<void> {
  if (entry.format === 'duckdb') await attachDuckdbFile(entry.path);
}

/**
 * Reads a table the plan's SQL cannot name directly: either copies its first `maxRows` rows
 * into TEMP table `target` on `con`, or (`inPlace`) gives, at run time, a DuckDB expression that
 * reads all of it where it lies.
 */
export interface SourceCopier {
  /** What reads the rows, as `FusionSource.copiedBy` reports it. */
  via: string;
  /** The expression a stock DuckDB would read the table with (shown in `plan.sql`). */
  expression(entry: LakeEntry): string;
  copy?(con: DuckDBConnection, entry: LakeEntry, target: string, maxRows: number): Promise<{ rows: number; truncated: boolean }>;
  inPlace?(entry: LakeEntry): Promise<string>;
}

const COPIERS: Partial<Record<LakeFormat, SourceCopier>> = {
  // DuckDB's sqlite extension cannot be installed offline: better-sqlite3 reads the rows.
  sqlite: {
    via: 'better-sqlite3',
    expression: (entry) => `sqlite_scan(${sqlString(entry.path)}, ${sqlString(entry.sqliteTable ?? '')})`,
    copy: copySqliteTable,
  },
  // A read-only cursor over the live table (credentials from this process / PGPASSWORD).
  postgres: {
    via: 'pg',
    expression: (entry) => {
      const { schema } = parsePostgresSource(entry.path);
      const root = new URL(entry.path);
      const libpq = `host=${root.hostname} port=${root.port || '5432'} dbname=${decodeURIComponent(root.pathname.split('/')[1] ?? '')}${root.username ? ` user=${decodeURIComponent(root.username)}` : ''}`;
      return `postgres_scan(${sqlString(libpq)}, ${sqlString(schema)}, ${sqlString(entry.pgTable ?? '')})`;
    },
    copy: copyPostgresTable,
  },
  // DuckDB's iceberg extension cannot be installed offline: graft plans the scan itself (live
  // data files minus deletes, from the manifests) and DuckDB reads the Parquet files in place.
  iceberg: {
    via: 'graft-iceberg',
    expression: (entry) => `iceberg_scan(${sqlString(entry.path)})`,
    inPlace: async (entry) => (await loadIcebergTable(entry.path)).sql,
  },
};

export function copierFor(format: LakeFormat): SourceCopier | undefined {
  return COPIERS[format];
}

/** How the fused SQL reads `table`, or null when no reader exists for its format. */
export function fusionSource(table: FusionTable): FusionSource | null {
  const entry = lakeEntryOf(table);
  const direct = duckdbSourceExpression(entry);
  if (direct !== null) {
    const setupSql = entry.format === 'duckdb' ? duckdbAttachStatement(entry.path) : null;
    return { tableId: table.id, name: table.name, entry, expression: direct, setupSql, copiedBy: null };
  }
  const copier = copierFor(entry.format);
  if (!copier) return null;
  return { tableId: table.id, name: table.name, entry, expression: copier.expression(entry), setupSql: null, copiedBy: copier.via };
}
