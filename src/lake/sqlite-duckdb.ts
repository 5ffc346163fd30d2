/**
 * Copying SQLite rows into DuckDB. DuckDB's sqlite extension cannot be installed offline, so
 * whatever DuckDB has to query from a SQLite file (fused SQL, the benchmark lake builder) is read
 * with better-sqlite3 and appended into a DuckDB table.
 *
 * SQLite's declared types are advisory, so each column's DuckDB type comes from the values it
 * actually holds (the same rule profiling uses): all integers -> BIGINT, integers and reals ->
 * DOUBLE, any text -> VARCHAR (numbers written as SQLite prints them), all blobs -> BLOB; no
 * values -> the declared type's affinity.
 */
import type { DuckDBAppender, DuckDBConnection } from '@duckdb/node-api';
import { LakeReadError } from '../util/errors.js';
import { openForEntry, prepareScan, tableLabel } from './sqlite.js';
import { sqlIdent } from './sql.js';
import type { LakeEntry } from './types.js';

export type SqliteDuckType = 'BIGINT' | 'DOUBLE' | 'VARCHAR' | 'BLOB' | 'BOOLEAN';

/** Counts of the storage classes (SQLite `typeof`) of a column's non-null values. */
export interface StorageClassCounts {
  integer: number;
  real: number;
  text: number;
  blob: number;
}

/** The DuckDB type that holds every value of a column losslessly (see the module comment). */
export function duckTypeForStorage(counts: StorageClassCounts, declared: string): SqliteDuckType {
  if (counts.text > 0) return 'VARCHAR';
  if (counts.blob > 0) return counts.integer + counts.real > 0 ? 'VARCHAR' : 'BLOB';
  if (counts.real > 0) return 'DOUBLE';
  if (counts.integer > 0) return 'BIGINT';
  const d = declared.toUpperCase();
  if (d.includes('INT')) return 'BIGINT';
  if (d.includes('BOOL')) return 'BOOLEAN';
  if (/REAL|FLOA|DOUB|NUMERIC|DECIMAL/.test(d)) return 'DOUBLE';
  return 'VARCHAR';
}

/** `duckTypeForStorage` over values read with `safeIntegers(true)` (integers are bigints). */
export function duckTypeForValues(values: unknown[], declared: string): SqliteDuckType {
  const counts: StorageClassCounts = { integer: 0, real: 0, text: 0, blob: 0 };
  for (const v of values) {
    if (v === null || v === undefined) continue;
    if (typeof v === 'bigint') counts.integer++;
    else if (typeof v === 'number') counts.real++;
    else if (typeof v === 'string') counts.text++;
    else counts.blob++;
  }
  return duckTypeForStorage(counts, declared);
}

/** A SQLite value as text, the way SQLite itself prints it (REAL 3 -> "3.0"). */
export function sqliteText(v: unknown): string {
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 1e15 ? `${v}.0` : String(v);
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Uint8Array) return Buffer.from(v).toString('hex');
  return String(v);
}

/** Appends one SQLite value (integers as bigints) to a column of the given type. */
export function appendSqliteValue(app: DuckDBAppender, type: SqliteDuckType, v: unknown): void {
  if (v === null || v === undefined) {
    app.appendNull();
    return;
  }
  switch (type) {
    case 'BIGINT':
      app.appendBigInt(v as bigint);
      return;
    case 'BOOLEAN':
      app.appendBoolean(Boolean(v));
      return;
    case 'DOUBLE':
      app.appendDouble(typeof v === 'bigint' ? Number(v) : (v as number));
      return;
    case 'BLOB':
      app.appendBlob(v as Uint8Array);
      return;
    default:
      app.appendVarchar(sqliteText(v));
  }
}

export interface SqliteCopy {
  /** Rows copied (at most `maxRows`). */
  rows: number;
  /** True when the table holds more than `maxRows` rows and only the first ones were copied. */
  truncated: boolean;
}

/**
 * Copies the first `maxRows` rows (rowid / primary-key order, as profiling reads them) of a
 * SQLite table into a new TEMP table `target` on `con` (dropped with the connection). Column
 * names are SQLite's, so SQL written against the catalog's column names runs unchanged. The
 * column types are settled in SQLite first (`typeof` counts over the same rows), so rows are
 * streamed, never held in memory.
 */
export async function copySqliteTable(con: DuckDBConnection, entry: LakeEntry, target: string, maxRows: number): Promise<SqliteCopy> {
  const limit = Math.max(0, Math.floor(maxRows));
  const db = openForEntry(entry);
  try {
    const scan = prepareScan(db, entry, ` LIMIT ${limit + 1}`).raw(true).safeIntegers(true);
    const columns = scan.columns();
    const declared = new Map(
      (db.prepare(`PRAGMA table_info(${sqlIdent(entry.sqliteTable!)})`).all() as { name: string; type: string | null }[]).map((c) => [
        c.name,
        c.type ?? '',
      ]),
    );
    // Storage classes of the copied rows, counted by SQLite (one pass, no rows in memory).
    const counts = columns.map((c) => {
      const q = sqlIdent(c.name);
      return `sum(typeof(${q}) = 'integer'), sum(typeof(${q}) = 'real'), sum(typeof(${q}) = 'text'), sum(typeof(${q}) = 'blob')`;
    });
    const table = sqlIdent(entry.sqliteTable!);
    const countRow = columns.length
      ? (db.prepare(`SELECT count(*), ${counts.join(', ')} FROM (SELECT * FROM ${table} LIMIT ${limit + 1})`).raw(true).get() as number[])
      : [0];
    const types = columns.map((c, i) =>
      duckTypeForStorage(
        { integer: countRow[1 + 4 * i] ?? 0, real: countRow[2 + 4 * i] ?? 0, text: countRow[3 + 4 * i] ?? 0, blob: countRow[4 + 4 * i] ?? 0 },
        declared.get(c.name) ?? c.type ?? '',
      ),
    );
    if (columns.length === 0) throw new LakeReadError(tableLabel(entry), 'table has no columns');
    await con.run(`CREATE TEMP TABLE ${sqlIdent(target)} (${columns.map((c, i) => `${sqlIdent(c.name)} ${types[i]}`).join(', ')})`);
    const app = await con.createAppender(target, 'main', 'temp');
    let rows = 0;
    let truncated = false;
    try {
      for (const row of scan.iterate() as IterableIterator<unknown[]>) {
        if (rows === limit) {
          truncated = true;
          break;
        }
        for (let c = 0; c < types.length; c++) appendSqliteValue(app, types[c]!, row[c]);
        app.endRow();
        rows++;
      }
      app.flushSync();
    } finally {
      app.closeSync();
    }
    return { rows, truncated };
  } catch (err) {
    if (err instanceof LakeReadError) throw err;
    throw new LakeReadError(tableLabel(entry), `cannot copy into DuckDB: ${(err as Error).message}`);
  } finally {
    db.close();
  }
}
