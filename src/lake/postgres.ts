/**
 * A live PostgreSQL schema as a lake source: `postgres://user[:password]@host[:port]/db?schema=public`
 * (default schema `public`). Every base table of the schema is one lake entry. Everything runs
 * in READ ONLY transactions, and the work is pushed into Postgres:
 *
 * - `rowCount`: exact `count(*)`;
 * - column statistics: the whole table when it has at most `sampleRows` rows, else a
 *   `TABLESAMPLE SYSTEM` sample (REPEATABLE, so a re-profile sees the same pages) capped at
 *   `sampleRows` rows;
 * - `distinctEstimate` / null share: `pg_stats` (from ANALYZE) where present and the table was
 *   sampled (`n_distinct`, negative = a fraction of the rows); the sample's own figures otherwise;
 * - fingerprint: sha256 of the column names and types, `count(*)` and an order-independent sum
 *   of per-row md5s computed in Postgres, so only changed tables are re-ingested.
 *
 * Secrets: the catalog keeps the source URL without its password (`canonicalPostgresRoot`);
 * the connection string with credentials is kept in this process only (`rememberPostgresCredentials`)
 * and otherwise comes from libpq's environment (PGPASSWORD, as `pg` reads it).
 */
import { createHash } from 'node:crypto';
import type { DuckDBAppender, DuckDBConnection } from '@duckdb/node-api';
import pg from 'pg';
import { BadInputError, LakeReadError } from '../util/errors.js';
import { ColumnAccumulator, type Cell } from './column-stats.js';
import { effectiveSampleRows, resolveProfileOptions, type ProfileOptions } from './options.js';
import { sqlIdent } from './sql.js';
import type { LakeEntry, LogicalType, TableProfile } from './types.js';

export interface PostgresSource {
  /** Connection string with credentials (never stored). */
  connectionString: string;
  /** `postgres://user@host:port/db/schema`: what the catalog stores as the source root. */
  root: string;
  schema: string;
}

export function isPostgresUrl(s: string): boolean {
  return /^postgres(ql)?:\/\//i.test(s.trim());
}

/**
 * Parses `postgres://…/db?schema=s` (or the canonical `postgres://user@host:port/db/s`). The
 * root is the URL without password and query, with the schema as the last path segment, so a
 * table's grant key is `<schema>.<table>`.
 */
export function parsePostgresSource(url: string): PostgresSource {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    throw new BadInputError(`not a valid postgres:// URL: ${url.replace(/:[^:@/]*@/, ':***@')}`, { field: 'path' });
  }
  if (!/^postgres(ql)?:$/.test(u.protocol)) throw new BadInputError('a database source must be a postgres:// URL', { field: 'path' });
  const parts = u.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const db = parts[0];
  if (!db) throw new BadInputError('the postgres:// URL names no database', { field: 'path' });
  const schema = u.searchParams.get('schema') ?? parts[1] ?? 'public';
  if (!u.hostname) throw new BadInputError('the postgres:// URL names no host', { field: 'path' });
  const user = u.username ? `${u.username}@` : '';
  const port = u.port || '5432';
  const root = `postgres://${user}${u.hostname}:${port}/${encodeURIComponent(db)}/${encodeURIComponent(schema)}`;
  const conn = new URL(u.toString());
  conn.protocol = 'postgres:';
  conn.pathname = `/${encodeURIComponent(db)}`;
  conn.search = '';
  for (const [k, v] of u.searchParams) if (k !== 'schema') conn.searchParams.set(k, v);
  return { connectionString: conn.toString(), root, schema };
}

/** Connection strings with passwords, per `postgres://user@host:port/db` (any schema). */
const credentials = new Map<string, string>();
const serverKey = (root: string) => root.slice(0, root.lastIndexOf('/'));

/**
 * Keeps the connection string (with password) for the source's server, database and user in
 * this process (ingest does it with the URL it was given; the API with GRAFT_DATABASE_SOURCES).
 */
export function rememberPostgresCredentials(source: PostgresSource): void {
  // The canonical root carries no password: it must not replace credentials given earlier.
  if (new URL(source.connectionString).password) credentials.set(serverKey(source.root), source.connectionString);
}

/** The connection string for a stored root: remembered credentials, else the root itself (PGPASSWORD). */
export function connectionFor(root: string): { connectionString: string; schema: string } {
  const parsed = parsePostgresSource(root);
  return { connectionString: credentials.get(serverKey(parsed.root)) ?? parsed.connectionString, schema: parsed.schema };
}

/** Dates, timestamps and intervals stay text (their ISO-like form); int8 and numeric become numbers. */
const TEXT_OIDS = [1082, 1083, 1114, 1184, 1186, 1266];
function typeParser(oid: number, format?: string): (value: string) => unknown {
  if (TEXT_OIDS.includes(oid)) return (v) => v;
  if (oid === 20) return (v) => BigInt(v);
  if (oid === 1700) return (v) => Number(v);
  return pg.types.getTypeParser(oid, format as 'text');
}

