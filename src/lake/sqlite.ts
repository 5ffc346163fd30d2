/**
 * SQLite tables, read with better-sqlite3 (readonly). DuckDB's sqlite extension is not
 * available offline, so SQLite never goes through DuckDB.
 *
 * Declared column types in SQLite are advisory (any column can hold any value), so the
 * logical type is inferred from the values actually stored; the declared type only breaks
 * ties (BOOLEAN for 0/1 integers) and types columns that hold no values at all.
 *
 * Profiling streams the whole table once in rowid order: every row feeds the fingerprint
 * (sha256 over a typed, length-prefixed serialisation of the rows, so it changes exactly
 * when the table's content or schema does) and the exact row count; the first `sampleRows`
 * rows feed the column statistics; later rows only feed per-column HyperLogLogs so that
 * `distinctEstimate` still covers the whole column.
 */
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { LakeReadError } from '../util/errors.js';
import { cellKey } from '../sketch/minhash.js';
import type { HyperLogLog } from '../sketch/hll.js';
import { ColumnAccumulator, cellText, type Cell, type ValueKinds } from './column-stats.js';
import { effectiveSampleRows, type ProfileOptions, resolveProfileOptions } from './options.js';
import { sqlIdent } from './sql.js';
import type { LakeEntry, LogicalType, TableProfile } from './types.js';
import { previewValue } from './values.js';

export function openSqlite(path: string): Database.Database {
  return new Database(path, { readonly: true, fileMustExist: true });
}

/** User tables of a SQLite file, by name. Internal `sqlite_*` and virtual tables are left out. */
export function listSqliteTables(path: string): string[] {
  const db = openSqlite(path);
  try {
    const rows = db
      .prepare(
        `SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name`,
      )
      .all() as Array<{ name: string; sql: string | null }>;
    // Virtual tables (FTS, R-tree, ...) need modules that may not be loaded; their content
    // lives in ordinary shadow tables that are listed anyway.
    return rows.filter((r) => !/^\s*CREATE\s+VIRTUAL\s+TABLE/i.test(r.sql ?? '')).map((r) => r.name);
  } finally {
    db.close();
  }
}

/** Logical type from a declared column type alone (SQLite affinity rules plus date hints). */
export function declaredLogicalType(declared: string | null | undefined): LogicalType {
  const t = (declared ?? '').toUpperCase();
  if (t.includes('INT')) return 'integer';
  if (t.includes('BOOL')) return 'boolean';
  if (t.includes('DATETIME') || t.includes('TIMESTAMP')) return 'timestamp';
  if (t.includes('DATE')) return 'date';
  if (t.includes('CHAR') || t.includes('CLOB') || t.includes('TEXT')) return 'text';
  if (t.includes('REAL') || t.includes('FLOA') || t.includes('DOUB') || t.includes('NUMERIC') || t.includes('DECIMAL')) {
    return 'float';
  }
  return 'other';
}

/** Logical type from the kinds of values a column holds; `nonNull` of them. */
export function inferSqliteType(kinds: ValueKinds, nonNull: number, declared: string | null | undefined): LogicalType {
  if (nonNull === 0) return declaredLogicalType(declared);
  if (kinds.blob > 0) return kinds.blob === nonNull ? 'other' : 'text';
  if (kinds.string > 0) {
    // Numeric-looking strings stored as TEXT stay text: SQLite kept them as text on purpose
    // (or the column has TEXT affinity), and leading zeros / codes must survive.
    if (kinds.string === nonNull) {
      if (kinds.isoDate === nonNull) return 'date';
      if (kinds.isoTimestamp > 0 && kinds.isoDate + kinds.isoTimestamp === nonNull) return 'timestamp';
    }
    return 'text';
  }
  if (kinds.number > 0) return 'float';
  if (/BOOL/i.test(declared ?? '') && kinds.zeroOne === nonNull) return 'boolean';
  return 'integer';
}

export function tableLabel(entry: LakeEntry): string {
  return `${entry.path}#${entry.sqliteTable}`;
}

export function openForEntry(entry: LakeEntry): Database.Database {
  if (!entry.sqliteTable) throw new LakeReadError(entry.path, 'SQLite entry has no table name');
  try {
    return openSqlite(entry.path);
  } catch (err) {
    throw new LakeReadError(tableLabel(entry), `cannot open SQLite database: ${(err as Error).message}`);
  }
}

/**
 * `SELECT *` in a stable order: rowid for ordinary tables, the primary key for WITHOUT ROWID
 * tables (which have no rowid), insertion order otherwise.
 */
export function prepareScan(db: Database.Database, entry: LakeEntry, suffix = ''): Database.Statement {
  const table = sqlIdent(entry.sqliteTable!);
  try {
    return db.prepare(`SELECT * FROM ${table} ORDER BY rowid${suffix}`);
  } catch (err) {
    const msg = (err as Error).message;
    if (/no such table/i.test(msg)) throw new LakeReadError(tableLabel(entry), 'no such table');
    if (!/rowid/i.test(msg)) throw new LakeReadError(tableLabel(entry), `cannot read table: ${msg}`);
  }
  try {
    const pk = (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string; pk: number }>)
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => sqlIdent(c.name));
    const order = pk.length ? ` ORDER BY ${pk.join(', ')}` : '';
    return db.prepare(`SELECT * FROM ${table}${order}${suffix}`);
  } catch (err) {
    throw new LakeReadError(tableLabel(entry), `cannot read table: ${(err as Error).message}`);
  }
}

