/**
 * Iceberg tables through the lake listing, profiling and ingest: real corpus tables
 * (copied to a temp folder, which also makes them "moved warehouses": their metadata paths
 * were written on another machine), a SQL catalog, broken metadata, and snapshot-based
 * re-ingest.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogDatabase } from '../../../src/catalog/database.js';
import { HashedNgramEmbedder } from '../../../src/embed/index.js';
import { ingestLake } from '../../../src/ingest/index.js';
import { closeDuckDB, fingerprintEntry, listLakeEntries, profileEntry, readRows } from '../../../src/lake/index.js';
import { loadIcebergTable, parseJsonLossless, readAvroRecords } from '../../../src/lake/iceberg/index.js';
import { catalogBackends } from '../../support/catalogs.js';
import { CORPUS } from './corpus-path.js';

const P = join(CORPUS, 'data/persistent');
const CASE_TABLE = join(P, 'case_sensitive_names/default.db/case_sensitive_names');
const BIG_ID = '5298355539581857556';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(os.tmpdir(), 'graft-iceberg-'));
});
afterAll(async () => {
  await closeDuckDB();
  await rm(dir, { recursive: true, force: true });
});

describe('64-bit ids', () => {
  it('JSON.parse rounds the snapshot id; the metadata reader keeps it exact', () => {
    const text = readFileSync(join(CASE_TABLE, 'metadata/00001-a7a3a44c-4aac-4619-bebd-11be37b27351.metadata.json'), 'utf8');
    expect(String((JSON.parse(text) as { 'current-snapshot-id': number })['current-snapshot-id'])).not.toBe(BIG_ID);
    const meta = parseJsonLossless(text) as Record<string, unknown>;
    expect(meta['current-snapshot-id']).toBe(BigInt(BIG_ID));
    expect((meta['current-snapshot-id'] as bigint).toString()).toBe(BIG_ID);
  });

  it('the manifest list (Avro) and the plan carry the exact id, and the fingerprint names it', async () => {
    const records = await readAvroRecords(join(CASE_TABLE, `metadata/snap-${BIG_ID}-0-81af3af1-c807-48d2-b022-696b1f81a188.avro`));
    expect(records.map((r) => String(r.added_snapshot_id))).toContain(BIG_ID);
    const plan = await loadIcebergTable(CASE_TABLE);
    expect(plan.snapshotId?.toString()).toBe(BIG_ID);
    expect(await fingerprintEntry({ path: CASE_TABLE, format: 'iceberg' })).toMatch(new RegExp(`@${BIG_ID}$`));
  });
});

describe('listing and profiling', () => {
  it('a folder of tables and SQL catalogs lists one entry per table, named by the catalog', async () => {
    const { entries, problems } = await listLakeEntries(join(P, 'partition_decimal_integer'));
    expect(problems).toEqual([]);
    expect(entries).toEqual([{ path: join(P, 'partition_decimal_integer'), format: 'iceberg' }]);
    const cat = await listLakeEntries(join(P, 'add_columns_with_defaults/pyiceberg_catalog.db'));
    expect(cat.entries.map((e) => e.icebergName)).toEqual(['add_columns_with_defaults']);
    expect(cat.entries[0].path).toMatch(/add_columns_with_defaults\/metadata\/.*\.metadata\.json$/);
  });

  it('deleted rows are neither counted nor profiled (equality deletes)', async () => {
    const table = join(P, 'equality_deletes/warehouse/mydb/mytable');
    const plan = await loadIcebergTable(table);
    const written = plan.dataFiles.reduce((n, f) => n + Number(f.recordCount), 0);
    expect(plan.deleteFiles.some((d) => d.kind === 'equality')).toBe(true);
    const profile = await profileEntry({ path: table, format: 'iceberg' });
    expect(profile.format).toBe('iceberg');
    expect(profile.name).toBe('mytable');
    expect(profile.rowCount).toBeLessThan(written);
    const rows = await readRows({ path: table, format: 'iceberg' }, 1000);
    expect(rows.length).toBe(profile.rowCount);
    expect(profile.sourceExpression).toBe(plan.sql);
  });

  it('broken metadata gives a clear error naming the file', async () => {
    await expect(profileEntry({ path: join(P, 'bad_data/bad_iceberg_metadata.json'), format: 'iceberg' })).rejects.toThrow(
      /bad_iceberg_metadata\.json: Iceberg metadata is not valid JSON/,
    );
  });
});

describe.each(catalogBackends)('ingest of Iceberg tables on $name', (backend) => {
  let db: CatalogDatabase;
  let lake: string;
  const embedder = new HashedNgramEmbedder();
  beforeAll(async () => {
    lake = join(dir, `lake-${backend.name}`);
    cpSync(join(P, 'iceberg/lineitem_iceberg'), join(lake, 'lineitem_iceberg'), { recursive: true });
    cpSync(join(P, 'partition_integer'), join(lake, 'events'), { recursive: true });
    cpSync(join(P, 'partition_integer'), join(lake, 'broken'), { recursive: true });
    writeFileSync(join(lake, 'broken/metadata/v2.metadata.json'), '{"format-version": 2, "schemas": [');
    // orders.csv holds lineitem's order keys, so edge discovery should link the two
    const keys = [...new Set((await readRows({ path: join(lake, 'lineitem_iceberg'), format: 'iceberg' }, 1e6)).map((r) => r.l_orderkey))];
    writeFileSync(join(lake, 'orders.csv'), `o_orderkey,o_note\n${keys.map((k, i) => `${String(k)},note ${i}`).join('\n')}\n`);
    db = await backend.open();
  });
  afterAll(async () => {
    await db?.close();
  });

  it('ingests tables, reports the broken one, and keeps the rest', async () => {
    const summary = await ingestLake(db, lake, { embedder });
    expect(summary.tablesIngested).toBe(3);
    expect(summary.tablesFailed).toBe(1);
    expect(summary.errors).toHaveLength(1);
    expect(summary.errors[0].message).toMatch(/broken\/metadata\/v2\.metadata\.json: Iceberg metadata is not valid JSON/);
    const tables = await db.prisma.lakeTable.findMany({ include: { columns: true }, orderBy: { name: 'asc' } });
    const events = tables.find((t) => t.name === 'events')!;
    expect(events.format).toBe('iceberg');
    expect(Number(events.rowCount)).toBe(2);
    expect(events.columns.map((c) => c.name).sort()).toEqual(['event_type', 'partition_col', 'user_id']);
    expect(events.fingerprint).toBe('iceberg:d521855e-81d6-4875-8ddd-ac4350187cea@5470601323427916272');
    const lineitem = tables.find((t) => t.name === 'lineitem_iceberg')!;
    expect(Number(lineitem.rowCount)).toBeGreaterThan(0);
    // embedding and edge discovery see Iceberg columns like any other
    expect(await db.prisma.lakeColumn.count({ where: { tableId: events.id, embedding: { is: null } } })).toBe(0);
    const joins = await db.prisma.joinEdge.findMany({ include: { fromColumn: true, toColumn: true } });
    expect(joins.map((j) => [j.fromColumn.name, j.toColumn.name].sort().join('~'))).toContain('l_orderkey~o_orderkey');
  });

  it('re-ingests an Iceberg table only when its current snapshot changes', async () => {
    const again = await ingestLake(db, lake, { embedder });
    expect(again.tablesIngested).toBe(0);
    expect(again.tablesSkipped).toBe(3);
    // point the table at its other snapshot: version-hint -> v1 (written by the same tool)
    const before = (await db.prisma.lakeTable.findFirst({ where: { name: 'lineitem_iceberg' } }))!;
    writeFileSync(join(lake, 'lineitem_iceberg/metadata/version-hint.text'), '1');
    const changed = await ingestLake(db, lake, { embedder });
    expect(changed.tablesIngested).toBe(1);
    const after = (await db.prisma.lakeTable.findFirst({ where: { name: 'lineitem_iceberg' } }))!;
    expect(after.fingerprint).not.toBe(before.fingerprint);
  });
});
