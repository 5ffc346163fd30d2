/**
 * Ingesting a hive-partitioned folder: one catalog table for the folder, its partition keys as
 * columns; a new partition file re-ingests that table only; a folder that turns broken keeps
 * what the catalog stored of it.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogDatabase } from '../../src/catalog/database.js';
import { HashedNgramEmbedder } from '../../src/embed/index.js';
import { buildFusionInput } from '../../src/engine/index.js';
import { planFusion, previewFusion } from '../../src/fusion/index.js';
import { ingestLake } from '../../src/ingest/index.js';
import { closeDuckDB, withDuckDB } from '../../src/lake/index.js';
import { sqlString } from '../../src/lake/sql.js';
import { LakeSnapshot } from '../../src/search/index.js';
import { catalogBackends } from '../support/catalogs.js';
import { makeTempDir } from '../lake/helpers.js';

const embedder = new HashedNgramEmbedder();

async function tables(db: CatalogDatabase) {
  const rows = await db.prisma.lakeTable.findMany({ include: { columns: { orderBy: { ordinal: 'asc' } } }, orderBy: { uri: 'asc' } });
  return rows.map((t) => ({
    name: t.name,
    uri: t.uri,
    format: t.format,
    rowCount: Number(t.rowCount),
    columns: Object.fromEntries(t.columns.map((c) => [c.name, c.logicalType])),
  }));
}

describe.each(catalogBackends)('partitioned folder ingest on $name', (backend) => {
  let db: CatalogDatabase;
  let lake: string;
  let sales: string;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    ({ dir: lake, cleanup } = await makeTempDir('ingest-hive'));
    sales = path.join(lake, 'sales');
    await withDuckDB((con) =>
      con.run(
        `COPY (SELECT i AS sale_id, i % 4 AS store_id, i * 2.5 AS amount, 2023 + (i % 2) AS year, 1 + (i % 3) AS month FROM range(120) t(i))
         TO ${sqlString(sales)} (FORMAT parquet, PARTITION_BY (year, month))`,
      ),
    );
    await writeFile(path.join(sales, '_SUCCESS'), '');
    await writeFile(path.join(lake, 'stores.csv'), 'store_id,city\n0,Oslo\n1,Bergen\n2,Trondheim\n3,Bodø\n');
    db = await backend.open();
  });
  afterAll(async () => {
    await db?.close();
    await closeDuckDB();
    await cleanup?.();
  });

  it('stores the folder as one table with its partition keys as columns', async () => {
    const s = await ingestLake(db, lake, { embedder });
    expect(s.errors).toEqual([]);
    expect([s.status, s.tablesIngested, s.tablesSkipped, s.rowsProfiled]).toEqual(['succeeded', 2, 0, 124]);
    expect(await tables(db)).toEqual([
      {
        name: 'sales', uri: sales, format: 'parquet', rowCount: 120,
        columns: { sale_id: 'integer', store_id: 'integer', amount: 'float', year: 'integer', month: 'integer' },
      },
      { name: 'stores', uri: path.join(lake, 'stores.csv'), format: 'csv', rowCount: 4, columns: { store_id: 'integer', city: 'text' } },
    ]);
  });

  it('a snapshot of the catalog knows which table is a folder, and the fused SQL reads the folder as partitions', async () => {
    const snapshot = await LakeSnapshot.load(db);
    const byName = new Map(snapshot.tables.map((t) => [t.name, t]));
    expect([byName.get('sales')?.folder, byName.get('stores')?.folder]).toEqual([true, false]);
    const input = buildFusionInput(snapshot, [byName.get('sales')!.id, byName.get('stores')!.id], []);
    expect(input.tables.map((t) => [t.name, t.folder])).toEqual([
      ['sales', true],
      ['stores', false],
    ]);
    const plan = planFusion(input);
    expect(plan.executable, plan.warnings.join('\n')).toBe(true);
    expect(plan.sources.map((s) => [s.name, s.entry.hive])).toEqual([
      ['sales', true],
      ['stores', false],
    ]);
    expect(plan.sql).toContain('hive_partitioning=true');
    expect(plan.sql).toContain(`read_csv(${sqlString(path.join(lake, 'stores.csv'))}`);
    expect((await previewFusion(plan, 500)).rowCountExact).toBe(120);
  });

  it('re-ingesting unchanged skips both tables', async () => {
    const s = await ingestLake(db, lake, { embedder });
    expect([s.tablesIngested, s.tablesSkipped, s.tablesRemoved]).toEqual([0, 2, 0]);
  });

  it('a new partition file re-ingests only the partitioned table; its row count grows', async () => {
    const part = path.join(sales, 'year=2025', 'month=1');
    await mkdir(part, { recursive: true });
    await withDuckDB((con) =>
      con.run(`COPY (SELECT 500 + i AS sale_id, 2 AS store_id, 1.5 AS amount FROM range(30) t(i)) TO ${sqlString(path.join(part, 'part-0.parquet'))} (FORMAT parquet)`),
    );
    const before = await db.prisma.lakeTable.findFirstOrThrow({ where: { uri: sales } });
    const s = await ingestLake(db, lake, { embedder });
    expect(s.errors).toEqual([]);
    expect([s.tablesIngested, s.tablesSkipped, s.tablesRemoved, s.rowsProfiled]).toEqual([1, 1, 0, 150]);
    const after = await db.prisma.lakeTable.findFirstOrThrow({ where: { uri: sales }, include: { columns: true } });
    expect(Number(after.rowCount)).toBe(150);
    expect(after.fingerprint).not.toBe(before.fingerprint);
    expect(after.columns.find((c) => c.name === 'year')!.numericMax).toBe(2025);
    expect((await tables(db)).map((t) => t.uri)).toEqual([sales, path.join(lake, 'stores.csv')]);
  });

  it('a folder that turns broken is an error naming the stray file, and the stored table stays', async () => {
    const stray = path.join(sales, 'year=2024', 'notes.csv');
    await writeFile(stray, 'a,b\n1,2\n');
    const s = await ingestLake(db, lake, { embedder });
    expect(s.status).toBe('partial');
    expect(s.errors).toHaveLength(1);
    expect(s.errors[0]!.path).toBe(sales);
    expect(s.errors[0]!.message).toContain(stray);
    expect(s.tablesRemoved).toBe(0);
    expect((await tables(db)).find((t) => t.uri === sales)?.rowCount).toBe(150);
    await rm(stray);
  });
});
