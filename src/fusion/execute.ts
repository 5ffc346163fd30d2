/** Running a fusion plan's SQL on the shared DuckDB instance: a preview and an exact count. */
import {
  DuckDBArrayValue,
  DuckDBBlobValue,
  DuckDBDecimalValue,
  DuckDBListValue,
  DuckDBMapValue,
  DuckDBStructValue,
  DuckDBUnionValue,
} from '@duckdb/node-api';
import { withDuckDB } from '../lake/index.js';
import { duckdbMessage } from '../lake/duckdb.js';
import { ErrorCode } from '../util/errors.js';
import { FusionExecutionError } from './errors.js';
import type { FusionPlan, FusionPreview } from './types.js';

/**
 * A DuckDB value as plain JSON: bigints become numbers when exact (else decimal text), DECIMAL
 * a double, non-finite doubles their text, blobs `\x<hex>`, lists / structs / maps arrays and
 * objects, and dates, timestamps, intervals, UUIDs ... DuckDB's text form.
 */
export function jsonSafeValue(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'bigint':
      return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
    case 'number':
      return Number.isFinite(v) ? v : String(v);
    case 'string':
    case 'boolean':
      return v;
    case 'object':
      break;
    default:
      return String(v);
  }
  if (v instanceof DuckDBDecimalValue) return jsonSafeValue(v.toDouble());
  if (v instanceof DuckDBListValue || v instanceof DuckDBArrayValue) return v.items.map(jsonSafeValue);
  if (v instanceof DuckDBStructValue) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v.entries)) out[k] = jsonSafeValue(x);
    return out;
  }
  if (v instanceof DuckDBMapValue) return v.entries.map((e) => ({ key: jsonSafeValue(e.key), value: jsonSafeValue(e.value) }));
  if (v instanceof DuckDBUnionValue) return jsonSafeValue(v.value);
  if (v instanceof DuckDBBlobValue) return `\\x${Buffer.from(v.bytes).toString('hex')}`;
  if (v instanceof Uint8Array) return `\\x${Buffer.from(v).toString('hex')}`;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  return String(v);
}

function executableSql(plan: FusionPlan): string {
  if (!plan.executable || !plan.sql) {
    throw new FusionExecutionError(ErrorCode.BAD_USER_INPUT, `fusion plan is not executable: ${plan.warnings.join('; ') || 'no SQL'}`);
  }
  return plan.sql;
}

async function run<T>(plan: FusionPlan, sql: string, read: (rows: Record<string, unknown>[], columns: string[]) => T): Promise<T> {
  return withDuckDB(async (con) => {
    let reader;
    try {
      reader = await con.runAndReadAll(sql);
    } catch (err) {
      throw new FusionExecutionError(ErrorCode.LAKE_READ, `fused query failed: ${duckdbMessage(err)}`, { sql: plan.sql });
    }
    return read(reader.getRowObjects() as Record<string, unknown>[], reader.columnNames());
  });
}

/**
 * The first `limit` rows of the fused result (no ORDER BY: DuckDB's order). Reads one row more
 * than asked so that `rowCountExact` can be set when the whole result fitted.
 */
export async function previewFusion(plan: FusionPlan, limit: number): Promise<FusionPreview> {
  const sql = executableSql(plan);
  const n = Number.isFinite(limit) ? Math.max(0, Math.floor(limit)) : 0;
  return run(plan, `SELECT * FROM (\n${sql}\n) AS fused LIMIT ${n + 1}`, (rows, columns) => {
    const out = rows.slice(0, n).map((row) => {
      const o: Record<string, unknown> = {};
      for (const c of columns) o[c] = jsonSafeValue(row[c]);
      return o;
    });
    return rows.length <= n ? { columns, rows: out, rowCountExact: rows.length } : { columns, rows: out };
  });
}

/** Exact number of rows the fused SQL returns. */
export async function countFusion(plan: FusionPlan): Promise<number> {
  const sql = executableSql(plan);
  return run(plan, `SELECT count(*) AS n FROM (\n${sql}\n) AS fused`, (rows) => Number(rows[0]!['n'] as bigint));
}
