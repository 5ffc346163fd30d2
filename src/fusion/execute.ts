/**
 * Running a fusion plan's SQL on the shared DuckDB instance: a preview and an exact count.
 * Tables DuckDB cannot read offline (SQLite) are copied into it first, bounded by `maxCopiedRows`.
 */
import {
  DuckDBArrayValue,
  DuckDBBlobValue,
  DuckDBDecimalValue,
  DuckDBListValue,
  DuckDBMapValue,
  DuckDBStructValue,
  DuckDBUnionValue,
} from '@duckdb/node-api';
import { confineEntry, duckdbSourceExpression, sqlIdent, withDuckDB } from '../lake/index.js';
import type { LakeEntry } from '../lake/types.js';
import { duckdbMessage } from '../lake/duckdb.js';
import { ErrorCode } from '../util/errors.js';
import { FusionExecutionError } from './errors.js';
import { copierFor, prepareSource } from './source.js';
import { planSqlWith } from './sql.js';
import type { FusionPlan, FusionPreview, FusionRunInfo } from './types.js';

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

/** Default bound on the rows copied into DuckDB per table that DuckDB cannot read itself (SQLite). */
export const DEFAULT_MAX_COPIED_ROWS = 1_000_000;

export interface FusionRunOptions {
  /** At most this many rows of each copied table (SQLite) go into DuckDB; default 1,000,000. */
  maxCopiedRows?: number;
}

function executableSql(plan: FusionPlan): string {
  if (!plan.executable || !plan.sql) {
    throw new FusionExecutionError(ErrorCode.BAD_USER_INPUT, `fusion plan is not executable: ${plan.warnings.join('; ') || 'no SQL'}`);
  }
  return plan.sql;
}

/**
 * The entry a source is read through: for a table confined to its catalog source's root
 * (`entry.root`), its real path, checked now (a file swapped for a symlink out of the root after
 * ingest is refused FORBIDDEN and nothing of it is read). Readers get this resolved path.
 */
async function readableEntry(source: FusionPlan['sources'][number]): Promise<LakeEntry> {
  const entry = source.entry;
  if (!entry.root) return entry;
  try {
    return await confineEntry(entry, [entry.root]);
  } catch (err) {
    throw new FusionExecutionError(ErrorCode.FORBIDDEN, `reading ${source.name} for the fused query refused: ${(err as Error).message}`, {
      table: source.name,
    });
  }
}

/**
 * Runs `wrap(<fused sql>)` on one DuckDB connection. Tables DuckDB reads in place keep their
 * expression; the others are first copied into TEMP tables of that connection (gone when it
 * closes) and the SQL is rebuilt over those copies.
 */