/** Typed, length-prefixed text of one cell for the content fingerprint. */
function fingerprintCell(v: unknown): string {
  if (v === null || v === undefined) return 'n';
  switch (typeof v) {
    case 'bigint':
      return `i${v}`;
    case 'number':
      return `r${v}`;
    case 'string':
      return `s${v.length}:${v}`;
    default:
      if (Buffer.isBuffer(v)) return `b${v.toString('hex')}`;
      return `o${String(v)}`;
  }
}

/**
 * sha256 over a SQLite table: the column names and declared types, then every row in scan
 * order (rowid, or primary key for WITHOUT ROWID tables) as typed, length-prefixed cells.
 * Integers are read as bigints so large values hash exactly.
 */
class TableHasher {
  private readonly hash = createHash('sha256');
  private pending = '';

  constructor(columns: Array<{ name: string; type: string | null }>) {
    this.hash.update(JSON.stringify(columns.map((c) => [c.name, c.type])));
  }

  row(row: unknown[]): void {
    let s = '';
    for (let i = 0; i < row.length; i++) s += fingerprintCell(row[i]) + '\x1f';
    this.pending += s + '\x1e';
    if (this.pending.length > 1 << 16) {
      this.hash.update(this.pending);
      this.pending = '';
    }
  }

  digest(): string {
    this.hash.update(this.pending);
    this.pending = '';
    return `sha256:${this.hash.digest('hex')}`;
  }
}

/** Content fingerprint of one SQLite table, equal to what `profileSqliteTable` reports. */
export function fingerprintSqliteTable(entry: LakeEntry): string {
  const db = openForEntry(entry);
  try {
    const stmt = prepareScan(db, entry).raw(true).safeIntegers(true);
    const hasher = new TableHasher(stmt.columns());
    for (const row of stmt.iterate() as IterableIterator<unknown[]>) hasher.row(row);
    return hasher.digest();
  } catch (err) {
    if (err instanceof LakeReadError) throw err;
    throw new LakeReadError(tableLabel(entry), `cannot read table: ${(err as Error).message}`);
  } finally {
    db.close();
  }
}

export function profileSqliteTable(entry: LakeEntry, options: ProfileOptions = {}): TableProfile {
  const { sampleRows, maxColumns } = resolveProfileOptions(options);
  const label = tableLabel(entry);
  const db = openForEntry(entry);
  try {
    const stmt = prepareScan(db, entry).raw(true).safeIntegers(true);
    const columns = stmt.columns();
    if (columns.length > maxColumns) {
      throw new LakeReadError(label, `table has ${columns.length} columns, more than the limit of ${maxColumns}`, {
        columns: columns.length,
        maxColumns,
      });
    }
    const sampleN = effectiveSampleRows(sampleRows, columns.length);
    const accs = columns.map((c, i) => new ColumnAccumulator(c.name, i, true));
    const hasher = new TableHasher(columns);
    let rows = 0;
    let sketches: HyperLogLog[] | null = null;
    const width = columns.length;
    try {
      for (const row of stmt.iterate() as IterableIterator<Cell[]>) {
        if (rows < sampleN) {
          for (let i = 0; i < width; i++) accs[i].add(row[i]);
        } else {
          sketches ??= accs.map((a) => a.sketch());
          for (let i = 0; i < width; i++) {
            const v = row[i];
            if (v === null || v === undefined) continue;
            const key = Buffer.isBuffer(v) ? cellText(v) : cellKey(v);
            if (key !== null) sketches[i].add(key);
          }
        }
        hasher.row(row);
        rows++;
      }
    } catch (err) {
      if (err instanceof LakeReadError) throw err;
      throw new LakeReadError(label, `cannot read table: ${(err as Error).message}`);
    }
    const profiledRows = Math.min(rows, sampleN);
    const warnings: string[] = [];
    if (rows === 0) warnings.push('table has no rows; column types come from the declared types');
    return {
      name: entry.sqliteTable!,
      uri: label,
      format: 'sqlite',
      rowCount: rows,
      profiledRows,
      fingerprint: hasher.digest(),
      columns: accs.map((acc, i) => {
        const type = inferSqliteType(acc.kinds, acc.nonNull, columns[i].type);
        return acc.finish(type, sketches ? sketches[i].count() : undefined);
      }),
      warnings,
      sourceExpression: null,
    };
  } finally {
    db.close();
  }
}

export function readSqliteRows(entry: LakeEntry, limit: number): Record<string, unknown>[] {
  const db = openForEntry(entry);
  try {
    const stmt = prepareScan(db, entry, ` LIMIT ${Math.max(0, Math.floor(limit))}`).raw(true).safeIntegers(true);
    const names = stmt.columns().map((c) => c.name);
    return (stmt.all() as unknown[][]).map((row) => {
      const out: Record<string, unknown> = {};
      names.forEach((n, i) => (out[n] = previewValue(row[i])));
      return out;
    });
  } catch (err) {
    if (err instanceof LakeReadError) throw err;
    throw new LakeReadError(tableLabel(entry), `cannot read table: ${(err as Error).message}`);
  } finally {
    db.close();
  }
}
