import { copyFile, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogStore, GRAPH_RULES_STATE_KEY, lakeFingerprint, staleEdgeRules } from '../../src/catalog/index.js';
import type { CatalogDatabase } from '../../src/catalog/database.js';
import { graphRulesVersion } from '../../src/graph/index.js';
import { HashedNgramEmbedder } from '../../src/embed/index.js';
import { ingestLake } from '../../src/ingest/index.js';
import { catalogBackends } from '../support/catalogs.js';
import { makeDemoLake, type DemoGold } from '../support/demoLake.js';

/** The catalog's edges as table.column pairs (direction-free for joins). */
async function edgeSets(db: CatalogDatabase) {
  const joins = await db.prisma.joinEdge.findMany({
    include: { fromColumn: true, toColumn: true, fromTable: true, toTable: true },
  });
  const unions = await db.prisma.unionEdge.findMany({ include: { tableA: true, tableB: true } });
  const joinKey = (a: string, b: string) => [a, b].sort().join(' ~ ');
  return {
    joins: new Set(joins.map((j) => joinKey(`${j.fromTable.name}.${j.fromColumn.name}`, `${j.toTable.name}.${j.toColumn.name}`))),
    unions: new Set(unions.map((u) => [u.tableA.name, u.tableB.name].sort().join(' ~ '))),
    joinKey,
  };
}

/** Everything a clean ingest determines, independent of generated ids and timestamps. */
async function catalogSnapshot(db: CatalogDatabase) {
  const tables = await db.prisma.lakeTable.findMany({ include: { columns: { include: { embedding: true } } }, orderBy: { uri: 'asc' } });
  const embeddings = await db.prisma.$queryRawUnsafe<{ uri: string; name: string; v: string }[]>(
    `SELECT t.uri, c.name, e.embedding::text AS v FROM column_embedding e JOIN lake_column c ON c.id = e.column_id
     JOIN lake_table t ON t.id = c.table_id ORDER BY t.uri, c.ordinal`,
  );
  const joins = await db.prisma.joinEdge.findMany({ include: { fromColumn: true, toColumn: true, fromTable: true, toTable: true } });
  const unions = await db.prisma.unionEdge.findMany({ include: { tableA: true, tableB: true } });
  return {
    tables: tables.map((t) => ({
      uri: t.uri, fingerprint: t.fingerprint, rowCount: t.rowCount,
      columns: t.columns.map((c) => ({ name: c.name, type: c.logicalType, minhash: c.minhash, samples: c.sampleValues })),
    })),
    embeddings: embeddings.map((e) => `${e.uri}.${e.name}=${e.v}`),
    joins: joins
      .map((j) => `${j.fromTable.uri}.${j.fromColumn.name}->${j.toTable.uri}.${j.toColumn.name}:${j.score.toFixed(6)}`)
      .sort(),
    unions: unions.map((u) => [u.tableA.uri, u.tableB.uri].sort().join('~') + `:${u.score.toFixed(6)}`).sort(),
  };
}