async function run<T>(
  plan: FusionPlan,
  wrap: (sql: string) => string,
  read: (rows: Record<string, unknown>[], columns: string[], info: FusionRunInfo) => T,
  opts: FusionRunOptions,
): Promise<T> {
  executableSql(plan);
  const maxRows = opts.maxCopiedRows ?? DEFAULT_MAX_COPIED_ROWS;
  if (!(Number.isInteger(maxRows) && maxRows >= 0)) {
    throw new FusionExecutionError(ErrorCode.BAD_USER_INPUT, `maxCopiedRows must be a non-negative integer, got ${String(maxRows)}`);
  }
  return withDuckDB(async (con) => {
    const info: FusionRunInfo = { engine: 'duckdb', sources: [], warnings: [] };
    const expressions = new Map<string, string>();
    // Whether an expression differs from the plan's SQL (a copy, or a confined real path).
    let rebuilt = false;
    for (const [i, planned] of plan.sources.entries()) {
      const entry = await readableEntry(planned);
      const source = entry === planned.entry ? planned : { ...planned, entry };
      if (source.copiedBy === null) {
        if (entry !== planned.entry) {
          source.expression = duckdbSourceExpression(entry) ?? planned.expression;
          rebuilt = true;
        }
        try {
          await prepareSource(source.entry);
        } catch (err) {
          throw new FusionExecutionError(ErrorCode.LAKE_READ, `reading ${source.name} for the fused query failed: ${(err as Error).message}`, {
            table: source.name,
            uri: source.entry.path,
          });
        }
        expressions.set(source.tableId, source.expression);
        info.sources.push({ tableId: source.tableId, name: source.name, readBy: 'duckdb', copiedRows: null, truncated: false });
        continue;
      }
      const copier = copierFor(source.entry.format);
      if (!copier) throw new FusionExecutionError(ErrorCode.BAD_USER_INPUT, `no reader for ${source.entry.format} table ${source.name}`);
      if (copier.inPlace) {
        try {
          expressions.set(source.tableId, await copier.inPlace(source.entry));
          rebuilt = true;
        } catch (err) {
          throw new FusionExecutionError(ErrorCode.LAKE_READ, `reading ${source.name} for the fused query failed: ${(err as Error).message}`, {
            table: source.name,
            uri: source.entry.path,
          });
        }
        info.sources.push({ tableId: source.tableId, name: source.name, readBy: copier.via, copiedRows: null, truncated: false });
        continue;
      }
      rebuilt = true;
      const target = `graft_source_${i}`;
      let copied;
      try {
        copied = await copier.copy!(con, source.entry, target, maxRows);
      } catch (err) {
        throw new FusionExecutionError(ErrorCode.LAKE_READ, `reading ${source.name} for the fused query failed: ${(err as Error).message}`, {
          table: source.name,
          uri: source.entry.path,
        });
      }
      expressions.set(source.tableId, sqlIdent(target));
      info.sources.push({ tableId: source.tableId, name: source.name, readBy: copier.via, copiedRows: copied.rows, truncated: copied.truncated });
      if (copied.truncated) {
        info.warnings.push(`table ${source.name} has more than ${maxRows} rows: only its first ${maxRows} were read, so the result is partial`);
      }
    }
    const sql = rebuilt ? planSqlWith(plan, expressions) : plan.sql!;
    let reader;
    try {
      reader = await con.runAndReadAll(wrap(sql));
    } catch (err) {
      throw new FusionExecutionError(ErrorCode.LAKE_READ, `fused query failed: ${duckdbMessage(err)}`, { sql: plan.sql });
    }
    return read(reader.getRowObjects() as Record<string, unknown>[], reader.columnNames(), info);
  });
}

/**
 * The first `limit` rows of the fused result (no ORDER BY: DuckDB's order). Reads one row more
 * than asked so that `rowCountExact` can be set when the whole result fitted.
 */
export async function previewFusion(plan: FusionPlan, limit: number, opts: FusionRunOptions = {}): Promise<FusionPreview> {
  const n = Number.isFinite(limit) ? Math.max(0, Math.floor(limit)) : 0;
  const wrap = (sql: string) => `SELECT * FROM (\n${sql}\n) AS fused LIMIT ${n + 1}`;
  return run(
    plan,
    wrap,
    (rows, columns, info) => {
      const out = rows.slice(0, n).map((row) => {
        const o: Record<string, unknown> = {};
        for (const c of columns) o[c] = jsonSafeValue(row[c]);
        return o;
      });
      const complete = rows.length <= n && !info.sources.some((s) => s.truncated);
      return complete ? { ...info, columns, rows: out, rowCountExact: rows.length } : { ...info, columns, rows: out };
    },
    opts,
  );
}

/**
 * Exact number of rows the fused SQL returns. Refuses (BAD_USER_INPUT) when a copied table
 * had more than `maxCopiedRows` rows, since the count would silently be short.
 */
export async function countFusion(plan: FusionPlan, opts: FusionRunOptions = {}): Promise<number> {
  return run(
    plan,
    (sql) => `SELECT count(*) AS n FROM (\n${sql}\n) AS fused`,
    (rows, _columns, info) => {
      const cut = info.sources.filter((s) => s.truncated).map((s) => s.name);
      if (cut.length > 0) {
        throw new FusionExecutionError(
          ErrorCode.BAD_USER_INPUT,
          `cannot count exactly: ${cut.join(', ')} exceed(s) maxCopiedRows (${opts.maxCopiedRows ?? DEFAULT_MAX_COPIED_ROWS}); raise it`,
        );
      }
      return Number(rows[0]!['n'] as bigint);
    },
    opts,
  );
}
