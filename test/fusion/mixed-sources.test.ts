/**
 * Executable SQL over mixed sources: Spider's concert_singer database (third-party SQLite file)
 * with one of its tables exported to CSV, fused by the planner and checked row by row against a
 * hand-written join that SQLite runs on the original database.
 *
 * Iceberg: a Spark-written table with equality deletes from the duckdb-iceberg corpus
 * (../shared/lakehouse/duckdb-iceberg, whose sqllogictest gives the live rows) joined to a CSV.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDuckDB, profileEntry, type LakeEntry } from '../../src/lake/index.js';
import { countFusion, FusionExecutionError, planFusion, previewFusion, type FusionTable } from '../../src/fusion/index.js';
import { makeTempDir } from '../lake/helpers.js';
import { cid, joinEdge, tid } from './helpers.js';

const SPIDER_DB = path.resolve('../shared/data-raw/spider/database/concert_singer/concert_singer.sqlite');
/** Rows 1..6 inserted, 1, 2, 3 and 6 deleted again by equality deletes: ids 4 and 5 are live. */
const ICEBERG_TABLE = path.resolve('../shared/lakehouse/duckdb-iceberg/data/persistent/equality_deletes/warehouse/mydb/mytable');

let dir: string;
let cleanup: () => Promise<void>;
const tables: Record<string, FusionTable> = {};

/** A FusionTable from the table's real profile (what ingest stores), ids as in helpers.ts. */
async function profiled(entry: LakeEntry, name: string): Promise<FusionTable> {
  const p = await profileEntry(entry);
  return {
    id: tid(name),
    name,
    uri: p.uri,
    format: p.format,
    columns: p.columns.map((c) => ({ id: cid(name, c.name), name: c.name, logicalType: c.logicalType })),
    ...(p.csv ? { csv: p.csv } : {}),
  };
}

function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Rows as sorted JSON lines of text cells, so engines' number/text forms compare equal. */
function canonical(rows: unknown[][]): string[] {
  return rows
    .map((r) => JSON.stringify(r.map((v) => (v === null || v === undefined ? null : typeof v === 'number' && Number.isInteger(v) ? String(v) : String(v)))))
    .sort();
}

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('fusion-mixed'));
  const db = new Database(SPIDER_DB, { readonly: true, fileMustExist: true });
  try {
    const stmt = db.prepare('SELECT * FROM stadium ORDER BY rowid').raw(true);
    const header = stmt.columns().map((c) => c.name);
    const lines = [header.join(','), ...(stmt.all() as unknown[][]).map((r) => r.map(csvCell).join(','))];
    await writeFile(path.join(dir, 'stadium.csv'), `${lines.join('\n')}\n`);
  } finally {
    db.close();
  }
  tables.concert = await profiled({ path: SPIDER_DB, format: 'sqlite', sqliteTable: 'concert' }, 'concert');
  tables.singer_in_concert = await profiled({ path: SPIDER_DB, format: 'sqlite', sqliteTable: 'singer_in_concert' }, 'singer_in_concert');
  tables.stadium = await profiled({ path: path.join(dir, 'stadium.csv'), format: 'csv' }, 'stadium');
});

afterAll(async () => {
  await closeDuckDB();
  await cleanup?.();
});