describe.each(catalogBackends)('ingest on $name', (backend) => {
  let db: CatalogDatabase;
  let lake: string;
  let gold: DemoGold;
  const embedder = new HashedNgramEmbedder();

  beforeAll(async () => {
    ({ dir: lake, gold } = await makeDemoLake());
    db = await backend.open();
  });
  afterAll(async () => {
    await db?.close();
    await rm(lake, { recursive: true, force: true });
  });

  it('ingests the demo lake and finds its joins and shard unions with full precision and recall', async () => {
    // An empty catalog has no edges to be stale: nothing to warn about before the first ingest.
    expect(await staleEdgeRules(db)).toBeNull();
    const s = await ingestLake(db, lake, { embedder });
    expect(s.warnings.some((w) => /re-derived/.test(w.message))).toBe(false);
    expect(s.status).toBe('succeeded');
    expect(s.tablesIngested).toBe((await readdir(lake)).length);
    const { joins, unions, joinKey } = await edgeSets(db);

    const required = gold.joins.map((j) => joinKey(j.from, j.to));
    const acceptable = new Set([...required, ...gold.acceptableJoins.map((j) => joinKey(j.from, j.to))]);
    const found = [...joins];
    const truePositives = found.filter((j) => acceptable.has(j));
    const recall = required.filter((j) => joins.has(j)).length / required.length;
    const precision = truePositives.length / found.length;
    expect({ recall, missing: required.filter((j) => !joins.has(j)) }).toEqual({ recall: 1, missing: [] });
    expect({ precision, spurious: found.filter((j) => !acceptable.has(j)) }).toEqual({ precision: 1, spurious: [] });
    for (const n of gold.nonJoins) expect(joins.has(joinKey(n.from, n.to)), `non-join ${n.from} ~ ${n.to}`).toBe(false);

    for (const [a, b] of gold.unions) expect(unions.has([a, b].sort().join(' ~ ')), `union ${a} ~ ${b}`).toBe(true);
    for (const [a, b] of gold.nonUnions) expect(unions.has([a, b].sort().join(' ~ ')), `non-union ${a} ~ ${b}`).toBe(false);
    const shardScores = await db.prisma.unionEdge.findMany({ where: { tableA: { name: { startsWith: 'game_results' } } } });
    for (const u of shardScores) expect(u.score).toBeGreaterThanOrEqual(0.8);

    expect(await db.prisma.columnEmbedding.count()).toBe(await db.prisma.lakeColumn.count());
    const run = await db.prisma.ingestRun.findUniqueOrThrow({ where: { id: s.runId } });
    expect(run).toMatchObject({ status: 'succeeded', tablesIngested: s.tablesIngested });
    expect(run.finishedAt).not.toBeNull();
  });

  it('re-ingesting the unchanged lake is a no-op that changes nothing', async () => {
    const before = await catalogSnapshot(db);
    const s = await ingestLake(db, lake, { embedder });
    expect(s).toMatchObject({ status: 'succeeded', tablesIngested: 0, tablesFailed: 0 });
    expect(s.tablesSkipped).toBe(before.tables.length);
    expect(await catalogSnapshot(db)).toEqual(before);
  });

  it('re-derives every edge when the stored edges come from other join / union rules', async () => {
    const clean = await catalogSnapshot(db);
    expect(await new CatalogStore(db).stateValue(GRAPH_RULES_STATE_KEY)).toBe(graphRulesVersion());
    const fingerprint = await lakeFingerprint(db);
    // What older rules could have left: a missing edge, another score, no union edges, another version.
    const victim = await db.prisma.joinEdge.findFirstOrThrow({ orderBy: [{ fromColumnId: 'asc' }, { toColumnId: 'asc' }] });
    await db.prisma.joinEdge.delete({ where: { id: victim.id } });
    await db.prisma.joinEdge.updateMany({ data: { score: 0.123 } });
    await db.prisma.unionEdge.deleteMany({});
    await db.prisma.catalogState.update({ where: { key: GRAPH_RULES_STATE_KEY }, data: { value: 'r0-older' } });
    expect(await lakeFingerprint(db)).not.toBe(fingerprint);
    expect((await staleEdgeRules(db))?.message).toMatch(/r0-older.*the next ingest re-derives them/);

    const s = await ingestLake(db, lake, { embedder });
    expect(s).toMatchObject({ status: 'succeeded', tablesIngested: 0 });
    const note = s.warnings.find((w) => /re-derived/.test(w.message));
    expect(note?.message).toContain('r0-older');
    expect(note?.message).toContain(graphRulesVersion());
    expect(await catalogSnapshot(db)).toEqual(clean);
    expect(await new CatalogStore(db).stateValue(GRAPH_RULES_STATE_KEY)).toBe(graphRulesVersion());
    expect(await lakeFingerprint(db)).toBe(fingerprint);
    expect(await staleEdgeRules(db)).toBeNull();
  });

  it('records bad files per file, ingests the rest, and loses nothing already stored', async () => {
    const before = await catalogSnapshot(db);
    const bad = await mkdtemp(path.join(os.tmpdir(), 'graft-bad-'));
    try {
      await writeFile(path.join(bad, 'corrupt.parquet'), Buffer.from('PAR1 this is not really parquet at all PAR1'));
      await writeFile(path.join(bad, 'empty.csv'), '');
      await writeFile(path.join(bad, 'header_only.csv'), 'a,b,c\n');
      await writeFile(path.join(bad, 'ragged.csv'), 'k,v\n1,x\n2,y,extra\n3\n4,z\n');
      await writeFile(path.join(bad, 'latin1.csv'), Buffer.concat([Buffer.from('city,n\n'), Buffer.from([0x4d, 0xfc, 0x6e, 0x63, 0x68, 0x65, 0x6e]), Buffer.from(',1\nParis,2\n')]));
      const wide = Array.from({ length: 5000 }, (_, i) => `c${i}`);
      await writeFile(path.join(bad, 'wide.csv'), `${wide.join(',')}\n${wide.map((_, i) => i).join(',')}\n`);
      await copyFile(path.join(lake, 'club.csv'), path.join(bad, 'club_again.csv'));
      await writeFile(path.join(bad, 'good.csv'), 'sku,qty\nA-1,3\nB-2,5\n');

      const s = await ingestLake(db, bad, { embedder });
      expect(s.status).toBe('partial');
      const errorFiles = s.errors.map((e) => path.basename(e.path)).sort();
      expect(errorFiles).toContain('corrupt.parquet');
      expect(errorFiles).toContain('wide.csv');
      for (const e of s.errors) expect(e.message).toContain(path.basename(e.path));
      const stored = new Set((await db.prisma.lakeTable.findMany({ where: { uri: { startsWith: bad } } })).map((t) => path.basename(t.uri)));
      expect(stored.has('good.csv')).toBe(true);
      expect(stored.has('club_again.csv')).toBe(true);
      expect(stored.has('corrupt.parquet')).toBe(false);
      expect(s.warnings.some((w) => w.path.endsWith('club_again.csv') && /identical content/.test(w.message))).toBe(true);
      // Every file is accounted for: ingested, or failed with a recorded error.
      expect(s.tablesIngested + s.tablesFailed).toBe((await readdir(bad)).length);
      const run = await db.prisma.ingestRun.findUniqueOrThrow({ where: { id: s.runId } });
      expect((run.errors as unknown[]).length).toBe(s.errors.length);

      // The demo lake's tables, columns and (apart from new edges to the new files) edges are intact.
      const after = await catalogSnapshot(db);
      const demoTables = after.tables.filter((t) => t.uri.startsWith(lake));
      expect(demoTables).toEqual(before.tables);
      const demoJoins = after.joins.filter((j) => !j.includes(bad));
      expect(demoJoins).toEqual(before.joins);
    } finally {
      await rm(bad, { recursive: true, force: true });
    }
  });

  it('rejects a path that does not exist, naming it', async () => {
    await expect(ingestLake(db, '/no/such/lake', { embedder })).rejects.toThrow(/\/no\/such\/lake/);
  });
});
