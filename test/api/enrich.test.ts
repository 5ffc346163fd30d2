import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '../../src/api/auth/tokens.js';
import { openCatalog, type CatalogDatabase } from '../../src/catalog/index.js';
import { HashedNgramEmbedder } from '../../src/embed/index.js';
import { createEngine } from '../../src/engine/index.js';
import { withEnrichment } from '../../src/enrich/index.js';
import { ingestLake } from '../../src/ingest/index.js';
import { closeDuckDB } from '../../src/lake/index.js';
import { ALL_ROWS, writeHousingLake } from '../enrich/housingLake.js';
import { startTestServer, type TestServer } from './support/fixture.js';

const ENRICH = `query ($base: ID!, $target: String!, $budget: Int, $features: [String!], $preview: Int) {
  enrich(baseTable: $base, target: $target, budget: $budget, features: $features, preview: $preview) {
    target task columns rowCount labelledRows addedCount sql warnings
    baseTable { name role }
    tables { name role newColumns newRows joinBaseColumn joinColumn table { id } }
    rejected { name reason }
    leaks { table column evidence kept }
    unionGroups { tables }
    explanation { tables { name marginalGain } }
    intent { trees { entity { label } attributes { label } } }
    preview { columns rows }
  }
}`;

/** GraphQL `enrich` over real HTTP with the real engine, on the housing lake split into two sources (grant keys `housing.*`, `other.*`). */
describe('GraphQL enrich', () => {
  let root: string;
  let db: CatalogDatabase;
  let t: TestServer;
  let baseId: string;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'graft-enrich-api-'));
    await writeHousingLake(root);
    db = await openCatalog({ dataDir: 'memory://' });
    const embedder = new HashedNgramEmbedder();
    for (const source of ['housing', 'other']) expect((await ingestLake(db, path.join(root, source), { embedder })).tablesFailed).toBe(0);
    t = await startTestServer(db, withEnrichment(createEngine(db, embedder, { valueModel: 'off' })));
    baseId = (await db.prisma.lakeTable.findFirstOrThrow({ where: { name: 'houses' } })).id;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await db?.close();
    await closeDuckDB();
    await rm(root, { recursive: true, force: true });
  });

  it('returns the join shard and the row shard with the enriched SQL and a preview', async () => {
    const r = await t.gql<{ enrich: Record<string, any> }>(ENRICH, { base: baseId, target: 'price', preview: 2 });
    expect(r.errors).toBeUndefined();
    const e = r.data!.enrich;
    expect(e.task).toBe('regression');
    expect(e.baseTable).toEqual({ name: 'houses', role: 'BASE' });
    expect(e.tables.map((x: { name: string; role: string }) => `${x.name}:${x.role}`).sort()).toEqual(['house_details:JOIN', 'houses:BASE', 'houses_2024:UNION']);
    const byName = (n: string) => e.tables.find((x: { name: string }) => x.name === n);
    expect(byName('house_details')).toMatchObject({ newColumns: ['bedrooms', 'year_built', 'lot_size'], joinBaseColumn: 'house_id', joinColumn: 'house_id' });
    expect(byName('houses_2024').newRows).toBe(90);
    expect(e.rowCount).toBe(ALL_ROWS);
    expect(e.addedCount).toBe(2);
    expect(e.rejected).toEqual(expect.arrayContaining([{ name: 'house_details_backup', reason: 'redundant' }, { name: 'valuations', reason: 'leaks-target' }]));
    expect(e.leaks).toEqual([{ table: 'valuations', column: 'assessed_value', evidence: 'equal', kept: false }]);
    expect(e.intent.trees[0].attributes[0].label).toBe('price');
    expect(e.preview.columns).toEqual(e.columns);
    expect(e.preview.rows).toHaveLength(2);
    expect(e.explanation.tables).toHaveLength(3);
  });

  it('applies grants: hidden tables are not added, a hidden base is NOT_FOUND', async () => {
    const housingOnly = (await createApiToken(db, { name: 'rows-only', grants: ['housing.houses', 'housing.houses_2024'] })).secret;
    const r = await t.gql<{ enrich: Record<string, any> }>(ENRICH, { base: baseId, target: 'price' }, { token: housingOnly });
    expect(r.errors).toBeUndefined();
    expect(r.data!.enrich.tables.map((x: { name: string }) => x.name)).toEqual(['houses', 'houses_2024']);
    expect(r.data!.enrich.rejected).toEqual([]);
    expect(r.data!.enrich.sql).not.toContain('house_details');

    const otherOnly = (await createApiToken(db, { name: 'other-only', grants: ['other.*'] })).secret;
    const hidden = await t.gql(ENRICH, { base: baseId, target: 'price' }, { token: otherOnly });
    expect(hidden.errors?.[0]?.extensions.code).toBe('NOT_FOUND');
  });

  it('bad input is BAD_USER_INPUT naming the field', async () => {
    const r = await t.gql(ENRICH, { base: baseId, target: 'cost' });
    expect(r.errors?.[0]?.extensions.code).toBe('BAD_USER_INPUT');
    expect(r.errors?.[0]?.message).toMatch(/target/);
    const b = await t.gql(ENRICH, { base: baseId, target: 'price', budget: 1000 });
    expect(b.errors?.[0]?.extensions.code).toBe('BAD_USER_INPUT');
    expect(b.errors?.[0]?.message).toMatch(/budget/);
  });

  it('enrichRequest: a request in words; a plain question is BAD_USER_INPUT', async () => {
    const q = `query ($q: String!) { enrichRequest(question: $q) { baseTable { name } target tables { name role } } }`;
    const r = await t.gql<{ enrichRequest: { baseTable: { name: string }; target: string; tables: { name: string }[] } }>(q, { q: 'find tables that help predict price in the houses table' });
    expect(r.errors).toBeUndefined();
    expect(r.data!.enrichRequest.baseTable.name).toBe('houses');
    expect(r.data!.enrichRequest.tables.map((x) => x.name).sort()).toEqual(['house_details', 'houses', 'houses_2024']);
    const plain = await t.gql(q, { q: 'Which houses cost more than 500?' });
    expect(plain.errors?.[0]?.extensions.code).toBe('BAD_USER_INPUT');
  });
});
