/**
 * Plugin modes for an existing GraphQL estate:
 * - graft as an Apollo Federation 2 subgraph, composed by a real gateway (`@apollo/gateway`,
 *   IntrospectAndCompose over loopback HTTP) with a second small subgraph that extends
 *   graft's `Table` entity; queries cross both ways and respect the caller's grants;
 * - graft mounted into a host Apollo Server (`createGraftSchema`), grants from the host context.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ApolloGateway, IntrospectAndCompose, RemoteGraphQLDataSource } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken, createGraftSchema, type GraftSchema } from '../../src/api/index.js';
import { parse } from '../../src/api/graphql.js';
import type { CatalogDatabase } from '../../src/catalog/database.js';
import { HashedNgramEmbedder } from '../../src/embed/index.js';
import { ingestLake } from '../../src/ingest/index.js';
import { catalogBackends } from '../support/catalogs.js';
import { silentLogger, startTestServer, type TestServer } from './support/fixture.js';
import { makeTestEngine, type InstrumentedEngine } from './support/testEngine.js';

const backend = catalogBackends[0]!;

let tmp: string;
let sales: string;
let db: CatalogDatabase;
let engine: InstrumentedEngine;
let graft: TestServer;
let ids: Map<string, string>;

async function writeSales(ordersRows: number): Promise<void> {
  await writeFile(
    path.join(sales, 'customers.csv'),
    `customer_id,customer_name,city\n${Array.from({ length: 20 }, (_, i) => `${i + 1},Customer ${i + 1},${['Oslo', 'Lima'][i % 2]}`).join('\n')}\n`,
  );
  await writeFile(
    path.join(sales, 'orders.csv'),
    `order_id,customer_id,amount\n${Array.from({ length: ordersRows }, (_, i) => `${900 + i},${1 + (i % 20)},${(i * 7) % 100}.5`).join('\n')}\n`,
  );
}

async function tableIds(): Promise<Map<string, string>> {
  const rows = await db.prisma.lakeTable.findMany({ select: { id: true, name: true } });
  return new Map(rows.map((r) => [r.name, r.id]));
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'graft-fed-'));
  sales = path.join(tmp, 'lakes', 'sales');
  await mkdir(sales, { recursive: true });
  await writeSales(60);
  db = await backend.open();
  const s = await ingestLake(db, sales, { embedder: new HashedNgramEmbedder() });
  expect(s.status).toBe('succeeded');
  ({ engine } = await makeTestEngine(db));
  graft = await startTestServer(db, engine, { federation: true, allowAnonymous: false, lakeRoots: [path.join(tmp, 'lakes')] });
  ids = await tableIds();
});

afterAll(async () => {
  await graft?.close();
  await db?.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('stable ids (what @key relies on)', () => {
  it('a re-ingest of a changed table keeps its table and column ids', async () => {
    const before = ids.get('orders')!;
    const columnsBefore = await db.prisma.lakeColumn.findMany({ where: { tableId: before }, select: { id: true, name: true }, orderBy: { ordinal: 'asc' } });
    await writeSales(61);
    const s = await ingestLake(db, sales, { embedder: new HashedNgramEmbedder() });
    expect(s.status).toBe('succeeded');
    const after = await tableIds();
    expect(after.get('orders')).toBe(before);
    const row = await db.prisma.lakeTable.findUnique({ where: { id: before }, select: { rowCount: true } });
    expect(Number(row!.rowCount)).toBe(61);
    const columnsAfter = await db.prisma.lakeColumn.findMany({ where: { tableId: before }, select: { id: true, name: true }, orderBy: { ordinal: 'asc' } });
    expect(columnsAfter).toEqual(columnsBefore);
    engine.invalidate();
  });
});

describe('Federation 2 subgraph behind a gateway', () => {
  let stewards: { url: string; stop: () => Promise<void> };
  let gateway: { url: string; stop: () => Promise<void> };

  beforeAll(async () => {
    // The second subgraph: data stewards, extending graft's Table entity by its key.
    const owned = { Ana: [ids.get('customers')!, ids.get('orders')!], Ben: [ids.get('customers')!] };
    const typeDefs = parse(`
      extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])
      type Query { stewards: [Steward!]! }
      type Steward { name: String! tables: [Table]! }
      type Table @key(fields: "id") { id: ID! stewards: [String!]! }
    `);
    const resolvers = {
      Query: { stewards: () => Object.entries(owned).map(([name, tableIds]) => ({ name, tableIds })) },
      Steward: { tables: (s: { tableIds: string[] }) => s.tableIds.map((id) => ({ __typename: 'Table', id })) },
      Table: {
        __resolveReference: (ref: { id: string }) => ({ id: ref.id }),
        stewards: (t: { id: string }) => Object.entries(owned).filter(([, list]) => list.includes(t.id)).map(([name]) => name),
      },
    };
    const server = new ApolloServer({ schema: buildSubgraphSchema([{ typeDefs, resolvers }]) });
    const { url } = await startStandaloneServer(server, { listen: { port: 0, host: '127.0.0.1' } });
    stewards = { url, stop: () => server.stop() };

    const gw = new ApolloServer<{ authorization?: string }>({
      gateway: new ApolloGateway({
        supergraphSdl: new IntrospectAndCompose({
          subgraphs: [
            { name: 'graft', url: `${graft.url}/graphql` },
            { name: 'stewards', url },
          ],
          introspectionHeaders: { authorization: `Bearer ${(await createApiToken(db, { name: 'gateway', grants: ['sales.*'] })).secret}` },
        }),
        // Forward the caller's token so graft applies the caller's grants.
        buildService: ({ url: serviceUrl }) =>
          new RemoteGraphQLDataSource<{ authorization?: string }>({
            url: serviceUrl,
            willSendRequest({ request, context }) {
              if (context.authorization) request.http?.headers.set('authorization', context.authorization);
            },
          }),
      }),
    });
    const started = await startStandaloneServer(gw, {
      listen: { port: 0, host: '127.0.0.1' },
      context: async ({ req }) => ({ authorization: req.headers.authorization }),
    });
    gateway = { url: started.url, stop: () => gw.stop() };
  });

  afterAll(async () => {
    await gateway?.stop();
    await stewards?.stop();
  });

  async function viaGateway<T>(query: string, token: string): Promise<{ data?: T; errors?: { message: string }[] }> {
    const res = await fetch(gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query }),
    });
    return (await res.json()) as { data?: T; errors?: { message: string }[] };
  }

  it('serves the subgraph SDL with @key on Table and Column', async () => {
    const r = await graft.gql<{ _service: { sdl: string } }>('{ _service { sdl } }', undefined, {
      token: (await createApiToken(db, { name: 'sdl', grants: ['sales.*'] })).secret,
    });
    expect(r.errors).toBeUndefined();
    expect(r.data!._service.sdl).toMatch(/type Table @key\(fields: "id"\)/);
    expect(r.data!._service.sdl).toMatch(/type Column @key\(fields: "id"\)/);
  });

  it('a query starting in the stewards subgraph resolves graft tables and columns, within grants', async () => {
    const all = (await createApiToken(db, { name: 'all', grants: ['sales.*'] })).secret;
    const r = await viaGateway<{ stewards: { name: string; tables: ({ name: string; rowCount: number; columns: { name: string }[] } | null)[] }[] }>(
      '{ stewards { name tables { name rowCount columns { name } } } }',
      all,
    );
    expect(r.errors).toBeUndefined();
    const ana = r.data!.stewards.find((s) => s.name === 'Ana')!;
    expect(ana.tables.map((t) => t?.name)).toEqual(['customers', 'orders']);
    expect(ana.tables[1]!.rowCount).toBe(61);
    expect(ana.tables[0]!.columns.map((c) => c.name)).toEqual(['customer_id', 'customer_name', 'city']);

    // A token that may only see customers gets null for the orders entity.
    const narrow = (await createApiToken(db, { name: 'narrow', grants: ['sales.customers'] })).secret;
    const n = await viaGateway<{ stewards: { name: string; tables: ({ name: string } | null)[] }[] }>('{ stewards { name tables { name } } }', narrow);
    expect(n.errors).toBeUndefined();
    expect(n.data!.stewards.find((s) => s.name === 'Ana')!.tables).toEqual([{ name: 'customers' }, null]);
  });

  it('a query starting in graft pulls the stewards field the other subgraph adds to Table', async () => {
    const token = (await createApiToken(db, { name: 'reader', grants: ['sales.*'] })).secret;
    const r = await viaGateway<{ tables: { edges: { node: { name: string; stewards: string[] } }[] } }>(
      '{ tables { edges { node { name stewards } } } }',
      token,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data!.tables.edges.map((e) => [e.node.name, e.node.stewards])).toEqual([
      ['customers', ['Ana', 'Ben']],
      ['orders', ['Ana']],
    ]);
  });
});

describe('createGraftSchema mounted in a host Apollo Server', () => {
  interface HostContext {
    user: string;
    grants: string[] | 'all';
  }
  let mounted: GraftSchema<HostContext>;
  let host: ApolloServer<HostContext>;

  beforeAll(async () => {
    mounted = await createGraftSchema<HostContext>({
      db,
      engine,
      embedder: new HashedNgramEmbedder(),
      logger: silentLogger(),
      principal: (ctx) => (ctx.grants === 'all' ? { kind: 'anonymous' } : { kind: 'host', name: ctx.user, grants: ctx.grants }),
    });
    host = new ApolloServer<HostContext>({
      typeDefs: [parse('type Query { me: String! }'), mounted.typeDefs],
      resolvers: [{ Query: { me: (_: unknown, __: unknown, ctx: HostContext) => ctx.user } }, mounted.resolvers],
    });
    await host.start();
  });

  afterAll(async () => {
    await host?.stop();
    await mounted?.stop();
  });

  async function run<T>(query: string, contextValue: HostContext): Promise<{ data?: T; errors?: readonly { message: string }[] }> {
    const res = await host.executeOperation<T>({ query }, { contextValue });
    if (res.body.kind !== 'single') throw new Error('expected a single result');
    return res.body.singleResult as { data?: T; errors?: readonly { message: string }[] };
  }

  it('answers the host field, the catalog and synthesize side by side, with the host grants', async () => {
    type R = { me: string; tables: { edges: { node: { name: string } }[] }; synthesize: { tables: { name: string }[] } };
    const q = '{ me tables { edges { node { name } } } synthesize(question: "customers and their orders") { tables { name } } }';
    const narrow = await run<R>(q, { user: 'bi-user', grants: ['sales.customers'] });
    expect(narrow.errors).toBeUndefined();
    expect(narrow.data!.me).toBe('bi-user');
    expect(narrow.data!.tables.edges.map((e) => e.node.name)).toEqual(['customers']);
    expect(narrow.data!.synthesize.tables.map((t) => t.name)).toEqual(['customers']);

    const wide = await run<R>(q, { user: 'admin', grants: 'all' });
    expect(wide.errors).toBeUndefined();
    expect(wide.data!.tables.edges.map((e) => e.node.name)).toEqual(['customers', 'orders']);
    expect(wide.data!.synthesize.tables.map((t) => t.name).sort()).toEqual(['customers', 'orders']);
  });

  it('a host principal with a malformed grant is refused', async () => {
    const r = await run('{ tables { totalCount } }', { user: 'x', grants: ['no-dot'] });
    expect(r.errors?.[0]?.message).toMatch(/grant 'no-dot'/);
  });
});
