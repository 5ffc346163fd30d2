import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogDatabase } from '../../src/catalog/database.js';
import { catalogBackends } from '../support/catalogs.js';
import { latestValueModel, saveValueModel } from '../../src/catalog/index.js';

/**
 * schema.prisma and migrations/ are written separately (Prisma's migrate engine cannot run
 * offline), so this suite proves they agree: every scalar field of every model exists as a
 * column with the right nullability and array-ness, no column exists that the schema lacks,
 * and every model round-trips through the generated client.
 */

interface ExpectedColumn { table: string; column: string; nullable: boolean; array: boolean; pgType: string }

const PG_TYPES: Record<string, string> = {
  String: 'text', Int: 'integer', BigInt: 'bigint', Float: 'double precision', Boolean: 'boolean',
  DateTime: 'timestamp with time zone', Json: 'jsonb', Bytes: 'bytea',
};

function expectedColumns(): ExpectedColumn[] {
  const schema = readFileSync(path.resolve('prisma/schema.prisma'), 'utf8');
  const out: ExpectedColumn[] = [];
  for (const m of schema.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)) {
    const body = m[2];
    const table = /@@map\("([^"]+)"\)/.exec(body)?.[1] ?? m[1];
    for (const line of body.split('\n')) {
      const f = /^\s+(\w+)\s+([\w()"]+(?:\([^)]*\))?)(\[\])?(\?)?\s*(.*)$/.exec(line);
      if (!f || line.trim().startsWith('//') || line.trim().startsWith('@@')) continue;
      const [, name, rawType, array, optional, attrs] = f;
      if (attrs.includes('@relation')) continue;
      const unsupported = /^Unsupported\("([^"]+)"\)/.exec(rawType);
      const base = rawType.replace(/\(.*$/, '');
      if (!unsupported && !PG_TYPES[base]) continue; // relation list fields
      let pgType = unsupported ? 'USER-DEFINED' : PG_TYPES[base];
      if (attrs.includes('@db.Uuid')) pgType = 'uuid';
      if (attrs.includes('@db.Json')) pgType = 'json';
      if (array) pgType = 'ARRAY';
      out.push({
        table,
        column: /@map\("([^"]+)"\)/.exec(attrs)?.[1] ?? name,
        // Prisma creates scalar lists as nullable columns; they read back as [].
        nullable: Boolean(optional) || Boolean(array),
        array: Boolean(array),
        pgType,
      });
    }
  }
  return out;
}

