import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogDatabase } from '../../src/catalog/database.js';
import { embedderConfigFromEnv, HashedNgramEmbedder } from '../../src/embed/index.js';
import { createEngine, EnginePool } from '../../src/engine/index.js';
import { catalogBackends } from '../support/catalogs.js';
import { buildApiLake, ingestApiLake, startTestServer, type ApiLake, type TestServer } from './support/fixture.js';

/**
 * Requests that used to hold the event loop for seconds (issue 11, finding 2), against the real
 * engine on a real server over loopback HTTP: many aliased engine fields are refused before
 * anything runs, an engine call past its time limit answers TIMEOUT, and /healthz answers
 * throughout.
 */
const aliased = (n: number, field: string) => Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join('\n');

describe.each(catalogBackends)('engine request limits on $name', (backend) => {
  let lake: ApiLake;
  let db: CatalogDatabase;
  let api: TestServer;
  let tables: string[];

  beforeAll(async () => {
    lake = await buildApiLake();
    db = await backend.open();
    await ingestApiLake(db, lake);
    tables = (await db.prisma.lakeTable.findMany({ select: { id: true } })).map((r) => r.id);
    api = await startTestServer(db, createEngine(db, new HashedNgramEmbedder(), { valueModel: 'off' }), { lakeRoots: [lake.lakesDir] });
  });
  afterAll(async () => {
    await api?.close();
    await db?.close();
    await lake?.cleanup();
  });

  const healthy = async () => (await fetch(`${api.url}/healthz`)).status;

  it('refuses 190 aliased explainScore fields before running any, while /healthz answers', async () => {
    const query = `query($t: [ID!]) { ${aliased(190, 'explainScore(question: "employees and their salary", tables: $t) { score }')} }`;
    const [r, health] = await Promise.all([api.gql(query, { t: tables.slice(0, 3) }), healthy()]);
    expect(r.status).toBe(400);
    expect(r.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', limit: 'engineFields', max: 4, actual: 190 });
    expect(health).toBe(200);
  });

  it('refuses 99 aliased synthesize(budget: 30, beamWidth: 32) fields', async () => {
    const r = await api.gql(`{ ${aliased(99, 'synthesize(question: "orders by customer region", budget: 30, beamWidth: 32) { id }')} }`);
    expect(r.status).toBe(400);
    expect(r.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', limit: 'engineFields', actual: 99 });
    expect(await healthy()).toBe(200);
  });

  it('counts enrich and enrichRequest as engine fields: each runs a search', async () => {
    const enrich = await api.gql(`query($t: ID!) { ${aliased(60, 'enrich(baseTable: $t, target: "amount", budget: 30) { sql }')} }`, { t: tables[0] });
    expect(enrich.status).toBe(400);
    expect(enrich.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', limit: 'engineFields', max: 4, actual: 60 });
    expect(enrich.errors?.[0].message).toContain('enrich');
    const mixed = await api.gql(`{ ${aliased(3, 'enrichRequest(question: "find tables that help predict amount") { sql }')} s: synthesize(question: "orders") { id } i: intentGraph(question: "orders") { source } }`);
    expect(mixed.errors?.[0].extensions).toMatchObject({ limit: 'engineFields', actual: 5 });
    expect(await healthy()).toBe(200);
  });

  it('accepts up to four engine fields, counting those inside fragments', async () => {
    const ok = await api.gql(`{ ${aliased(4, 'intentGraph(question: "orders by customer region") { source }')} }`);
    expect(ok.errors).toBeUndefined();
    const viaFragment = await api.gql(
      `query { ...F ${aliased(2, 'intentGraph(question: "orders") { source }')} } fragment F on Query { ${aliased(3, 'y: intentGraph(question: "orders") { source }').replace(/a(\d+): y:/g, 'f$1:')} }`,
    );
    expect(viaFragment.errors?.[0].extensions).toMatchObject({ limit: 'engineFields', actual: 5 });
  });

  it('prices synthesize by the search it asks for', async () => {
    const { engineCost } = await import('../../src/api/limits.js');
    expect(engineCost('synthesize', { budget: 30, beamWidth: 32 })).toBeGreaterThan(10 * engineCost('synthesize', { budget: 3, beamWidth: 2 }));
    expect(engineCost('explainScore', { tables: tables.slice(0, 6) })).toBeGreaterThan(engineCost('explainScore', { tables: tables.slice(0, 1) }));
  });

  it('answers TIMEOUT for an engine call past the limit, and keeps answering /healthz', async () => {
    const slow = await startTestServer(db, createEngine(db, new HashedNgramEmbedder(), { valueModel: 'off' }), { engineTimeoutMs: 1, lakeRoots: [lake.lakesDir] });
    try {
      const r = await slow.gql(`{ ${aliased(4, 'synthesize(question: "orders by customer region", budget: 30, beamWidth: 32) { id }')} }`);
      expect(r.errors?.length).toBeGreaterThan(0);
      expect(r.errors!.every((e) => e.extensions.code === 'TIMEOUT')).toBe(true);
      expect((await fetch(`${slow.url}/healthz`)).status).toBe(200);
    } finally {
      await slow.close();
    }
  });

  it('runs engine calls on the worker pool: answers, times out, and keeps /healthz answering', async () => {
    const pool = new EnginePool(db, embedderConfigFromEnv({}), { threads: 2 });
    // The claim is that the pool answers again after the cancelled calls, not how fast (a worker
    // that has to be replaced loads the engine and decodes the snapshot: once over the default
    // 10 s under the whole suite on two cores), so this server waits longer.
    const pooled = await startTestServer(db, pool, { engineTimeoutMs: 60_000, lakeRoots: [lake.lakesDir] });
    const tight = await startTestServer(db, pool, { engineTimeoutMs: 1, lakeRoots: [lake.lakesDir] });
    try {
      const query = `{ ${aliased(4, 'synthesize(question: "orders by customer region", budget: 30, beamWidth: 32) { id score }')} }`;
      const [ok, health] = await Promise.all([pooled.gql(query), fetch(`${pooled.url}/healthz`)]);
      expect(ok.errors).toBeUndefined();
      expect(health.status).toBe(200);
      const late = await tight.gql(query);
      expect(late.errors?.length).toBeGreaterThan(0);
      expect(late.errors!.every((e) => e.extensions.code === 'TIMEOUT')).toBe(true);
      // The cancelled calls' workers were freed: the pool still answers.
      const again = await pooled.gql(query);
      expect(again.errors).toBeUndefined();
    } finally {
      await tight.close();
      await pooled.close();
      await pool.close();
    }
  }, 150_000);
});
