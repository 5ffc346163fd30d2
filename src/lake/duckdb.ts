/**
 * One DuckDB instance per process (in-memory, lazily created): DuckDB start-up costs tens of
 * milliseconds and the instance owns the thread pool, so every read shares it and gets its own
 * short-lived connection. `closeDuckDB` releases it (tests, CLI shutdown); the next use
 * creates a fresh one.
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

let instance: Promise<DuckDBInstance> | null = null;

export function getDuckDB(): Promise<DuckDBInstance> {
  if (!instance) {
    const created = DuckDBInstance.create(':memory:');
    instance = created;
    // A failed start must not poison later calls.
    created.catch(() => {
      if (instance === created) instance = null;
    });
  }
  return instance;
}

export async function closeDuckDB(): Promise<void> {
  const current = instance;
  instance = null;
  if (current) {
    try {
      (await current).closeSync();
    } catch {
      // Creation failed or already closed: nothing to release.
    }
  }
}

/** Run `fn` on a fresh connection of the shared instance; the connection is closed afterwards. */
export async function withDuckDB<T>(fn: (con: DuckDBConnection) => Promise<T>): Promise<T> {
  const con = await (await getDuckDB()).connect();
  try {
    return await fn(con);
  } finally {
    con.closeSync();
  }
}

/** First non-blank line of a DuckDB error message (the rest is SQL context), capped at 300 chars. */
export function duckdbMessage(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const first = text.split('\n').find((l) => l.trim() !== '') ?? text;
  return first.trim().slice(0, 300);
}