/** Runs `fn` inside a READ ONLY transaction on a fresh connection. */
export async function withReadOnlyPostgres<T>(root: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const { connectionString } = connectionFor(root);
  const client = new pg.Client({ connectionString, types: { getTypeParser: typeParser as never }, application_name: 'graft-catalog' });
  // A session the server ends (a restart, an administrator) is also emitted as 'error', which
  // ends the process when nobody listens; the query in flight, or the next, fails with it and
  // names the source (LakeReadError through the caller), so the event itself needs nothing more.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (err) {
    throw new LakeReadError(root, `cannot connect to PostgreSQL: ${(err as Error).message}`);
  }
  try {
    await client.query('BEGIN TRANSACTION READ ONLY');
    try {
      return await fn(client);
    } finally {
      await client.query('ROLLBACK').catch(() => {});
    }
  } finally {
    await client.end().catch(() => {});
  }
}

/** Base tables of the source's schema, by name. */
export async function listPostgresTables(url: string): Promise<LakeEntry[]> {
  const source = parsePostgresSource(url);
  rememberPostgresCredentials(source);
  return withReadOnlyPostgres(source.root, async (c) => {
    const r = await c.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY table_name`,
      [source.schema],
    );
    return r.rows.map((row) => ({ path: source.root, format: 'postgres' as const, pgTable: row.table_name }));
  });
}

export function postgresTableUri(entry: LakeEntry): string {
  return `${entry.path}#${entry.pgTable}`;
}

function qualified(entry: LakeEntry): string {
  return `${sqlIdent(connectionFor(entry.path).schema)}.${sqlIdent(entry.pgTable!)}`;
}

/** Logical type of a Postgres column (information_schema `data_type`). */
export function postgresLogicalType(dataType: string): LogicalType {
  const t = dataType.toLowerCase();
  if (['smallint', 'integer', 'bigint'].includes(t)) return 'integer';
  if (['real', 'double precision', 'numeric'].includes(t)) return 'float';
  if (t === 'boolean') return 'boolean';
  if (t === 'date') return 'date';
  if (t.startsWith('timestamp')) return 'timestamp';
  if (['text', 'character varying', 'character', 'uuid', 'name', 'citext'].includes(t) || t === 'user-defined') return 'text';
  return 'other';
}

interface PgColumn {
  name: string;
  dataType: string;
}

async function columnsOf(c: pg.Client, entry: LakeEntry): Promise<PgColumn[]> {
  const r = await c.query<{ column_name: string; data_type: string }>(
    `SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position`,
    [connectionFor(entry.path).schema, entry.pgTable],
  );
  if (r.rows.length === 0) throw new LakeReadError(postgresTableUri(entry), 'no such table (or no columns)');
  return r.rows.map((x) => ({ name: x.column_name, dataType: x.data_type }));
}

async function fingerprintWith(c: pg.Client, entry: LakeEntry, columns: PgColumn[]): Promise<{ fingerprint: string; rowCount: number }> {
  const r = await c.query<{ n: string; h: string }>(
    `SELECT count(*)::text AS n, coalesce(sum(('x' || substr(md5(t::text), 1, 15))::bit(60)::bigint::numeric), 0)::text AS h FROM ${qualified(entry)} AS t`,
  );
  const { n, h } = r.rows[0]!;
  return { fingerprint: createHash('sha256').update(JSON.stringify([columns, n, h])).digest('hex'), rowCount: Number(n) };
}

export async function fingerprintPostgresTable(entry: LakeEntry): Promise<string> {
  return withReadOnlyPostgres(entry.path, async (c) => (await fingerprintWith(c, entry, await columnsOf(c, entry))).fingerprint).catch(
    (err: unknown) => {
      if (err instanceof LakeReadError) throw err;
      throw new LakeReadError(postgresTableUri(entry), `cannot read table: ${(err as Error).message}`);
    },
  );
}

function cell(v: unknown): Cell {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean' || Buffer.isBuffer(v)) return v;
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

export async function profilePostgresTable(entry: LakeEntry, options: ProfileOptions = {}): Promise<TableProfile> {
  const { sampleRows, maxColumns } = resolveProfileOptions(options);
  const uri = postgresTableUri(entry);
  try {
    return await withReadOnlyPostgres(entry.path, async (c) => {
      const columns = await columnsOf(c, entry);
      if (columns.length > maxColumns) throw new LakeReadError(uri, `table has ${columns.length} columns, more than the limit of ${maxColumns}`);
      const { fingerprint, rowCount } = await fingerprintWith(c, entry, columns);
      const sampleN = effectiveSampleRows(sampleRows, columns.length);
      const sampled = rowCount > sampleN;
      // SYSTEM sampling reads whole pages; ask for twice the share needed so LIMIT is usually reached.
      const pct = sampled ? Math.min(100, (200 * sampleN) / rowCount) : 100;
      const from = sampled ? `${qualified(entry)} TABLESAMPLE SYSTEM (${pct.toFixed(6)}) REPEATABLE (42)` : qualified(entry);
      const rows = (await c.query({ text: `SELECT * FROM ${from} LIMIT ${sampleN}`, rowMode: 'array' })).rows as unknown[][];
      const stats = new Map<string, { nullFrac: number; nDistinct: number }>();
      if (sampled) {
        const s = await c.query<{ attname: string; null_frac: number; n_distinct: number }>(
          `SELECT attname, null_frac, n_distinct FROM pg_stats WHERE schemaname = $1 AND tablename = $2`,
          [connectionFor(entry.path).schema, entry.pgTable],
        );
        for (const x of s.rows) stats.set(x.attname, { nullFrac: Number(x.null_frac), nDistinct: Number(x.n_distinct) });
      }
      const warnings: string[] = [];
      if (rowCount === 0) warnings.push('table has no rows');
      if (sampled && stats.size === 0) warnings.push('no pg_stats for this table (never ANALYZEd): distinct counts are estimated from the sample');
      return {
        name: entry.pgTable!,
        uri,
        format: 'postgres',
        rowCount,
        profiledRows: rows.length,
        fingerprint,
        columns: columns.map((col, i) => {
          const acc = new ColumnAccumulator(col.name, i);
          for (const r of rows) acc.add(cell(r[i]));
          const st = stats.get(col.name);
          const distinct = st ? (st.nDistinct < 0 ? -st.nDistinct * rowCount : st.nDistinct) : undefined;
          const profile = acc.finish(postgresLogicalType(col.dataType), distinct);
          return st ? { ...profile, nullShare: st.nullFrac } : profile;
        }),
        warnings,
        sourceExpression: null,
      } satisfies TableProfile;
    });
  } catch (err) {
    if (err instanceof LakeReadError) throw err;
    throw new LakeReadError(uri, `cannot read table: ${(err as Error).message}`);
  }
}

/** Batches of rows (arrays) of the table through a server-side cursor, at most `maxRows` + 1. */
export async function readPostgresRows(
  entry: LakeEntry,
  maxRows: number,
  onBatch: (columns: { name: string; dataTypeID: number }[], rows: unknown[][]) => Promise<void>,
): Promise<void> {
  await withReadOnlyPostgres(entry.path, async (c) => {
    await c.query(`DECLARE graft_rows NO SCROLL CURSOR FOR SELECT * FROM ${qualified(entry)} LIMIT ${Math.max(0, Math.floor(maxRows)) + 1}`);
    for (;;) {
      const r = await c.query({ text: 'FETCH 10000 FROM graft_rows', rowMode: 'array' });
      await onBatch(r.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })), r.rows as unknown[][]);
      if (r.rows.length < 10000) break;
    }
  });
}

