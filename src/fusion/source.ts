/** The DuckDB table expression for a fusion table, via the lake layer's reader rules. */
import { duckdbSourceExpression } from '../lake/index.js';
import type { LakeEntry } from '../lake/types.js';
import type { FusionTable } from './types.js';

/** The lake entry behind a catalog table: the uri is the path, or `file.sqlite#table` for SQLite. */
export function lakeEntryOf(table: FusionTable): LakeEntry {
  if (table.format === 'sqlite') {
    const hash = table.uri.lastIndexOf('#');
    if (hash < 0) return { path: table.uri, format: 'sqlite', sqliteTable: table.name };
    return { path: table.uri.slice(0, hash), format: 'sqlite', sqliteTable: table.uri.slice(hash + 1) };
  }
  return table.csv ? { path: table.uri, format: table.format, csv: table.csv } : { path: table.uri, format: table.format };
}

/**
 * `read_csv(...)` / `read_parquet(...)` for the table, or null when DuckDB cannot read it
 * offline (SQLite: DuckDB's sqlite extension would have to be downloaded).
 */
export function tableSourceExpression(table: FusionTable): string | null {
  return duckdbSourceExpression(lakeEntryOf(table));
}
