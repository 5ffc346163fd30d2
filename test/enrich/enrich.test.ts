import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCatalog, type CatalogDatabase } from '../../src/catalog/index.js';
import { embedderConfigFromEnv, HashedNgramEmbedder } from '../../src/embed/index.js';
import { enrichFromRequest, enrichOnPool, enrichTable, type EnrichResult } from '../../src/enrich/index.js';
import { createEngine, EnginePool, type Engine } from '../../src/engine/index.js';
import { ingestLake } from '../../src/ingest/index.js';
import { closeDuckDB } from '../../src/lake/index.js';
import { BadInputError, NotFoundError } from '../../src/util/errors.js';
import { ALL_ROWS, house, writeHousingLake } from './housingLake.js';

describe('enrich (hand-made housing lake)', () => {
  let root: string;
  let db: CatalogDatabase;
  let engine: Engine;
  let idOf: (name: string) => string;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'graft-enrich-'));
    await writeHousingLake(root);
    db = await openCatalog({ dataDir: 'memory://' });
    const embedder = new HashedNgramEmbedder();
    const s = await ingestLake(db, root, { embedder });
    expect(s.tablesFailed).toBe(0);
    engine = createEngine(db, embedder, { valueModel: 'off' });
    const snap = await engine.snapshot();
    idOf = (name) => snap.tables.find((t) => t.name === name)!.id;
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    await closeDuckDB();
    await rm(root, { recursive: true, force: true });
  });

  it('adds the column shard by a key join and the row shard by a union, not the copy', async () => {
    const r = await enrichTable(engine, idOf('houses'), { target: 'price', budget: 5 });
    expect(r.task).toBe('regression');
    expect(r.tables.map((t) => [t.name, t.role])).toEqual(
      expect.arrayContaining([
        ['houses', 'base'],
        ['house_details', 'join'],
        ['houses_2024', 'union'],
      ]),
    );
    expect(r.tables).toHaveLength(3);
    expect(r.rejected.find((x) => x.name === 'house_details_backup')?.reason).toBe('redundant');
    expect(r.tables.find((t) => t.name === 'house_details')!.newColumns).toEqual(['bedrooms', 'year_built', 'lot_size']);
    expect(r.tables.find((t) => t.name === 'house_details')!.join).toMatchObject({ baseColumn: 'house_id', column: 'house_id' });
    expect(r.tables.find((t) => t.name === 'houses_2024')!.newRows).toBe(90);
    // The IGMS explanation sees the same set and puts a gain on each added table.
    expect(r.explanation.tables.map((t) => t.name).sort()).toEqual(['house_details', 'houses', 'houses_2024']);
    expect(r.explanation.tables.every((t) => t.marginalGain > 0)).toBe(true);
  });

  it('the enriched table has every house once, with the attributes of its own row', async () => {
    const r = await enrichTable(engine, idOf('houses'), { target: 'price', preview: 500 });
    expect(r.columns).toEqual(['house_id', 'city', 'sqft', 'price', 'bedrooms', 'year_built', 'lot_size']);
    expect(r.rowCount).toBe(ALL_ROWS);
    expect(r.labelledRows).toBe(ALL_ROWS);
    const rows = r.preview!.rows;
    expect(rows).toHaveLength(ALL_ROWS);
    expect(new Set(rows.map((x) => x.house_id)).size).toBe(ALL_ROWS);
    for (const row of rows) {
      const h = house(row.house_id as number);
      expect(row).toEqual({ ...h });
    }
  });

  it('never leaks the target: a column equal to it for the same rows is left out unless asked for', async () => {
    const r = await enrichTable(engine, idOf('houses'), { target: 'price' });
    expect(r.tables.map((t) => t.name)).not.toContain('valuations');
    expect(r.rejected.find((x) => x.name === 'valuations')?.reason).toBe('leaks-target');
    expect(r.leaks).toEqual([{ table: 'valuations', column: 'assessed_value', evidence: 'equal', kept: false }]);
    expect(r.columns).not.toContain('assessed_value');

    const asked = await enrichTable(engine, idOf('houses'), { target: 'price', features: ['sqft', 'assessed_value'] });
    expect(asked.tables.map((t) => t.name)).toContain('valuations');
    expect(asked.leaks).toEqual([{ table: 'valuations', column: 'assessed_value', evidence: 'equal', kept: true }]);
    expect(asked.columns).toEqual(['house_id', 'sqft', 'price', 'assessed_value']);
  });

  it('grants: a hidden table is neither added nor usable as the base', async () => {
    const hidden = idOf('house_details');
    const allowTable = (t: { id: string }) => t.id !== hidden;
    const r = await enrichTable(engine, idOf('houses'), { target: 'price', allowTable });
    expect(r.tables.map((t) => t.id)).not.toContain(hidden);
    expect(r.rejected.map((t) => t.id)).not.toContain(hidden);
    expect(r.sql).not.toContain('house_details.csv');
    await expect(enrichTable(engine, hidden, { target: 'bedrooms', allowTable })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('bad input names the field', async () => {
    await expect(enrichTable(engine, idOf('houses'), { target: 'cost' })).rejects.toMatchObject({ details: { field: 'target' } });
    await expect(enrichTable(engine, idOf('houses'), { target: 'price', budget: -1 })).rejects.toBeInstanceOf(BadInputError);
    await expect(enrichTable(engine, idOf('houses'), { target: 'price', features: ['price'] })).rejects.toMatchObject({ details: { field: 'features' } });
  });

  it('budget 0 returns the base alone', async () => {
    const r = await enrichTable(engine, idOf('houses'), { target: 'price', budget: 0 });
    expect(r.tables.map((t) => t.name)).toEqual(['houses']);
    expect(r.rowCount).toBe(150);
  });

  it("runs in the engine pool's workers (enrichOnPool) with the in-process answers, errors and grants", async () => {
    const pool = new EnginePool(db, embedderConfigFromEnv({}), { threads: 1, warmupMs: 0 });
    try {
      const onPool = enrichOnPool(pool);
      const same = ({ elapsedMs: _ms, ...r }: EnrichResult) => r;
      const opts = { target: 'price', budget: 5, preview: 20 };
      expect((await pool.workerStatus()).generation).toBeNull();
      expect(same(await onPool.enrich(idOf('houses'), opts))).toEqual(same(await enrichTable(engine, idOf('houses'), opts)));
      // The worker (one thread) read the catalog snapshot for it: the search ran there.
      expect((await pool.workerStatus()).generation).not.toBeNull();
      const request = 'Find tables that help predict price in the houses table';
      expect(same((await onPool.enrichRequest(request, {}))!)).toEqual(same((await enrichFromRequest(engine, request))!));
      expect(await onPool.enrichRequest('Which houses cost more than 500?', {})).toBeNull();
      await expect(onPool.enrich(idOf('houses'), { target: 'cost' })).rejects.toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'target' } });
      const hidden = idOf('house_details');
      const allowTable = (t: { id: string }) => t.id !== hidden;
      expect((await onPool.enrich(idOf('houses'), { target: 'price', allowTable })).tables.map((t) => t.id)).not.toContain(hidden);
      await expect(onPool.enrich(hidden, { target: 'bedrooms', allowTable })).rejects.toMatchObject({ code: 'NOT_FOUND' });
      const cancelled = new AbortController();
      cancelled.abort(new Error('the caller went away'));
      await expect(onPool.enrich(idOf('houses'), { target: 'price', signal: cancelled.signal })).rejects.toThrow('the caller went away');
    } finally {
      await pool.close();
    }
  });

  it('a request in words names the table and the target', async () => {
    const r = await enrichFromRequest(engine, 'Find tables that help predict price in the houses table');
    expect(r!.baseTable.name).toBe('houses');
    expect(r!.target).toBe('price');
    expect(r!.tables.map((t) => t.name).sort()).toEqual(['house_details', 'houses', 'houses_2024']);
    // Without a table: the one table holding the column; several is ambiguous.
    expect((await enrichFromRequest(engine, 'which tables help predict assessed value?'))!.baseTable.name).toBe('valuations');
    await expect(enrichFromRequest(engine, 'find tables that help predict price in this table')).rejects.toThrow(/column of 2 tables/);
    await expect(enrichFromRequest(engine, 'find tables that help predict price in the flats table')).rejects.toThrow(/no table named "flats"/);
    expect(await enrichFromRequest(engine, 'Which houses cost more than 500?')).toBeNull();
  });
});
