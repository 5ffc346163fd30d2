/** Real lake files for tests, written under a fresh temp directory. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { withDuckDB } from '../../src/lake/duckdb.js';
import { sqlString } from '../../src/lake/sql.js';

export async function makeTempDir(label: string): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), `graft-lake-${label}-`));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export async function writeText(path: string, text: string | Buffer): Promise<string> {
  await writeFile(path, text);
  return path;
}

/** Writes `SELECT ...` as a Parquet file through DuckDB. */
export async function writeParquet(path: string, select: string): Promise<string> {
  await withDuckDB((con) => con.run(`COPY (${select}) TO ${sqlString(path)} (FORMAT parquet)`));
  return path;
}

/** Creates a SQLite database with the given DDL/DML script. */
export function writeSqlite(path: string, script: string, rows?: { sql: string; values: unknown[][] }): string {
  const db = new Database(path);
  try {
    db.exec(script);
    if (rows) {
      const stmt = db.prepare(rows.sql);
      db.transaction(() => {
        for (const r of rows.values) stmt.run(...r);
      })();
    }
  } finally {
    db.close();
  }
  return path;
}
