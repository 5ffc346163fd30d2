import type { ColumnRow, TableRow } from './scopedReader.js';

/** A column with its table's source root (what a grant matches). */
export interface CachedColumn {
  row: ColumnRow;
  sourceRoot: string;
}

/** Most distinct statements held at once; past it the statement memory starts over. */
const MAX_STATEMENTS = 1_000;

/**
 * What the API's grant-scoped reads (CatalogReader) returned lately, shared by every request of
 * one server, so repeated reads are answered from memory: the tables and columns a synthesis
 * names (looked up by id for every answer) and identical statements (a catalog UI's first page
 * of tables, its count). On the embedded catalog every statement runs on the server's main
 * thread, and under load these reads were most of its work.
 *
 * - By id: rows of visible tables whatever a caller may see. The reader applies the caller's
 *   scope to what it hands out (`SqlScope.allows`, the same grant as its SQL), so one caller's
 *   lookup never widens another's view. Ids that matched nothing are not remembered: a table
 *   that becomes visible is found at once.
 * - Statements: keyed by the SQL text and its parameters, the caller's grant among them, so a
 *   result is only ever reused for the same grant. Concurrent identical reads share one
 *   statement; a failed one is not kept.
 *
 * Emptied when the catalog changes through this process (`clear`) and whole at least every
 * `maxAgeMs`, which bounds how long a change made by another process (a second server on the
 * same PostgreSQL) goes unseen here.
 */
export class CatalogReadCache {
  private tables = new Map<string, TableRow>();
  private columns = new Map<string, CachedColumn>();
  private statements = new Map<string, Promise<unknown>>();
  private expiresAt = 0;

  constructor(readonly maxAgeMs: number) {}

  clear(): void {
    this.tables = new Map();
    this.columns = new Map();
    this.statements = new Map();
    this.expiresAt = 0;
  }

  private refresh(): void {
    const now = Date.now();
    if (now < this.expiresAt) return;
    this.clear();
    this.expiresAt = now + this.maxAgeMs;
  }

  /** The rows of `ids` (visible ones only), reading those not held through `read`. */
  tablesByIds(ids: readonly string[], read: (missing: string[]) => Promise<TableRow[]>): Promise<TableRow[]> {
    this.refresh();
    return byIds(this.tables, ids, read, (t) => t.id);
  }

  columnsByIds(ids: readonly string[], read: (missing: string[]) => Promise<CachedColumn[]>): Promise<CachedColumn[]> {
    this.refresh();
    return byIds(this.columns, ids, read, (c) => c.row.id);
  }

  /** The result of one statement, run through `read` unless an identical one ran lately. */
  statement<T>(sql: string, params: unknown[], read: () => Promise<T>): Promise<T> {
    this.refresh();
    const held = this.statements;
    const key = JSON.stringify([sql, params]);
    const hit = held.get(key);
    if (hit) return hit as Promise<T>;
    if (held.size >= MAX_STATEMENTS) held.clear();
    const result = read();
    held.set(key, result);
    result.catch(() => {
      if (held.get(key) === result) held.delete(key);
    });
    return result;
  }
}

/**
 * `held`'s rows of `ids`, reading the missing ones through `read` into it. `held` is the map of
 * the moment of the call: rows read across a clear() land in the discarded one.
 */
async function byIds<T>(held: Map<string, T>, ids: readonly string[], read: (missing: string[]) => Promise<T[]>, idOf: (row: T) => string): Promise<T[]> {
  const missing = ids.filter((id) => !held.has(id));
  if (missing.length > 0) for (const row of await read(missing)) held.set(idOf(row), row);
  return ids.flatMap((id) => held.get(id) ?? []);
}