/** DuckDB column type for a Postgres result column (by type OID); everything else is text. */
function duckTypeForOid(oid: number): 'BOOLEAN' | 'BIGINT' | 'DOUBLE' | 'VARCHAR' {
  if (oid === 16) return 'BOOLEAN';
  if (oid === 20 || oid === 21 || oid === 23) return 'BIGINT';
  if (oid === 700 || oid === 701 || oid === 1700) return 'DOUBLE';
  return 'VARCHAR';
}

/**
 * Copies the first `maxRows` rows of a Postgres table (read-only cursor) into TEMP table
 * `target` of a DuckDB connection: integers BIGINT, floats / numeric DOUBLE, booleans BOOLEAN,
 * everything else its text form (dates and timestamps ISO-like).
 */
export async function copyPostgresTable(
  con: DuckDBConnection,
  entry: LakeEntry,
  target: string,
  maxRows: number,
): Promise<{ rows: number; truncated: boolean }> {
  const limit = Math.max(0, Math.floor(maxRows));
  let app: DuckDBAppender | undefined;
  let types: ReturnType<typeof duckTypeForOid>[] = [];
  let rows = 0;
  let truncated = false;
  try {
    await readPostgresRows(entry, limit, async (columns, batch) => {
      if (!app) {
        types = columns.map((c) => duckTypeForOid(c.dataTypeID));
        await con.run(`CREATE TEMP TABLE ${sqlIdent(target)} (${columns.map((c, i) => `${sqlIdent(c.name)} ${types[i]}`).join(', ')})`);
        app = await con.createAppender(target, 'main', 'temp');
      }
      for (const r of batch) {
        if (rows === limit) {
          truncated = true;
          return;
        }
        for (let i = 0; i < types.length; i++) {
          const v = r[i];
          if (v === null || v === undefined) app.appendNull();
          else if (types[i] === 'BOOLEAN') app.appendBoolean(Boolean(v));
          else if (types[i] === 'BIGINT') app.appendBigInt(BigInt(v as number | bigint));
          else if (types[i] === 'DOUBLE') app.appendDouble(Number(v));
          else app.appendVarchar(typeof v === 'object' && !Buffer.isBuffer(v) ? JSON.stringify(v) : String(v));
        }
        app.endRow();
        rows++;
      }
    });
    app?.flushSync();
  } catch (err) {
    if (err instanceof LakeReadError) throw err;
    throw new LakeReadError(postgresTableUri(entry), `cannot copy into DuckDB: ${(err as Error).message}`);
  } finally {
    app?.closeSync();
  }
  return { rows, truncated };
}
