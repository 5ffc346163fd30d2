/**
 * Governance events against a real local HTTP receiver (and a JSON-lines file): OpenLineage run
 * events for ingested and failed tables and for syntheses made through the API; nothing about a
 * table the sink's grants (GRAFT_LINEAGE_GRANTS) or the caller's grants do not cover.
 */
import { randomUUID } from 'node:crypto';
import { readFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken, emitSynthesisLineage, lineageFromEnv } from '../../src/api/index.js';
import type { CatalogDatabase } from '../../src/catalog/database.js';
import { HashedNgramEmbedder } from '../../src/embed/index.js';
import type { SynthesisResult } from '../../src/engine/types.js';
import { ingestLake } from '../../src/ingest/index.js';
import { RUN_EVENT_SCHEMA_URL, type LineageEmitter, type RunEvent } from '../../src/lineage/index.js';
import { catalogBackends } from '../support/catalogs.js';
import { startTestServer, type TestServer } from '../api/support/fixture.js';
import { makeTestEngine } from '../api/support/testEngine.js';

interface Received {
  event: RunEvent;
  authorization: string | undefined;
}

/** A lineage endpoint: records every POSTed event; answers `status` (200 unless changed). */
async function startReceiver(): Promise<{ url: string; received: Received[]; setStatus(s: number): void; close(): Promise<void> }> {
  const received: Received[] = [];
  let status = 200;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/api/v1/lineage' && req.headers['content-type'] === 'application/json') {
        received.push({ event: JSON.parse(Buffer.concat(chunks).toString('utf8')) as RunEvent, authorization: req.headers.authorization });
      }
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/v1/lineage`,
    received,
    setStatus: (s) => {
      status = s;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const backend = catalogBackends[0]!;
let tmp: string;
let lakes: string;
let db: CatalogDatabase;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let eventsFile: string;
const embedder = new HashedNgramEmbedder();

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const inputNames = (events: RunEvent[]) => [...new Set(events.flatMap((e) => e.inputs.map((i) => path.basename(i.name))))].sort();

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'graft-lineage-'));
  lakes = path.join(tmp, 'lakes');
  await mkdir(path.join(lakes, 'sales'), { recursive: true });
  await mkdir(path.join(lakes, 'hr'), { recursive: true });
  await writeFile(path.join(lakes, 'sales', 'customers.csv'), `customer_id,city\n${Array.from({ length: 30 }, (_, i) => `${i + 1},${i % 3 ? 'Oslo' : ''}`).join('\n')}\n`);
  await writeFile(path.join(lakes, 'sales', 'orders.csv'), `order_id,customer_id\n${Array.from({ length: 50 }, (_, i) => `${100 + i},${1 + (i % 30)}`).join('\n')}\n`);
  await writeFile(path.join(lakes, 'sales', 'broken.parquet'), 'this is not parquet');
  await writeFile(path.join(lakes, 'hr', 'employees.csv'), `employee_id,name\n1,Ada\n2,Bo\n`);
  eventsFile = path.join(tmp, 'events.jsonl');
  receiver = await startReceiver();
  db = await backend.open();
});

afterAll(async () => {
  await receiver?.close();
  await db?.close();
  await rm(tmp, { recursive: true, force: true });
});

function sink(extra: Record<string, string> = {}, warnings: string[] = []): LineageEmitter {
  return lineageFromEnv({ GRAFT_LINEAGE_URL: receiver.url, GRAFT_LINEAGE_API_KEY: 'lineage-key', GRAFT_LINEAGE_GRANTS: 'sales.*', ...extra }, (m) => warnings.push(m))!;
}

describe('configuration', () => {
  it('is off without a URL or file and rejects bad values naming the variable', () => {
    expect(lineageFromEnv({})).toBeUndefined();
    expect(() => lineageFromEnv({ GRAFT_LINEAGE_URL: 'ftp://x' })).toThrow(/GRAFT_LINEAGE_URL must be an http\(s\) URL/);
    expect(() => lineageFromEnv({ GRAFT_LINEAGE_FILE: '/tmp/x', GRAFT_LINEAGE_GRANTS: 'nodot' })).toThrow(/GRAFT_LINEAGE_GRANTS/);
    expect(() => lineageFromEnv({ GRAFT_LINEAGE_FILE: '/tmp/x', GRAFT_LINEAGE_TIMEOUT_MS: '0' })).toThrow(/GRAFT_LINEAGE_TIMEOUT_MS/);
  });
});

describe('ingest events', () => {
  let salesRun: string;

  beforeAll(async () => {
    const lineage = sink({ GRAFT_LINEAGE_FILE: eventsFile });
    const s = await ingestLake(db, path.join(lakes, 'sales'), { embedder, lineage });
    expect(s.status).toBe('partial');
    salesRun = s.runId;
    const h = await ingestLake(db, path.join(lakes, 'hr'), { embedder, lineage });
    expect(h.status).toBe('succeeded');
  });

  it('sends START + COMPLETE per ingested table and START + FAIL per failed one, nothing for hr (outside the sink grants)', () => {
    const events = receiver.received.map((r) => r.event);
    expect(inputNames(events)).toEqual(['broken.parquet', 'customers.csv', 'orders.csv']);
    expect(receiver.received.every((r) => r.authorization === 'Bearer lineage-key')).toBe(true);
    for (const name of ['customers.csv', 'orders.csv']) {
      const mine = events.filter((e) => path.basename(e.inputs[0]!.name) === name);
      expect(mine.map((e) => e.eventType)).toEqual(['START', 'COMPLETE']);
      expect(mine[0]!.run.runId).toBe(mine[1]!.run.runId);
      expect(mine[0]!.run.runId).toMatch(uuid);
    }
    const broken = events.filter((e) => path.basename(e.inputs[0]!.name) === 'broken.parquet');
    expect(broken.map((e) => e.eventType)).toEqual(['START', 'FAIL']);
    expect(broken[1]!.run.facets!.errorMessage!.message).toMatch(/broken\.parquet/);
  });

  it('carries the OpenLineage envelope, the schema, the row/null/distinct counts and the catalog id', async () => {
    const done = receiver.received.map((r) => r.event).find((e) => e.eventType === 'COMPLETE' && e.inputs[0]!.name.endsWith('customers.csv'))!;
    expect(done.schemaURL).toBe(RUN_EVENT_SCHEMA_URL);
    expect(done.producer).toMatch(/^https:\/\//);
    expect(new Date(done.eventTime).toISOString()).toBe(done.eventTime);
    expect(done.job).toMatchObject({ namespace: 'graft', name: 'graft.ingest' });
    expect(done.run.facets!.parent).toMatchObject({ run: { runId: salesRun } });
    const input = done.inputs[0]!;
    expect(input.namespace).toBe('file');
    expect(input.name).toBe(path.join(lakes, 'sales', 'customers.csv'));
    expect((input.facets!.schema!.fields as { name: string }[]).map((f) => f.name)).toEqual(['customer_id', 'city']);
    const metrics = input.inputFacets!.dataQualityMetrics!;
    expect(metrics.rowCount).toBe(30);
    expect((metrics.columnMetrics as Record<string, { nullCount: number; distinctCount: number }>).city).toEqual({ nullCount: 10, distinctCount: 1 });
    const row = await db.prisma.lakeTable.findUnique({ where: { uri: input.name }, select: { id: true } });
    expect(input.facets!.graft_catalog).toMatchObject({ tableId: row!.id, grantKey: 'sales.customers' });
    for (const f of Object.values({ ...input.facets, ...input.inputFacets })) {
      expect(f._producer).toBe(done.producer);
      expect(f._schemaURL).toMatch(/^https:\/\//);
    }
  });

  it('writes the same events as JSON lines to GRAFT_LINEAGE_FILE', async () => {
    const lines = (await readFile(eventsFile, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as RunEvent);
    expect(lines).toEqual(receiver.received.map((r) => r.event));
  });

  it('an endpoint that fails does not fail the ingest; the failure is reported', async () => {
    receiver.setStatus(500);
    const warnings: string[] = [];
    try {
      await writeFile(path.join(lakes, 'sales', 'orders.csv'), `order_id,customer_id\n1,1\n`);
      const s = await ingestLake(db, path.join(lakes, 'sales'), { embedder, lineage: sink({}, warnings) });
      expect(s.tablesIngested).toBe(1);
      expect(warnings.join('\n')).toMatch(/not delivered: lineage endpoint .* answered 500/);
    } finally {
      receiver.setStatus(200);
    }
  });
});

describe('synthesis events through the API', () => {
  let api: TestServer;
  let lineage: LineageEmitter;

  beforeAll(async () => {
    receiver.received.length = 0;
    lineage = sink();
    const { engine } = await makeTestEngine(db);
    api = await startTestServer(db, engine, { allowAnonymous: false, lakeRoots: [lakes] }, undefined, { lineage });
  });

  afterAll(async () => {
    await api?.close();
  });

  it('a synthesis over granted tables sends START + COMPLETE with the tables, the SQL and the result dataset', async () => {
    const token = (await createApiToken(db, { name: 'bi', grants: ['sales.*'] })).secret;
    const r = await api.gql<{ synthesize: { id: string; sql: string | null; tables: { name: string }[] } }>(
      '{ synthesize(question: "customers and orders") { id sql tables { name } } }',
      undefined,
      { token },
    );
    expect(r.errors).toBeUndefined();
    await lineage.flush();
    const events = receiver.received.map((e) => e.event);
    expect(events.map((e) => e.eventType)).toEqual(['START', 'COMPLETE']);
    const done = events[1]!;
    expect(done.job.name).toBe('graft.synthesize');
    expect(done.run.runId).toBe(r.data!.synthesize.id);
    expect(done.run.facets!.graft_synthesis).toMatchObject({ question: 'customers and orders' });
    expect(inputNames(events)).toEqual(['customers.csv', 'orders.csv']);
    expect(done.outputs).toEqual([{ namespace: 'graft', name: `synthesis/${r.data!.synthesize.id}` }]);
    if (r.data!.synthesize.sql) expect(done.job.facets!.sql).toMatchObject({ query: r.data!.synthesize.sql });
  });

  it('sends nothing for a synthesis over tables the sink may not see', async () => {
    receiver.received.length = 0;
    const token = (await createApiToken(db, { name: 'people', grants: ['hr.*'] })).secret;
    const r = await api.gql<{ synthesize: { tables: { name: string }[] } }>('{ synthesize(question: "employees") { tables { name } } }', undefined, { token });
    expect(r.errors).toBeUndefined();
    expect(r.data!.synthesize.tables.map((t) => t.name)).toEqual(['employees']);
    await lineage.flush();
    expect(receiver.received).toEqual([]);
  });

  it('the ingest mutation sends the same per-table events', async () => {
    receiver.received.length = 0;
    await writeFile(path.join(lakes, 'sales', 'customers.csv'), `customer_id,city\n1,Oslo\n2,Lima\n`);
    const admin = (await createApiToken(db, { name: 'admin', grants: ['*'] })).secret;
    const r = await api.gql<{ ingest: { id: string } }>(`mutation { ingest(path: ${JSON.stringify(path.join(lakes, 'sales'))}) { id } }`, undefined, { token: admin });
    expect(r.errors).toBeUndefined();
    let status = 'running';
    for (let i = 0; i < 200 && status === 'running'; i++) {
      await new Promise((res) => setTimeout(res, 50));
      const p = await api.gql<{ ingestRun: { status: string } }>(`{ ingestRun(id: "${r.data!.ingest.id}") { status } }`, undefined, { token: admin });
      status = p.data!.ingestRun.status;
    }
    await lineage.flush();
    const events = receiver.received.map((e) => e.event);
    const customers = events.filter((e) => e.inputs[0]?.name.endsWith('customers.csv'));
    expect(customers.map((e) => e.eventType)).toEqual(['START', 'COMPLETE']);
    expect(customers[1]!.run.facets!.parent).toMatchObject({ run: { runId: r.data!.ingest.id } });
  });

  it('sends nothing when the caller may not see one of the tables', async () => {
    receiver.received.length = 0;
    const ids = new Map((await db.prisma.lakeTable.findMany({ select: { id: true, name: true } })).map((t) => [t.name, t.id]));
    const result = {
      id: randomUUID(),
      question: 'customers and orders',
      tables: ['customers', 'orders'].map((name) => ({ id: ids.get(name)!, name, uri: '', role: 'witness', atoms: [], gain: 0 })),
      plan: { sql: null },
    } as unknown as SynthesisResult;
    const onlyCustomers = (_root: string, name: string) => name === 'customers';
    expect(await emitSynthesisLineage(lineage, db, result, new Date(), onlyCustomers)).toBe(false);
    expect(await emitSynthesisLineage(lineage, db, result, new Date(), () => true)).toBe(true);
    await lineage.flush();
    expect(receiver.received.map((e) => e.event.eventType)).toEqual(['START', 'COMPLETE']);
  });
});
