import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import pg from 'pg';

/**
 * The raw connection under the Prisma client: used for multi-statement migration scripts, for
 * the few bulk statements Prisma cannot express (vector literals, set-based edge inserts), and on
 * the API's per-request paths (the scoped reader, the synthesis insert), where Prisma's own work
 * per statement costs more than the statement (on the embedded catalog 1.6 to 2 times as much for a small
 * SELECT, four to five times for one stored synthesis: `npx tsx bench/catalog-costs.ts`).
 */
export interface SqlExecutor {
  /** Runs a script of one or more statements (simple query protocol, no parameters). */
  exec(sql: string): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface SqlDriver extends SqlExecutor {
  readonly kind: 'pglite' | 'postgres';
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * PostgreSQL's buffer pool for the embedded catalog. PGlite zeroes the whole pool at every open,
 * inside the WebAssembly: the open takes about 0.8 s with PostgreSQL's default (128 MB) and 0.45 s
 * with 4 MB on the 2-core bench machine (`npm run bench:cli`). A one-shot command (list the
 * tables, create a token) reads a few pages once and gains nothing from a large pool; a server or
 * an ingest re-reads the catalog and keeps the default.
 */
export type BufferPool = 'default' | 'small';
const SMALL_SHARED_BUFFERS = '4MB';

export async function openPglite(dataDir: string, bufferPool: BufferPool = 'default'): Promise<{ driver: SqlDriver; client: PGlite }> {
  if (dataDir !== 'memory://') await mkdir(dataDir, { recursive: true });
  // Passed at start (like `postgres -c`), not written to the data folder's postgresql.conf: the
  // next process, e.g. a server, opens with its own pool.
  const startParams = bufferPool === 'small' ? [...PGlite.defaultStartParams, '-c', `shared_buffers=${SMALL_SHARED_BUFFERS}`] : undefined;
  const client = await PGlite.create(dataDir === 'memory://' ? undefined : dataDir, { extensions: { vector }, ...(startParams ? { startParams } : {}) });
  const wrap = (q: Pick<PGlite, 'exec' | 'query'>): SqlExecutor => ({
    async exec(sql) {
      await q.exec(sql);
    },
    async query<T>(sql: string, params?: unknown[]) {
      return (await q.query<T>(sql, params as unknown[])).rows;
    },
  });
  const driver: SqlDriver = {
    kind: 'pglite',
    ...wrap(client),
    transaction: (fn) => client.transaction((tx) => fn(wrap(tx))),
    close: () => client.close(),
  };
  return { driver, client };
}

/**
 * What becomes of an error on an idle pooled connection (the server restarted, an administrator
 * or a failover ended the session): pg-pool drops that connection and opens another on the next
 * query, so it is reported, not thrown.
 */
export type IdleConnectionErrorHandler = (err: Error) => void;

const reportIdleConnectionError: IdleConnectionErrorHandler = (err) => {
  process.stderr.write(`graft: an idle catalog connection to PostgreSQL ended (${err.message}); the next query opens a new one\n`);
};

export function openPostgresPool(databaseUrl: string, onIdleError: IdleConnectionErrorHandler = reportIdleConnectionError): { driver: SqlDriver; pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: Number(process.env.GRAFT_DB_POOL_SIZE ?? 10) });
  // An EventEmitter's 'error' with no listener is thrown, which ends the process. Prisma's adapter
  // listens only while it is connected: after `$disconnect`, while `end()` closes the connections
  // (it resolves once they are removed, before their sessions end), a session the server ends
  // then (DROP DATABASE ... WITH (FORCE), a shutdown) would crash the process. Errors of
  // connections being closed on purpose (`pool.ending`) are expected and not reported.
  pool.on('error', (err) => {
    if (!pool.ending) onIdleError(err);
  });
  const wrap = (q: pg.Pool | pg.PoolClient): SqlExecutor => ({
    async exec(sql) {
      await q.query(sql);
    },
    async query<T>(sql: string, params?: unknown[]) {
      return (await q.query(sql, params)).rows as T[];
    },
  });
  const driver: SqlDriver = {
    kind: 'postgres',
    ...wrap(pool),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const out = await fn(wrap(client));
        await client.query('COMMIT');
        return out;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
  return { driver, pool };
}
