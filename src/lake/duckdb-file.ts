/**
 * DuckDB database files (`.duckdb`) as lake sources: every base table is one lake entry. The
 * file is ATTACHed READ_ONLY to the process's DuckDB instance under a name derived from its
 * path (`graft_db_<hash>`), once, and again when the file changed (size or mtime): a read-only
 * attachment does not see another process's later writes.
 *
 * A table's entry uri is `<file>#<schema>.<table>`; its fingerprint hashes the table's columns
 * and types, row count and an order-independent sum of row hashes (DuckDB `hash`), so a change
 * to one table re-ingests that table only.
 */
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { DuckDBInstance } from '@duckdb/node-api';
import { LakeReadError } from '../util/errors.js';
import { duckdbMessage, getDuckDB, withDuckDB } from './duckdb.js';
import { sqlIdent, sqlString } from './sql.js';
import type { LakeEntry } from './types.js';

export interface DuckdbTableRef {
  schema: string;
  table: string;
}

/** The catalog name the file is attached under: stable per path. */
export function duckdbFileAlias(path: string): string {
  return `graft_db_${createHash('sha256').update(path).digest('hex').slice(0, 12)}`;
}

/** `"graft_db_…"."schema"."table"`: valid once `attachDuckdbFile(path)` has run. */
export function duckdbTableExpression(path: string, ref: DuckdbTableRef): string {
  return `${sqlIdent(duckdbFileAlias(path))}.${sqlIdent(ref.schema)}.${sqlIdent(ref.table)}`;
}

/** The statement that attaches the file (what a user runs before the fused SQL). */
export function duckdbAttachStatement(path: string): string {
  return `ATTACH IF NOT EXISTS ${sqlString(path)} AS ${sqlIdent(duckdbFileAlias(path))} (READ_ONLY)`;
}

/** Per path: the instance it is attached to (closeDuckDB makes a fresh one) and the file's state then. */
const attached = new Map<string, { instance: DuckDBInstance; size: number; mtimeMs: number; done: Promise<void> }>();

/** Attaches (or re-attaches, when the file changed) a DuckDB file read-only; returns its alias. */
export async function attachDuckdbFile(path: string): Promise<string> {
  const alias = duckdbFileAlias(path);
  let st;
  try {
    st = await stat(path);
  } catch (err) {
    throw new LakeReadError(path, `cannot read DuckDB file: ${(err as Error).message}`);
  }
  const instance = await getDuckDB();
  const previous = attached.get(path);
  const hit = previous?.instance === instance ? previous : undefined;
  if (hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs) {
    await hit.done;
    return alias;
  }
  const done = (async () => {
    await hit?.done.catch(() => {});
    const con = await instance.connect();
    try {
      if (hit) await con.run(`DETACH DATABASE IF EXISTS ${sqlIdent(alias)}`);
      await con.run(duckdbAttachStatement(path));
    } catch (err) {
      throw new LakeReadError(path, `cannot open DuckDB database: ${duckdbMessage(err)}`);
    } finally {
      con.closeSync();
    }
  })();
  const record = { instance, size: st.size, mtimeMs: st.mtimeMs, done };
  attached.set(path, record);
  done.catch(() => {
    if (attached.get(path) === record) attached.delete(path);
  });
  await done;
  return alias;
}

/** Base tables of a DuckDB file (views and DuckDB's internal schemas left out), in name order. */
export async function listDuckdbTables(path: string): Promise<DuckdbTableRef[]> {
  const alias = await attachDuckdbFile(path);
  return withDuckDB(async (con) => {
    const rows = (
      await con.runAndReadAll(
        `SELECT schema_name, table_name FROM duckdb_tables() WHERE database_name = ${sqlString(alias)} AND NOT internal ORDER BY schema_name, table_name`,
      )
    ).getRowObjects();
    return rows.map((r) => ({ schema: String(r['schema_name']), table: String(r['table_name']) }));
  });
}

/** `<file>#<schema>.<table>`. */
export function duckdbTableUri(path: string, ref: DuckdbTableRef): string {
  return `${path}#${ref.schema}.${ref.table}`;
}

/** The entry behind a `<file>#<schema>.<table>` uri (the schema is what precedes the first dot). */
export function duckdbEntryOfUri(uri: string): LakeEntry {
  const hash = uri.lastIndexOf('#');
  const qualified = uri.slice(hash + 1);
  const dot = qualified.indexOf('.');
  return { path: uri.slice(0, hash), format: 'duckdb', duckdbTable: { schema: qualified.slice(0, dot), table: qualified.slice(dot + 1) } };
}

function refOf(entry: LakeEntry): DuckdbTableRef {
  if (!entry.duckdbTable) throw new LakeReadError(entry.path, 'DuckDB entry has no table');
  return entry.duckdbTable;
}

/** Content fingerprint of one table (see the module comment). */
export async function fingerprintDuckdbTable(entry: LakeEntry): Promise<string> {
  const ref = refOf(entry);
  await attachDuckdbFile(entry.path);
  const source = duckdbTableExpression(entry.path, ref);
  return withDuckDB(async (con) => {
    try {
      const schema = (await con.runAndReadAll(`DESCRIBE SELECT * FROM ${source}`)).getRows().map((r) => [String(r[0]), String(r[1])]);
      const stats = (await con.runAndReadAll(`SELECT count(*)::VARCHAR, coalesce(sum(hash(t))::VARCHAR, '0') FROM ${source} AS t`)).getRows()[0]!;
      return createHash('sha256').update(JSON.stringify([schema, stats.map(String)])).digest('hex');
    } catch (err) {
      throw new LakeReadError(duckdbTableUri(entry.path, ref), `cannot read DuckDB table: ${duckdbMessage(err)}`);
    }
  });
}
