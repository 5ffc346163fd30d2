/** Conversion of reader values into plain JSON-friendly preview values. */
import { DuckDBDecimalValue } from '@duckdb/node-api';
import type { Cell } from './column-stats.js';

/**
 * A DuckDB value as a profiling cell: numbers, bigints, booleans and strings pass through;
 * DECIMAL becomes a double (so 1.50 and 1.5 normalise alike); dates, timestamps and every
 * other structured value use DuckDB's text form ("2020-01-02", "2020-01-02 03:04:05").
 */
export function duckdbCell(v: unknown): Cell {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'string':
    case 'number':
    case 'bigint':
    case 'boolean':
      return v;
    default:
      if (v instanceof DuckDBDecimalValue) return v.toDouble();
      return String(v);
  }
}

/** A value for previews: bigints become numbers when exact (else strings), blobs hex text. */
export function previewValue(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (Buffer.isBuffer(v)) return `\\x${v.toString('hex')}`;
  if (typeof v === 'object') return previewValue(duckdbCell(v));
  return v;
}
