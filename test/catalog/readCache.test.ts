import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GrantScope } from '../../src/api/index.js';
import { CatalogReadCache, CatalogReader, type CatalogDatabase } from '../../src/catalog/index.js';
import { buildApiLake, ingestApiLake, type ApiLake } from '../api/support/fixture.js';
import { catalogBackends } from '../support/catalogs.js';

/**
 * The shared read cache under the grant-scoped reader: one cache, readers of different grants.
 * What one caller's read put in it must never widen another's view, a change made behind the
 * server's back is seen after maxAgeMs (or a clear), and a table that becomes visible is found
 * at once.
 */
describe.each(catalogBackends)('CatalogReadCache on $name', (backend) => {
  let lake: ApiLake;
  let db: CatalogDatabase;
  let tables: { id: string; name: string; source: string; columnIds: string[] }[];
  const sales = () => tables.filter((t) => t.source === 'sales');

  beforeAll(async () => {
    lake = await buildApiLake();
    db = await backend.open();
    await ingestApiLake(db, lake);
    const rows = await db.prisma.lakeTable.findMany({ include: { source: true, columns: { select: { id: true } } } });
    tables = rows.map((r) => ({ id: r.id, name: r.name, source: r.source.rootPath.split('/').pop()!, columnIds: r.columns.map((c) => c.id) }));
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    await lake?.cleanup();
  });

  it('a read by a caller who sees everything does not widen a sales.* caller, by id or by page', async () => {
    const cache = new CatalogReadCache(60_000);
    const everything = new CatalogReader(db, GrantScope.all(), cache);
    const salesOnly = new CatalogReader(db, GrantScope.of(['sales.*']), cache);
    const ids = tables.map((t) => t.id);
    const columnIds = tables.flatMap((t) => t.columnIds);
    expect(sales().length).toBeGreaterThan(0);
    expect(sales().length).toBeLessThan(tables.length);

    expect((await everything.tablesByIds(ids)).map((t) => t.id).sort()).toEqual([...ids].sort());
    expect((await everything.columnsByIds(columnIds)).length).toBe(columnIds.length);
    expect((await everything.tablePage(undefined, 100)).rows.length).toBe(tables.length);

    expect((await salesOnly.tablesByIds(ids)).map((t) => t.name).sort()).toEqual(sales().map((t) => t.name).sort());
    const salesColumns = await salesOnly.columnsByIds(columnIds);
    expect(new Set(salesColumns.map((c) => c.tableId))).toEqual(new Set(sales().map((t) => t.id)));
    expect(salesColumns.length).toBe(sales().flatMap((t) => t.columnIds).length);
    expect((await salesOnly.tablePage(undefined, 100)).rows.map((t) => t.name).sort()).toEqual(sales().map((t) => t.name).sort());
    expect(await salesOnly.tableCount(undefined)).toBe(sales().length);
    expect(await everything.tableCount(undefined)).toBe(tables.length);
  });

  it('serves what it holds until cleared or older than maxAgeMs; ids that matched nothing are read again', async () => {
    const victim = sales()[0];
    const cache = new CatalogReadCache(1_000);
    const reader = new CatalogReader(db, GrantScope.all(), cache);
    const uncached = new CatalogReader(db, GrantScope.all());
    const hide = (state: string) => db.prisma.lakeTable.update({ where: { id: victim.id }, data: { state } });
    try {
      expect(await reader.tablesByIds([victim.id])).toHaveLength(1);
      expect(await reader.tableCount(undefined)).toBe(tables.length);
      await hide('pending'); // another process takes the table out of sight
      expect(await uncached.tablesByIds([victim.id])).toHaveLength(0);
      expect(await reader.tablesByIds([victim.id])).toHaveLength(1);
      expect(await reader.tableCount(undefined)).toBe(tables.length);
      cache.clear();
      expect(await reader.tablesByIds([victim.id])).toHaveLength(0);
      expect(await reader.tableCount(undefined)).toBe(tables.length - 1);

      await hide('ready'); // the miss was not remembered: found at once
      expect(await reader.tablesByIds([victim.id])).toHaveLength(1);
      expect(await reader.tableCount(undefined)).toBe(tables.length - 1); // the count is held...
      await new Promise((r) => setTimeout(r, 1_050));
      expect(await reader.tableCount(undefined)).toBe(tables.length); // ...for maxAgeMs at most
      await hide('pending');
      await new Promise((r) => setTimeout(r, 1_050));
      expect(await reader.tablesByIds([victim.id])).toHaveLength(0);
    } finally {
      await hide('ready');
    }
  });
});
