/**
 * A CSV table is read the way profiling settled on over the whole file, also after ingest: the
 * read options are stored with the table, so fused SQL and previews neither sniff the file's
 * start again on every request nor miss what only the whole file shows (here a Latin-1 byte
 * after the first MiB, which a sniff of the start takes for UTF-8). The engine runs on a worker
 * thread, as under `graft serve`: nothing there remembers what the ingest profiled. A catalog
 * stored before the options were says so (`catalogNotices`) until the next ingest mends it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogNotices, type CatalogDatabase } from '../../src/catalog/index.js';
import { embedderConfigFromEnv, HashedNgramEmbedder } from '../../src/embed/index.js';
import { EnginePool } from '../../src/engine/index.js';
import { ingestLake } from '../../src/ingest/index.js';
import { closeDuckDB, PROFILE_VERSION, withDuckDB } from '../../src/lake/index.js';
import { catalogBackends } from '../support/catalogs.js';

const ROWS = 80_000; // about 1.3 MB of ASCII before the last row

describe.each(catalogBackends)('CSV read options on $name', (backend) => {
  let db: CatalogDatabase;
  let lake: string;
  const embedder = new HashedNgramEmbedder();

  beforeAll(async () => {
    lake = await mkdtemp(path.join(os.tmpdir(), 'graft-csv-options-'));
    const ascii = Array.from({ length: ROWS }, (_, i) => `Town${String(i).padStart(6, '0')},${1000 + (i % 5000)}\n`).join('');
    const latin1 = Buffer.from([0x4d, 0xfc, 0x6e, 0x73, 0x74, 0x65, 0x72]); // "Münster" in Latin-1
    await writeFile(path.join(lake, 'city_population.csv'), Buffer.concat([Buffer.from(`city,population\n${ascii}`), latin1, Buffer.from(',99999\n')]));
    db = await backend.open();
    const s = await ingestLake(db, lake, { embedder });
    expect(s.status).toBe('succeeded');
  });
  afterAll(async () => {
    await db?.close();
    await closeDuckDB();
    await rm(lake, { recursive: true, force: true });
  });

  it('stores them with the table and reads the whole file by them', async () => {
    const [table] = await db.prisma.lakeTable.findMany({ where: { uri: { startsWith: lake } } });
    expect(table.csvOptions).toMatchObject({ encoding: 'latin-1' });
    expect(table.profileVersion).toBe(PROFILE_VERSION);

    const pool = new EnginePool(db, embedderConfigFromEnv({}), { threads: 1 });
    const r = await pool.synthesize('What is the population of each city?', { budget: 1 }).finally(() => pool.close());
    expect(r.tables.map((t) => t.name)).toEqual(['city_population']);
    const sql = r.plan.sql ?? '';
    expect(sql).toContain("encoding='latin-1'");
    const rows = await withDuckDB(async (con) => (await con.runAndReadAll(`SELECT city FROM (${sql.replace(/;\s*$/, '')}) WHERE population = 99999`)).getRowObjects());
    expect(rows.map((x) => String(x.city))).toEqual(['Münster']);
  });

  it('profiles once more a CSV table stored without them (an older catalog), then skips it again', async () => {
    expect(await catalogNotices(db)).toEqual([]);
    // What version 0 of the profiler stored, as the migration to profile versions marks it.
    await db.sql.query('UPDATE lake_table SET csv_options = NULL, profile_version = 0 WHERE uri LIKE $1', [`${lake}%`]);
    // graft doctor and graft serve say so, and what mends it.
    expect(await catalogNotices(db)).toEqual([expect.stringMatching(/^1 table was profiled by an older version of graft .*the next ingest of its folder profiles it again$/)]);
    const again = await ingestLake(db, lake, { embedder });
    expect(await catalogNotices(db)).toEqual([]);
    expect({ ingested: again.tablesIngested, skipped: again.tablesSkipped }).toEqual({ ingested: 1, skipped: 0 });
    expect(again.warnings.map((w) => w.message).filter((m) => /identical content/.test(m))).toEqual([]); // not a twin of itself
    const [table] = await db.prisma.lakeTable.findMany({ where: { uri: { startsWith: lake } } });
    expect(table.csvOptions).toMatchObject({ encoding: 'latin-1' });
    expect(table.profileVersion).toBe(PROFILE_VERSION);
    const third = await ingestLake(db, lake, { embedder });
    expect({ ingested: third.tablesIngested, skipped: third.tablesSkipped }).toEqual({ ingested: 0, skipped: 1 });
  });
});
