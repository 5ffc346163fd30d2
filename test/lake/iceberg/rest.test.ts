/**
 * The Iceberg REST catalog client against a small REST server on loopback that serves
 * corpus tables by the spec (config with a prefix, namespaces, tables, load table) and
 * requires a bearer token; then an ingest of the catalog URL.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogDatabase } from '../../../src/catalog/database.js';
import { HashedNgramEmbedder } from '../../../src/embed/index.js';
import { ingestLake } from '../../../src/ingest/index.js';
import { closeDuckDB } from '../../../src/lake/index.js';
import { findMetadataFile, restCatalogTables } from '../../../src/lake/iceberg/index.js';
import { startTestServer } from '../../api/support/fixture.js';
import { makeTestEngine } from '../../api/support/testEngine.js';
import { catalogBackends } from '../../support/catalogs.js';
import { CORPUS } from './corpus-path.js';

const P = join(CORPUS, 'data/persistent');
const TOKEN = 'test-token-123';
const TABLES: Record<string, Record<string, string>> = {
  sales: { partition_integer: join(P, 'partition_integer'), uuid_table: join(P, 'uuid') },
  'ops\u001fdeletes': { mytable: join(P, 'equality_deletes/warehouse/mydb/mytable') },
};
let server: Server;
let url: string;
const seenAuth: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seenAuth.push(req.headers.authorization ?? '');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(401, { error: { message: 'unauthorized', code: 401 } });
    const path = decodeURIComponent(new URL(req.url!, 'http://x').pathname);
    if (path === '/v1/config') return send(200, { defaults: {}, overrides: { prefix: 'wh' } });
    if (path === '/v1/wh/namespaces') return send(200, { namespaces: Object.keys(TABLES).map((n) => n.split('\u001f')) });
    const m = /^\/v1\/wh\/namespaces\/([^/]+)\/tables(?:\/([^/]+))?$/.exec(path);
    if (m && TABLES[m[1]]) {
      const ns = m[1].split('\u001f');
      if (!m[2]) return send(200, { identifiers: Object.keys(TABLES[m[1]]).map((name) => ({ namespace: ns, name })) });
      const dir = TABLES[m[1]][m[2]];
      if (!dir) return send(404, { error: { message: 'no such table', type: 'NoSuchTableException', code: 404 } });
      return send(200, { 'metadata-location': `file://${findMetadataFile(dir)}`, metadata: {}, config: {} });
    }
    return send(404, { error: { message: `no route ${path}`, code: 404 } });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await closeDuckDB();
  await new Promise((r) => server.close(r));
});

describe('Iceberg REST catalog', () => {
  it('lists namespaces and tables and loads each table, sending the bearer token', async () => {
    const tables = await restCatalogTables(url, TOKEN);
    expect(tables.map((t) => ('name' in t ? `${t.namespace}.${t.name}` : t.label)).sort()).toEqual([
      'ops.deletes.mytable',
      'sales.partition_integer',
      'sales.uuid_table',
    ]);
    expect(seenAuth.every((a) => a === `Bearer ${TOKEN}`)).toBe(true);
  });

  it('a wrong token is a clear error naming the URL and status', async () => {
    await expect(restCatalogTables(url, 'wrong')).rejects.toThrow(/\/v1\/config: Iceberg REST catalog answered 401/);
  });
});

describe.each(catalogBackends)('ingest of a REST catalog on $name', (backend) => {
  let db: CatalogDatabase;
  beforeAll(async () => {
    db = await backend.open();
  });
  afterAll(async () => {
    await db?.close();
  });

  it('ingests every table of the catalog under its catalog name', async () => {
    process.env.ICEBERG_REST_TOKEN = TOKEN;
    try {
      const summary = await ingestLake(db, url, { embedder: new HashedNgramEmbedder() });
      expect(summary.errors).toEqual([]);
      expect(summary.tablesIngested).toBe(3);
      const tables = await db.prisma.lakeTable.findMany({ orderBy: { name: 'asc' } });
      expect(tables.map((t) => [t.name, t.format, Number(t.rowCount)])).toEqual([
        ['mytable', 'iceberg', expect.any(Number)],
        ['partition_integer', 'iceberg', 2],
        ['uuid_table', 'iceberg', 10],
      ]);
      const again = await ingestLake(db, url, { embedder: new HashedNgramEmbedder() });
      expect(again.tablesSkipped).toBe(3);
    } finally {
      delete process.env.ICEBERG_REST_TOKEN;
    }
  });
});

describe('GraphQL ingest of a REST catalog', () => {
  it('reads only an allow-listed catalog URL, with this process token', async () => {
    const db = await catalogBackends[0]!.open();
    const { engine } = await makeTestEngine(db);
    const api = await startTestServer(db, engine, { databaseSources: [`${url}/`], lakeRoots: [] });
    process.env.ICEBERG_REST_TOKEN = TOKEN;
    try {
      const ask = (p: string) => api.gql<{ ingest: { id: string } }>('mutation($p: String!) { ingest(path: $p) { id } }', { p });
      const refused = await ask(`${url}/other`);
      expect(refused.errors?.[0]?.extensions.code).toBe('FORBIDDEN');
      expect(refused.errors?.[0]?.message).toMatch(/GRAFT_DATABASE_SOURCES/);
      const r = await ask(url.toUpperCase().replace('HTTP://', 'http://'));
      expect(r.errors).toBeUndefined();
      let run = { status: 'running', tablesIngested: 0 };
      for (let i = 0; i < 600 && run.status === 'running'; i++) {
        await new Promise((res) => setTimeout(res, 50));
        run = (await api.gql<{ ingestRun: typeof run }>(`{ ingestRun(id: "${r.data!.ingest.id}") { status tablesIngested } }`)).data!.ingestRun;
      }
      expect(run).toEqual({ status: 'succeeded', tablesIngested: 3 });
    } finally {
      delete process.env.ICEBERG_REST_TOKEN;
      await api.close();
      await db.close();
    }
  });
});