describe('fused SQL over SQLite and CSV', () => {
  it('the fixture is there', () => {
    expect(existsSync(SPIDER_DB), SPIDER_DB).toBe(true);
  });

  it('matches a hand-written SQLite join row for row, and says what read each table', async () => {
    const plan = planFusion({
      tables: [tables.singer_in_concert!, tables.concert!, tables.stadium!],
      joins: [joinEdge('singer_in_concert.concert_ID', 'concert.concert_ID'), joinEdge('concert.Stadium_ID', 'stadium.Stadium_ID')],
      unions: [],
      filters: [{ columnId: cid('stadium', 'Capacity'), operator: '>', literal: 3000 }],
    });
    expect(plan.executable, plan.warnings.join('\n')).toBe(true);
    // The SQL a stock DuckDB runs with its sqlite extension; graft runs it from copies.
    expect(plan.sql).toContain(`sqlite_scan('${SPIDER_DB}', 'concert')`);
    expect(plan.sql).toContain('read_csv(');
    expect(plan.sources.map((s) => [s.name, s.copiedBy])).toEqual([
      ['singer_in_concert', 'better-sqlite3'],
      ['concert', 'better-sqlite3'],
      ['stadium', null],
    ]);

    const preview = await previewFusion(plan, 1000);
    expect(preview.engine).toBe('duckdb');
    expect(preview.sources.map((s) => [s.name, s.readBy, s.copiedRows])).toEqual([
      ['singer_in_concert', 'better-sqlite3', 10],
      ['concert', 'better-sqlite3', 6],
      ['stadium', 'duckdb', null],
    ]);
    expect(preview.warnings).toEqual([]);

    const db = new Database(SPIDER_DB, { readonly: true });
    const expected = db
      .prepare(
        `SELECT sic.concert_ID, sic.Singer_ID, c.concert_Name, c.Theme, c.Stadium_ID, c.Year,
                s.Location, s.Name, s.Capacity, s.Highest, s.Lowest, s.Average
           FROM singer_in_concert sic
           JOIN concert c ON c.concert_ID = sic.concert_ID
           JOIN stadium s ON c.Stadium_ID = s.Stadium_ID
          WHERE s.Capacity > 3000`,
      )
      .raw(true)
      .all() as unknown[][];
    db.close();
    expect(expected.length).toBeGreaterThan(3);
    expect(preview.columns).toEqual([
      'concert_ID', 'Singer_ID', 'concert_Name', 'Theme', 'Stadium_ID', 'Year',
      'Location', 'Name', 'Capacity', 'Highest', 'Lowest', 'Average',
    ]);
    expect(preview.rowCountExact).toBe(expected.length);
    expect(canonical(preview.rows.map((r) => preview.columns.map((c) => r[c])))).toEqual(canonical(expected));
    expect(await countFusion(plan)).toBe(expected.length);
  });

  it('bounds the rows it copies and says so; an exact count then refuses', async () => {
    const plan = planFusion({
      tables: [tables.singer_in_concert!, tables.concert!],
      joins: [joinEdge('singer_in_concert.concert_ID', 'concert.concert_ID')],
      unions: [],
    });
    const preview = await previewFusion(plan, 100, { maxCopiedRows: 3 });
    expect(preview.sources.map((s) => [s.copiedRows, s.truncated])).toEqual([
      [3, true],
      [3, true],
    ]);
    expect(preview.rowCountExact).toBeUndefined();
    expect(preview.warnings.join('\n')).toMatch(/singer_in_concert has more than 3 rows/);
    await expect(countFusion(plan, { maxCopiedRows: 3 })).rejects.toThrow(/cannot count exactly: singer_in_concert, concert/);
    expect(await countFusion(plan)).toBe(10);
  });

  it('a SQLite table that vanished gives a LAKE_READ error naming it', async () => {
    const gone: FusionTable = { ...tables.concert!, uri: `${path.join(dir, 'missing.sqlite')}#concert` };
    const plan = planFusion({ tables: [tables.singer_in_concert!, gone], joins: [joinEdge('singer_in_concert.concert_ID', 'concert.concert_ID')], unions: [] });
    const err = await previewFusion(plan, 5).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FusionExecutionError);
    expect((err as FusionExecutionError).code).toBe('LAKE_READ');
    expect((err as Error).message).toMatch(/reading concert .*missing\.sqlite/);
  });

});

describe('fused SQL over Iceberg, SQLite and CSV', () => {
  it('joins only the live rows of the Iceberg table (deletes applied, read in place) and matches a hand-written query', async () => {
    const ice = await profiled({ path: ICEBERG_TABLE, format: 'iceberg' }, 'mytable');
    expect(ice.format).toBe('iceberg');
    // Visit i is of person i (the Iceberg table's id) to concert i (Spider's SQLite concert table).
    await writeFile(path.join(dir, 'visits.csv'), 'visit_id,id,concert_ID\n' + [1, 2, 3, 4, 5, 6].map((i) => `${10 + i},${i},${i}`).join('\n') + '\n');
    const visits = await profiled({ path: path.join(dir, 'visits.csv'), format: 'csv' }, 'visits');
    const plan = planFusion({
      tables: [visits, ice, tables.concert!],
      joins: [joinEdge('visits.id', 'mytable.id'), joinEdge('visits.concert_ID', 'concert.concert_ID')],
      unions: [],
    });
    expect(plan.executable, plan.warnings.join('\n')).toBe(true);
    // What a stock DuckDB with its iceberg and sqlite extensions would run.
    expect(plan.sql).toContain(`iceberg_scan('${ICEBERG_TABLE}')`);
    expect(plan.sql).toContain(`sqlite_scan('${SPIDER_DB}', 'concert')`);
    expect(plan.sources.map((s) => [s.name, s.copiedBy])).toEqual([
      ['visits', null],
      ['mytable', 'graft-iceberg'],
      ['concert', 'better-sqlite3'],
    ]);
    const preview = await previewFusion(plan, 100);
    expect(preview.sources.map((s) => [s.name, s.readBy, s.copiedRows, s.truncated])).toEqual([
      ['visits', 'duckdb', null, false],
      ['mytable', 'graft-iceberg', null, false],
      ['concert', 'better-sqlite3', 6, false],
    ]);
    // By hand: the Iceberg table's live rows are ids 4 and 5 (its sqllogictest says so).
    const db = new Database(SPIDER_DB, { readonly: true });
    const concertName = (id: number) => (db.prepare('SELECT concert_Name FROM concert WHERE concert_ID = ?').get(id) as { concert_Name: string }).concert_Name;
    const expected = [
      ['14', '4', 'd', concertName(4)],
      ['15', '5', 'e', concertName(5)],
    ];
    db.close();
    const got = preview.rows.map((r) => [String(r.visit_id), String(r.id), String(r.name), String(r.concert_Name)]).sort();
    expect(got).toEqual(expected);
    expect(await countFusion(plan)).toBe(2);
  });
});