describe.each(catalogBackends)('schema.prisma vs migrations on $name', (backend) => {
  let db: CatalogDatabase;
  beforeAll(async () => {
    db = await backend.open();
  });
  afterAll(async () => {
    await db?.close();
  });

  it('records applied migrations in _prisma_migrations the way Prisma does', async () => {
    const rows = await db.prisma.$queryRawUnsafe<{ migration_name: string; checksum: string; finished_at: Date | null }[]>(
      `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    expect(rows.map((r) => r.migration_name)).toEqual(db.migrations.applied);
    for (const r of rows) {
      expect(r.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(r.finished_at).not.toBeNull();
    }
  });

  it('has exactly the columns the Prisma schema declares', async () => {
    const expected = expectedColumns();
    const tables = [...new Set(expected.map((e) => e.table))];
    expect(tables.length).toBeGreaterThanOrEqual(7);
    const actual = await db.prisma.$queryRawUnsafe<{ table_name: string; column_name: string; is_nullable: string; data_type: string }[]>(
      `SELECT table_name, column_name, is_nullable, data_type FROM information_schema.columns
       WHERE table_schema = current_schema() AND table_name = ANY($1::text[])`,
      tables,
    );
    const key = (t: string, c: string) => `${t}.${c}`;
    const actualMap = new Map(actual.map((a) => [key(a.table_name, a.column_name), a]));
    for (const e of expected) {
      const a = actualMap.get(key(e.table, e.column));
      expect(a, `column ${key(e.table, e.column)} missing from migrations`).toBeDefined();
      expect(a!.data_type, `type of ${key(e.table, e.column)}`).toBe(e.pgType);
      expect(a!.is_nullable === 'YES', `nullability of ${key(e.table, e.column)}`).toBe(e.nullable);
    }
    const declared = new Set(expected.map((e) => key(e.table, e.column)));
    for (const a of actual) {
      expect(declared.has(key(a.table_name, a.column_name)), `column ${key(a.table_name, a.column_name)} not in schema.prisma`).toBe(true);
    }
  });

  it('round-trips every model through the Prisma client', async () => {
    const p = db.prisma;
    const source = await p.source.create({ data: { rootPath: '/lake', kind: 'folder' } });
    const mk = (name: string) =>
      p.lakeTable.create({
        data: {
          sourceId: source.id, name, uri: `/lake/${name}.csv`, format: 'csv', rowCount: 5_000_000_000n,
          profiledRows: 50_000n, columnCount: 1, fingerprint: 'f'.repeat(64), warnings: ['ragged line 3'],
        },
      });
    const [a, b] = [await mk('a'), await mk('b')];
    const colData = (tableId: string) => ({
      tableId, name: 'id', ordinal: 0, logicalType: 'integer', nullShare: 0.25, distinctEstimate: 1234.5,
      uniqueness: 1, sampleValues: ['1', 'é', ''], topValues: ['x'], minhash: [0, 2147483647, 42],
      numericMin: -1.5, numericMax: 1e12, avgLength: 3.5,
    });
    const ca = await p.lakeColumn.create({ data: colData(a.id) });
    const cb = await p.lakeColumn.create({ data: { ...colData(b.id), numericMin: null, numericMax: null } });
    const vec = `[${Array.from({ length: 256 }, (_, i) => (i % 7) / 10).join(',')}]`;
    await p.$executeRawUnsafe(`INSERT INTO column_embedding (column_id, model, embedding) VALUES ($1::uuid, 'm', $2::vector)`, ca.id, vec);
    const je = await p.joinEdge.create({
      data: {
        fromColumnId: cb.id, toColumnId: ca.id, fromTableId: b.id, toTableId: a.id, containmentFromTo: 0.9,
        containmentToFrom: 0.5, jaccard: 0.45, nameSimilarity: 1, typeCompatible: true, score: 0.8,
      },
    });
    const ue = await p.unionEdge.create({
      data: { tableAId: a.id, tableBId: b.id, score: 0.95, alignment: [{ columnAId: ca.id, columnBId: cb.id, score: 1 }] },
    });
    const run = await p.ingestRun.create({
      data: { path: '/lake', status: 'partial', finishedAt: new Date(), filesSeen: 3, tablesIngested: 2, tablesSkipped: 0,
        tablesFailed: 1, rowsProfiled: 10n, errors: [{ path: '/lake/x.parquet', code: 'LAKE_READ', message: 'corrupt' }], warnings: [] },
    });

    expect(await p.source.findUniqueOrThrow({ where: { id: source.id } })).toMatchObject({ rootPath: '/lake', kind: 'folder' });
    expect(await p.lakeTable.findUniqueOrThrow({ where: { id: a.id } })).toMatchObject({ rowCount: 5_000_000_000n, warnings: ['ragged line 3'] });
    expect(await p.lakeColumn.findUniqueOrThrow({ where: { id: ca.id } })).toMatchObject(colData(a.id));
    expect(await p.lakeColumn.findUniqueOrThrow({ where: { id: cb.id } })).toMatchObject({ numericMin: null, numericMax: null });
    const emb = await p.columnEmbedding.findUniqueOrThrow({ where: { columnId: ca.id } });
    expect(emb.model).toBe('m');
    const [{ text }] = await p.$queryRawUnsafe<{ text: string }[]>(`SELECT embedding::text AS text FROM column_embedding WHERE column_id = $1::uuid`, ca.id);
    expect(text.split(',')).toHaveLength(256);
    expect(await p.joinEdge.findUniqueOrThrow({ where: { id: je.id } })).toMatchObject({ containmentFromTo: 0.9, typeCompatible: true });
    expect(await p.unionEdge.findUniqueOrThrow({ where: { id: ue.id } })).toMatchObject({ alignment: [{ columnAId: ca.id, columnBId: cb.id, score: 1 }] });
    expect(await p.ingestRun.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({ status: 'partial', rowsProfiled: 10n });
    // A value model's ONNX bytes (bytea) come back byte for byte, every byte value included.
    const onnx = Uint8Array.from({ length: 1024 }, (_, i) => (i * 37) % 256);
    const vm = await saveValueModel(db, {
      lakeFingerprint: 'a'.repeat(64), featureVersion: 1, inputDim: 25, sampler: 'centrality', gamma: 0.8, trajectories: 3,
      transitions: 9, heldOutMape: 0.25, trainMs: 1234, metadata: { featureNames: ['x'] }, onnx,
    });
    const vmBack = await latestValueModel(db, 'a'.repeat(64), 1);
    expect(vmBack).toMatchObject({ id: vm.id, sampler: 'centrality', gamma: 0.8, metadata: { featureNames: ['x'] } });
    expect(Buffer.compare(Buffer.from(vmBack!.onnx), Buffer.from(onnx))).toBe(0);

    // Cascades: deleting a table removes its columns, embeddings and edges.
    await p.lakeTable.delete({ where: { id: a.id } });
    expect(await p.lakeColumn.count({ where: { tableId: a.id } })).toBe(0);
    expect(await p.columnEmbedding.count()).toBe(0);
    expect(await p.joinEdge.count()).toBe(0);
    expect(await p.unionEdge.count()).toBe(0);
  });

  it('re-opening an up-to-date catalog applies nothing', async () => {
    const { applyMigrations } = await import('../../src/catalog/migrate.js');
    const again = await applyMigrations(db.sql);
    expect(again.applied).toEqual([]);
    expect(again.alreadyApplied.length).toBeGreaterThan(0);
  });
});
