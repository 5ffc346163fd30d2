/** First rows of a lake entry, for previews. */
import { LakeReadError } from '../util/errors.js';
import { attachDuckdbFile } from './duckdb-file.js';
import { duckdbMessage, withDuckDB } from './duckdb.js';
import { loadIcebergTable } from './iceberg/table.js';
import { duckdbSourceExpression } from './source.js';
import { readPostgresRows } from './postgres.js';
import { readSqliteRows } from './sqlite.js';
import type { LakeEntry } from './types.js';
import { previewValue } from './values.js';

/**
 * Up to `limit` rows in file / rowid order, as plain objects keyed by column name. Values
 * are JSON-friendly: bigints become numbers when exact (strings otherwise), dates and
 * timestamps their ISO-like text, blobs `\x<hex>`.
 */
export async function readRows(entry: LakeEntry, limit: number): Promise<Record<string, unknown>[]> {
  const n = Math.max(0, Math.floor(limit));
  if (entry.format === 'sqlite') return readSqliteRows(entry, n);
  if (entry.format === 'postgres') {
    const out: Record<string, unknown>[] = [];
    await readPostgresRows(entry, Math.max(0, n - 1), async (columns, rows) => {
      for (const r of rows) out.push(Object.fromEntries(columns.map((c, i) => [c.name, previewValue(r[i])])));
    });
    return out.slice(0, n);
  }
  if (entry.format === 'duckdb') await attachDuckdbFile(entry.path);
  const expression = entry.format === 'iceberg' ? (await loadIcebergTable(entry.path)).sql : duckdbSourceExpression(entry);
  if (!expression) throw new LakeReadError(entry.path, `unsupported format ${entry.format}`);
  return withDuckDB(async (con) => {
    let rows: Record<string, unknown>[];
    try {
      rows = (await con.runAndReadAll(`SELECT * FROM ${expression} LIMIT ${n}`)).getRowObjects();
    } catch (err) {
      throw new LakeReadError(entry.path, `cannot read ${entry.format}: ${duckdbMessage(err)}`);
    }
    return rows.map((row) => {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(row)) out[k] = previewValue(v);
      return out;
    });
  });
}
