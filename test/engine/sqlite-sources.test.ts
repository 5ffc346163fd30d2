/**
 * `graft ask` over a catalog of SQLite tables (Spider's concert_singer database, third-party):
 * the answer's SQL is executable and its preview runs (SQLite copied into DuckDB), matching
 * what SQLite itself returns for the same question.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogDatabase } from '../../src/catalog/index.js';
import { HashedNgramEmbedder } from '../../src/embed/index.js';
import { createEngine } from '../../src/engine/index.js';
import { ingestLake } from '../../src/ingest/index.js';
import { closeDuckDB } from '../../src/lake/index.js';
import { catalogBackends } from '../support/catalogs.js';

const SPIDER_DB = path.resolve('../shared/data-raw/spider/database/concert_singer/concert_singer.sqlite');

describe('engine over SQLite sources', () => {
  let db: CatalogDatabase;
  const embedder = new HashedNgramEmbedder();

  beforeAll(async () => {
    db = await catalogBackends[0]!.open();
    const s = await ingestLake(db, SPIDER_DB, { embedder });
    expect(s.status).toBe('succeeded');
  });
  afterAll(async () => {
    await db?.close();
    await closeDuckDB();
  });

  it('gives runnable SQL and a preview that matches SQLite', async () => {
    const engine = createEngine(db, embedder);
    const r = await engine.synthesize('Which stadiums have a capacity above 5000?', { budget: 3, preview: 50 });
    expect(r.plan.executable, r.warnings.join('\n')).toBe(true);
    expect(r.plan.sql).toContain(`sqlite_scan('${SPIDER_DB}', 'stadium')`);
    expect(r.preview?.engine).toBe('duckdb');
    expect(r.preview?.readBy).toMatchObject({ stadium: 'better-sqlite3' });
    const sqlite = new Database(SPIDER_DB, { readonly: true });
    const expected = (sqlite.prepare('SELECT Name FROM stadium WHERE Capacity > 5000').raw(true).all() as string[][]).map((x) => x[0]).sort();
    sqlite.close();
    expect(expected.length).toBeGreaterThan(0);
    expect(r.preview!.rows.map((row) => String(row['Name'])).sort()).toEqual(expected);
  });
});
