import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  findTables,
  readColumnCorpus,
  readColumnEmbeddings,
  readJoinEdges,
  readMajorityEmbeddingModel,
  readReadyTables,
  readUnionEdges,
  TableState,
} from '../../src/catalog/index.js';
import { LakeSnapshot } from '../../src/search/index.js';
import { openDemoCatalog, type DemoCatalog } from '../support/demoLake.js';

/** The catalog read path (catalog/read.ts) over an ingested demo lake on PGlite. */
describe('catalog read path', () => {
  let demo: DemoCatalog;
  beforeAll(async () => {
    demo = await openDemoCatalog();
  }, 120_000);
  afterAll(async () => demo?.close());

  it('reads ready tables in uri order with columns in ordinal order and their source root', async () => {
    const tables = await readReadyTables(demo.db);
    expect(tables.length).toBeGreaterThan(3);
    const uris = tables.map((t) => t.uri);
    expect(uris).toEqual([...uris].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    for (const t of tables) {
      expect(t.columns.map((c) => c.ordinal)).toEqual([...t.columns.map((c) => c.ordinal)].sort((a, b) => a - b));
      expect(t.source.rootPath.length).toBeGreaterThan(0);
    }
  });

  it('keeps the vectors of one model, one per column, and edges between stored columns', async () => {
    const model = await readMajorityEmbeddingModel(demo.db);
    expect(model).not.toBeNull();
    const vectors = await readColumnEmbeddings(demo.db, model!);
    const columns = (await readReadyTables(demo.db)).flatMap((t) => t.columns);
    expect(vectors.size).toBe(columns.length);
    for (const c of columns) expect(vectors.get(c.id)!.length).toBeGreaterThan(0);
    expect((await readColumnEmbeddings(demo.db, 'no-such-model')).size).toBe(0);

    const ids = new Set(columns.map((c) => c.id));
    const joins = await readJoinEdges(demo.db);
    expect(joins.length).toBeGreaterThan(0);
    for (const j of joins) expect(ids.has(j.fromColumnId) && ids.has(j.toColumnId)).toBe(true);
    for (const u of await readUnionEdges(demo.db)) {
      expect(Array.isArray(u.alignment)).toBe(true);
      for (const p of u.alignment) expect(ids.has(p.columnAId) && ids.has(p.columnBId)).toBe(true);
    }
    expect((await readColumnCorpus(demo.db)).length).toBe(columns.length);
  });

  it("reads a table for `graft table` with how many values each column keeps as hashes, not the hashes", async () => {
    const [player] = await findTables(demo.db, 'player');
    const column = (name: string) => player.columns.find((c) => c.name === name)!;
    expect(column('full_name').hashedValues).toBe(150);
    expect(column('nationality').hashedValues).toBe(0);
    expect(column('player_id').hashedValues).toBe(0);
    for (const c of player.columns) expect(c).not.toHaveProperty('valueHashes');
    expect(JSON.stringify(player, (_k, v) => (typeof v === 'bigint' ? Number(v) : v)).length).toBeLessThan(20_000);
  });

  it('hides a pending table from the tables read and from the snapshot built on it', async () => {
    const [first] = await readReadyTables(demo.db);
    await demo.db.prisma.lakeTable.update({ where: { id: first.id }, data: { state: TableState.pending } });
    try {
      expect((await readReadyTables(demo.db)).some((t) => t.id === first.id)).toBe(false);
      const snap = await LakeSnapshot.load(demo.db);
      expect(snap.tableById.has(first.id)).toBe(false);
      for (const t of snap.tables) expect(snap.neighbours(t.id).some((n) => n.tableId === first.id)).toBe(false);
      // The corpus stays the whole catalog: refitting must give ingest's space.
      expect((await readColumnCorpus(demo.db)).length).toBe(first.columns.length + (await readReadyTables(demo.db)).flatMap((t) => t.columns).length);
    } finally {
      await demo.db.prisma.lakeTable.update({ where: { id: first.id }, data: { state: TableState.ready } });
    }
  });
});
