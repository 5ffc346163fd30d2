import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServedEngine } from '../../src/api/index.js';
import type { CatalogDatabase } from '../../src/catalog/database.js';
import { getIntrospectionQuery } from '../../src/api/graphql.js';
import { catalogBackends } from '../support/catalogs.js';
import { addEscapingSymlink, buildApiLake, ingestApiLake, startTestServer, type ApiLake, type TestServer } from './support/fixture.js';
import { makeTestEngine, type InstrumentedEngine } from './support/testEngine.js';

/**
 * The API end to end: a real server on a loopback port, real HTTP (fetch), a catalog holding
 * the three-source lake (test/api/support/fixture.ts), anonymous access (every table visible).
 * Grants have their own suite (auth.test.ts).
 */

type Edge = { cursor: string; node: { id: string; name: string } };
type Conn = { totalCount: number; pageInfo: { hasNextPage: boolean; endCursor: string | null }; edges: Edge[] };

describe.each(catalogBackends)('GraphQL API on $name', (backend) => {
  let lake: ApiLake;
  let db: CatalogDatabase;
  let engine: InstrumentedEngine;
  /** The engine double answers (else the real engine: its choices are not asserted). */
  let double: boolean;
  let api: TestServer;
  let tableIds: Map<string, string>;

  beforeAll(async () => {
    lake = await buildApiLake();
    db = await backend.open();
    await ingestApiLake(db, lake);
    ({ engine, double } = await makeTestEngine(db));
    api = await startTestServer(db, engine, { lakeRoots: [lake.lakesDir] });
    const rows = await db.prisma.lakeTable.findMany({ select: { id: true, name: true } });
    tableIds = new Map(rows.map((r) => [r.name, r.id]));
  });
  afterAll(async () => {
    await api?.close();
    await db?.close();
    await lake?.cleanup();
  });

  describe('health and plumbing', () => {
    it('answers /healthz and /readyz, echoing or generating the request id', async () => {
      const h = await fetch(`${api.url}/healthz`, { headers: { 'x-request-id': 'probe-42' } });
      expect(h.status).toBe(200);
      expect(await h.json()).toEqual({ status: 'ok' });
      expect(h.headers.get('x-request-id')).toBe('probe-42');
      const r = await fetch(`${api.url}/readyz`, { headers: { 'x-request-id': 'bad id with spaces' } });
      expect(r.status).toBe(200);
      expect(await r.json()).toMatchObject({ status: 'ready' });
      expect(r.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });

    it("reads not ready on /readyz while the engine says so (its workers warming up), and answers meanwhile", async () => {
      let warm = false;
      const gated: ServedEngine = {
        intentGraph: (question, o) => engine.intentGraph(question, o),
        synthesize: (question, o) => engine.synthesize(question, o),
        explain: (args) => engine.explain(args),
        invalidate: () => engine.invalidate(),
        readiness: () => (warm ? 'ready' : 'warming-up'),
      };
      const server = await startTestServer(db, gated);
      try {
        const warming = await fetch(`${server.url}/readyz`);
        expect(warming.status).toBe(503);
        expect(warming.headers.get('retry-after')).toBe('1');
        expect(await warming.json()).toEqual({ status: 'warming-up', database: db.kind, engine: 'warming-up' });
        const answered = await server.gql<{ tables: { totalCount: number } }>('{ tables(first: 1) { totalCount } }');
        expect(answered.data?.tables.totalCount).toBeGreaterThan(0);
        warm = true;
        const ready = await fetch(`${server.url}/readyz`);
        expect(ready.status).toBe(200);
        expect(await ready.json()).toEqual({ status: 'ready', database: db.kind, engine: 'ready' });
      } finally {
        await server.close();
      }
    });

    it('puts the request id on GraphQL errors and answers unknown routes with 404', async () => {
      const r = await api.gql('{ table(id: 1) { nope } }', undefined, { headers: { 'x-request-id': 'req-7' } });
      expect(r.headers.get('x-request-id')).toBe('req-7');
      expect(r.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', reason: 'GRAPHQL_VALIDATION_FAILED', requestId: 'req-7' });
      const nf = await fetch(`${api.url}/nope`);
      expect(nf.status).toBe(404);
    });

    it('answers a subscription (the schema has none) as a client error, logged below error level', async () => {
      const lines: string[] = [];
      const { pino } = await import('pino');
      const logger = pino({ level: 'info' }, { write: (s: string) => void lines.push(s) });
      const logged = await startTestServer(db, engine, {}, logger);
      try {
        const r = await logged.gql('subscription { x }');
        expect(r.status).toBe(400);
        expect(r.data).toBeNull();
        expect(r.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
        expect(r.errors?.[0].message).toMatch(/subscription/i);
        const named = await logged.gql('subscription Changes { tables { totalCount } }');
        expect(named.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
        const entries = lines.map((l) => JSON.parse(l) as { level: number; msg: string });
        expect(entries.filter((e) => e.level >= 50)).toEqual([]);
      } finally {
        await logged.close();
      }
    });

    it('rejects a syntax error and invalid JSON as BAD_USER_INPUT', async () => {
      const r = await api.gql('{ tables(first: ) }');
      expect(r.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', reason: 'GRAPHQL_PARSE_FAILED' });
      const bad = await fetch(`${api.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query": ' });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { errors: { extensions: { code: string } }[] }).errors[0].extensions.code).toBe('BAD_USER_INPUT');
    });
  });

  describe('catalog queries', () => {
    it('fetches one table with its columns; unknown or malformed ids give null', async () => {
      const id = tableIds.get('club')!;
      const r = await api.gql<{ table: { id: string; name: string; source: string; format: string; rowCount: number; ingestedAt: string; columns: { name: string; ordinal: number }[] } }>(
        'query($id: ID!) { table(id: $id) { id name source format rowCount ingestedAt columns { name ordinal } } }',
        { id },
      );
      expect(r.errors).toBeUndefined();
      expect(r.data!.table).toMatchObject({ id, name: 'club', source: 'demo', format: 'csv', rowCount: 12 });
      expect(new Date(r.data!.table.ingestedAt).toISOString()).toBe(r.data!.table.ingestedAt);
      expect(r.data!.table.columns.map((c) => c.name)).toEqual(['club_id', 'club_name', 'city', 'founded']);
      // How many values a column keeps as hashes beyond its top values: the player names (150 of them), none of the club's 12.
      const hashed = await api.gql<{ table: { columns: { name: string; hashedValues: number }[] } }>('query($id: ID!) { table(id: $id) { columns { name hashedValues } } }', {
        id: tableIds.get('player')!,
      });
      expect(hashed.errors).toBeUndefined();
      expect(Object.fromEntries(hashed.data!.table.columns.map((c) => [c.name, c.hashedValues]))).toMatchObject({ player_id: 0, full_name: 150, nationality: 0 });
      for (const bad of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', "'; DROP TABLE lake_table; --"]) {
        const n = await api.gql('query($id: ID!) { table(id: $id) { id } }', { id: bad });
        expect(n.errors).toBeUndefined();
        expect(n.data).toEqual({ table: null });
      }
    });

    it('walks every page of tables: no duplicates, nothing missing, stable totalCount, name order', async () => {
      const expected = await db.prisma.lakeTable.count();
      const seen: string[] = [];
      const names: string[] = [];
      let after: string | null = null;
      let pages = 0;
      for (;;) {
        const r: { data: { tables: Conn } | null; errors?: unknown } = await api.gql<{ tables: Conn }>(
          'query($after: String) { tables(first: 4, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id name } } } }',
          { after },
        );
        expect(r.errors).toBeUndefined();
        const c = r.data!.tables;
        expect(c.totalCount).toBe(expected);
        seen.push(...c.edges.map((e) => e.node.id));
        names.push(...c.edges.map((e) => e.node.name));
        pages++;
        if (c.edges.length) expect(c.pageInfo.endCursor).toBe(c.edges.at(-1)!.cursor);
        if (!c.pageInfo.hasNextPage) break;
        after = c.pageInfo.endCursor;
        expect(pages).toBeLessThan(50);
      }
      expect(new Set(seen).size).toBe(seen.length);
      expect(new Set(seen)).toEqual(new Set(tableIds.values()));
      expect(pages).toBe(Math.ceil(expected / 4));
      const sorted = [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      expect(names).toEqual(sorted);
    });

    it('filters tables and counts the filtered set', async () => {
      const r = await api.gql<{ tables: Conn }>('{ tables(filter: { nameContains: "GAME_" }) { totalCount edges { node { name } } } }');
      expect(r.data!.tables.totalCount).toBe(3);
      expect(r.data!.tables.edges.map((e) => e.node.name)).toEqual(['game_results_2021', 'game_results_2022', 'game_results_2023']);
      const s = await api.gql<{ tables: Conn }>('{ tables(filter: { source: "hr" }) { totalCount edges { node { name } } } }');
      expect(s.data!.tables.edges.map((e) => e.node.name)).toEqual(['departments', 'employees']);
      const like = await api.gql<{ tables: Conn }>('{ tables(filter: { nameContains: "%" }) { totalCount } }');
      expect(like.data!.tables.totalCount).toBe(0);
    });

    it('walks columns of all tables and of one table', async () => {
      const expected = await db.prisma.lakeColumn.count();
      const seen = new Set<string>();
      let after: string | null = null;
      for (let i = 0; i < 100; i++) {
        const r: { data: { columns: Conn } | null } = await api.gql<{ columns: Conn }>(
          'query($after: String) { columns(first: 37, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id name } } } }',
          { after },
        );
        const c = r.data!.columns;
        expect(c.totalCount).toBe(expected);
        for (const e of c.edges) {
          expect(seen.has(e.node.id)).toBe(false);
          seen.add(e.node.id);
        }
        if (!c.pageInfo.hasNextPage) break;
        after = c.pageInfo.endCursor;
      }
      expect(seen.size).toBe(expected);
      const one = await api.gql<{ columns: { totalCount: number; edges: { node: { ordinal: number; tableName: string } }[] } }>(
        'query($t: ID) { columns(tableId: $t, first: 2) { totalCount edges { node { ordinal tableName } } } }',
        { t: tableIds.get('employees') },
      );
      expect(one.data!.columns.totalCount).toBe(5);
      expect(one.data!.columns.edges.map((e) => e.node.ordinal)).toEqual([0, 1]);
      expect(one.data!.columns.edges[0].node.tableName).toBe('employees');
    });

    it('rejects bad cursors and page sizes with BAD_USER_INPUT', async () => {
      for (const [q, field] of [
        ['{ tables(after: "garbage") { totalCount } }', 'after'],
        ['{ tables(first: 501) { totalCount } }', 'first'],
        ['{ columns(first: -1) { totalCount } }', 'first'],
        ['{ searchColumns(text: "x", first: 501) { score } }', 'first'],
      ] as const) {
        const r = await api.gql(q);
        expect(r.errors?.[0].extensions, q).toMatchObject({ code: 'BAD_USER_INPUT', field });
      }
      // A column cursor is not a table cursor.
      const c = await api.gql<{ columns: Conn }>('{ columns(first: 1) { pageInfo { endCursor } } }');
      const r = await api.gql('query($a: String) { tables(after: $a) { totalCount } }', { a: c.data!.columns.pageInfo.endCursor });
      expect(r.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
    });

    it('lists join and union neighbours with scores and key columns', async () => {
      const r = await api.gql<{
        table: {
          joinable: { tableName: string; localColumn: string; remoteColumn: string; score: number; containment: number; table: { id: string } }[];
          unionable: { tableName: string; score: number; alignedColumns: number; alignment: { localColumn: { name: string }; remoteColumn: { name: string } }[] }[];
        };
      }>(
        `query($id: ID!) { table(id: $id) {
           joinable { tableName localColumn remoteColumn score containment table { id } }
           unionable { tableName score alignedColumns alignment { localColumn { name } remoteColumn { name } } } } }`,
        { id: tableIds.get('club') },
      );
      expect(r.errors).toBeUndefined();
      const t = r.data!.table;
      const bridge = t.joinable.find((j) => j.tableName === 'player_club_map');
      expect(bridge).toMatchObject({ localColumn: 'club_id', remoteColumn: 'club_id' });
      expect(bridge!.table.id).toBe(tableIds.get('player_club_map'));
      expect(bridge!.score).toBeGreaterThan(0.5);
      const copy = t.unionable.find((u) => u.tableName === 'club_copy');
      expect(copy?.score).toBeCloseTo(1, 5);
      expect(copy?.alignedColumns).toBe(4);
      expect(copy?.alignment.map((a) => [a.localColumn.name, a.remoteColumn.name])).toContainEqual(['club_name', 'club_name']);
      const scores = t.joinable.map((j) => j.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
    });

    it('searchColumns merges the vector and the lexical ranking', async () => {
      type Hit = { score: number; vectorScore: number | null; lexicalScore: number | null; matchedBy: string[]; column: { name: string; tableName: string } };
      const r = await api.gql<{ searchColumns: Hit[] }>('{ searchColumns(text: "salary", first: 5) { score vectorScore lexicalScore matchedBy column { name tableName } } }');
      expect(r.errors).toBeUndefined();
      const hits = r.data!.searchColumns;
      expect(hits.length).toBeGreaterThan(0);
      expect(hits[0].column.name).toBe('salary');
      expect(hits[0].matchedBy).toEqual(['vector', 'lexical']);
      expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a));
      // "salaries" matches no name by ILIKE: only the embedding (lemmatised header words) finds the column.
      const v = await api.gql<{ searchColumns: Hit[] }>('{ searchColumns(text: "salaries", first: 3) { vectorScore lexicalScore matchedBy column { name } } }');
      expect(v.data!.searchColumns[0].column.name).toBe('salary');
      expect(v.data!.searchColumns[0].matchedBy).toEqual(['vector']);
      expect(v.data!.searchColumns[0].vectorScore).toBeGreaterThan(0.3);
      const empty = await api.gql('{ searchColumns(text: "   ") { score } }');
      expect(empty.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
    });
  });

  describe('engine queries', () => {
    it('intentGraph returns trees with groundings named from the catalog', async () => {
      type G = { tableId: string; tableName: string; columnId: string | null; columnName: string | null; kind: string };
      const r = await api.gql<{
        intentGraph: { version: number; source: string; trees: { entity: { label: string; groundings: G[] }; attributes: { label: string; groundings: G[] }[] }[]; edges: { from: string; to: string }[]; json: unknown };
      }>(
        `{ intentGraph(question: "which employees have a salary above the departments average") {
            version source edges { from to } json
            trees { entity { label groundings { tableId tableName columnId columnName kind } } attributes { label groundings { tableName columnName kind } } } } }`,
      );
      expect(r.errors).toBeUndefined();
      const g = r.data!.intentGraph;
      expect(g.source).toBe('offline');
      expect((g.json as { version: number }).version).toBe(1);
      // Every grounding names its table (and column) as the catalog does.
      const names = new Map([...tableIds].map(([n, id]) => [id, n]));
      for (const gr of g.trees.flatMap((t) => t.entity.groundings)) expect(gr.tableName).toBe(names.get(gr.tableId));
      if (double) {
        // The demo lake has a `department` table too: the double grounds every table name it finds.
        expect(g.trees.map((t) => t.entity.label).sort()).toEqual(['department', 'departments', 'employees']);
        const emp = g.trees.find((t) => t.entity.label === 'employees')!;
        expect(emp.entity.groundings[0]).toMatchObject({ tableId: tableIds.get('employees'), tableName: 'employees', kind: 'table-name', columnId: null });
        expect(emp.attributes.map((a) => a.groundings[0])).toContainEqual({ tableName: 'employees', columnName: 'salary', kind: 'column-name' });
        expect(g.edges).toHaveLength(2);
        const llm = await api.gql<{ intentGraph: { source: string } }>('{ intentGraph(question: "club", extractor: LLM) { source } }');
        expect(llm.data!.intentGraph.source).toBe('offline-fallback');
      }
    });

    it('synthesize stores the result: synthesis(id) returns it again', async () => {
      const q = `query($q: String!) { synthesize(question: $q, budget: 5, beamWidth: 4, preview: 3) {
          id question sql score executable elapsedMs createdAt tableCount unsupportedAtoms warnings valueFunction
          tables { id name uri role atoms gain table { id name } }
          joinSteps { left { table column } right { table column } score containment }
          unionGroups { tables columns }
          preview { columns rows }
          intent { source trees { entity { label } } } } }`;
      const r = await api.gql<{ synthesize: Record<string, unknown> & { id: string; tables: { id: string; name: string; role: string; table: { id: string } }[]; preview: { columns: string[]; rows: (string | null)[][] } } }>(q, {
        q: 'orders of customers',
      });
      expect(r.errors).toBeUndefined();
      const s = r.data!.synthesize;
      expect(s.id).toMatch(/^[0-9a-f-]{36}$/);
      // No value model has been trained on this catalog: the heuristic guides the search.
      expect(s.valueFunction).toBe('heuristic');
      expect(s.tables.length).toBeGreaterThan(0);
      expect(s.tables.every((t) => t.table.id === t.id)).toBe(true);
      if (double) {
        expect(s.tables.map((t) => t.name).sort()).toEqual(['customers', 'orders']);
        expect(s.tables[0].role).toBe('WITNESS');
        expect(s.joinSteps).toContainEqual(expect.objectContaining({ left: { table: 'orders', column: 'customer_id' }, right: { table: 'customers', column: 'customer_id' } }));
        expect(s.preview.rows).toHaveLength(3);
      }
      if (s.preview) {
        expect(s.preview.columns.length).toBeGreaterThan(0);
        expect(s.preview.rows.length).toBeLessThanOrEqual(3);
        for (const row of s.preview.rows) expect(row).toHaveLength(s.preview.columns.length);
      }
      expect(await db.prisma.synthesis.count({ where: { id: s.id } })).toBe(1);

      const again = await api.gql<{ synthesis: Record<string, unknown> }>(
        q.replace('query($q: String!) { synthesize(question: $q, budget: 5, beamWidth: 4, preview: 3)', 'query($id: ID!) { synthesis(id: $id)'),
        { id: s.id },
      );
      expect(again.errors).toBeUndefined();
      expect(again.data!.synthesis).toEqual(s);
      const none = await api.gql('{ synthesis(id: "00000000-0000-4000-8000-000000000000") { id } }');
      expect(none.data).toEqual({ synthesis: null });
    });

    it("synthesize reports each alternate's confidence, stores it, and passes minAlternateConfidence to the engine", async () => {
      type Tables = { id: string; tables: { name: string; role: string; confidence: number | null }[] };
      const fields = '{ id tables { name role confidence } }';
      const ask = (floor: string) => api.gql<{ synthesize: Tables }>(`{ synthesize(question: "club and player", budget: 10${floor}) ${fields} }`);
      const all = await ask(', minAlternateConfidence: 0');
      expect(all.errors).toBeUndefined();
      const s = all.data!.synthesize;
      const alternates = s.tables.filter((t) => t.role === 'ALTERNATE');
      expect(alternates.length).toBeGreaterThan(0);
      for (const t of alternates) expect(t.confidence).toBeGreaterThan(0);
      for (const t of alternates) expect(t.confidence).toBeLessThan(1);
      for (const t of s.tables.filter((t) => t.role !== 'ALTERNATE')) expect(t.confidence).toBeNull();
      const again = await api.gql<{ synthesis: Tables }>(`query($id: ID!) { synthesis(id: $id) ${fields} }`, { id: s.id });
      expect(again.data!.synthesis).toEqual(s);
      // No confidence reaches 1: the core alone.
      const strict = await ask(', minAlternateConfidence: 1');
      expect(strict.data!.synthesize.tables.filter((t) => t.role === 'ALTERNATE')).toEqual([]);
      expect(strict.data!.synthesize.tables.map((t) => t.name)).toEqual(s.tables.filter((t) => t.role !== 'ALTERNATE').map((t) => t.name));
    });

    it('forgets syntheses past the retention: served as null at once, deleted when a server starts', async () => {
      const r = await api.gql<{ synthesize: { id: string } }>('query($q: String!) { synthesize(question: $q, budget: 3) { id } }', { q: 'orders of customers' });
      const id = r.data!.synthesize.id;
      const fetch = (server: TestServer) => server.gql<{ synthesis: { id: string } | null }>('query($id: ID!) { synthesis(id: $id) { id } }', { id });
      expect((await fetch(api)).data!.synthesis).toEqual({ id });
      // Older than the default 30 days: gone for this server before any prune has run.
      await db.sql.query(`UPDATE synthesis SET created_at = now() - interval '31 days' WHERE id = $1::uuid`, [id]);
      expect((await fetch(api)).data!.synthesis).toBeNull();
      expect(await db.prisma.synthesis.count({ where: { id } })).toBe(1);
      // A server keeping syntheses for ever still serves it; one keeping them a day deletes it as it starts.
      const forever = await startTestServer(db, engine, { synthesisRetentionDays: 0 });
      try {
        expect((await fetch(forever)).data!.synthesis).toEqual({ id });
      } finally {
        await forever.close();
      }
      const daily = await startTestServer(db, engine, { synthesisRetentionDays: 1 });
      await daily.close();
      expect(await db.prisma.synthesis.count({ where: { id } })).toBe(0);
    });

    it('synthesize accepts an edited intent graph and validates it', async () => {
      const ig = await api.gql<{ intentGraph: { json: { trees: unknown[] } } }>('{ intentGraph(question: "club and player") { json } }');
      const intent = ig.data!.intentGraph.json;
      const r = await api.gql<{ synthesize: { intent: { source: string }; tables: { name: string; role: string }[] } }>(
        'query($i: IntentGraphInput) { synthesize(question: "anything", intent: $i) { intent { source } tables { name role } } }',
        { i: intent },
      );
      expect(r.errors).toBeUndefined();
      expect(r.data!.synthesize.intent.source).toBe('given');
      if (double) expect(r.data!.synthesize.tables.filter((t) => t.role !== 'ALTERNATE').map((t) => t.name).sort()).toEqual(['club', 'player']);

      const badEdge = { trees: [{ entity: { id: 'e0', label: 'club' } }], edges: [{ id: 'r0', from: 'e0', to: 'e9' }] };
      const e1 = await api.gql('query($i: IntentGraphInput) { synthesize(question: "x", intent: $i) { id } }', { i: badEdge });
      expect(e1.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
      expect(e1.errors?.[0].message).toContain('edges[0].to');
      const badGrounding = { trees: [{ entity: { id: 'e0', label: 'x', grounding: [{ tableId: '00000000-0000-4000-8000-000000000000', kind: 'table-name', score: 1 }] } }] };
      const e2 = await api.gql('query($i: IntentGraphInput) { synthesize(question: "x", intent: $i) { id } }', { i: badGrounding });
      expect(e2.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'intent.trees[0].entity.grounding[0].tableId' });
    });

    it('synthesize enforces budget, beam, preview and question limits', async () => {
      for (const args of ['budget: 31', 'budget: 0', 'beamWidth: 33', 'preview: 101', 'preview: -1', 'minAlternateConfidence: 1.5', 'minAlternateConfidence: -0.1']) {
        const r = await api.gql(`{ synthesize(question: "club", ${args}) { id } }`);
        expect(r.errors?.[0].extensions.code, args).toBe('BAD_USER_INPUT');
      }
      const empty = await api.gql('{ synthesize(question: "  ") { id } }');
      expect(empty.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'question' });
      const long = await api.gql('query($q: String!) { synthesize(question: $q) { id } }', { q: 'club '.repeat(1000) });
      expect(long.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
    });

    it('explainScore explains a stored synthesis or given tables; unknown ids are NOT_FOUND', async () => {
      const s = await api.gql<{ synthesize: { id: string; score: number; tables: { id: string }[] } }>('{ synthesize(question: "employees and departments") { id score tables { id } } }');
      const sid = s.data!.synthesize.id;
      type X = { explainScore: { tableIds: string[]; score: number; atoms: { atomId: string; kind: string; supportedBy: string[] }[]; tables: { tableId: string; name: string }[]; redundancy: { rho: number }[]; determinant: { atoms: number } } };
      const e = await api.gql<X>(
        'query($s: ID) { explainScore(synthesisId: $s) { tableIds score atoms { atomId kind supportedBy } tables { tableId name marginalGain leaveOneOutLoss } redundancy { tableA tableB rho } determinant { atoms logDetPrior logDetPosterior } unsupportedAtoms warnings } }',
        { s: sid },
      );
      expect(e.errors).toBeUndefined();
      expect(new Set(e.data!.explainScore.tableIds)).toEqual(new Set(s.data!.synthesize.tables.map((t) => t.id)));
      if (double) {
        expect(e.data!.explainScore.score).toBeCloseTo(s.data!.synthesize.score, 9);
        expect(e.data!.explainScore.determinant.atoms).toBe(e.data!.explainScore.atoms.length);
      }

      const given = await api.gql<X>('query($t: [ID!]) { explainScore(question: "employees and departments", tables: $t) { tableIds score atoms { atomId kind supportedBy } tables { tableId name } } }', {
        t: [tableIds.get('employees')],
      });
      const ex = given.data!.explainScore;
      expect(ex.tables.map((t) => t.name)).toEqual(['employees']);
      for (const a of ex.atoms) for (const id of a.supportedBy) expect(id).toBe(tableIds.get('employees'));
      if (double) {
        expect(ex.score).toBeCloseTo(ex.atoms.filter((a) => a.supportedBy.length > 0).length / ex.atoms.length, 9);
        expect(ex.score).toBeLessThan(e.data!.explainScore.score);
      }

      const unknown = await api.gql('query($t: [ID!]) { explainScore(question: "x", tables: $t) { score } }', { t: ['00000000-0000-4000-8000-000000000000'] });
      expect(unknown.errors?.[0].extensions.code).toBe('NOT_FOUND');
      const noSyn = await api.gql('{ explainScore(synthesisId: "00000000-0000-4000-8000-000000000000") { score } }');
      expect(noSyn.errors?.[0].extensions.code).toBe('NOT_FOUND');
      const nothing = await api.gql('{ explainScore { score } }');
      expect(nothing.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
    });

    it('passes no table filter to the engine for anonymous callers (they see everything)', () => {
      expect(engine.calls.length).toBeGreaterThan(0);
      expect(engine.calls.every((c) => !c.filtered)).toBe(true);
    });
  });

  describe('limits', () => {
    it('rejects a query deeper than the limit', async () => {
      const deep = '{ tables(first: 1) { edges { node { joinable { table { joinable { table { joinable { table { columns { table { id } } } } } } } } } } } }';
      const r = await api.gql(deep);
      expect(r.status).toBe(400);
      expect(r.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', limit: 'depth', max: 10 });
    });

    it('rejects a query whose estimated cost is too high, accepts a 100-table page with columns and neighbours', async () => {
      const huge = '{ tables(first: 500) { edges { node { columns { table { columns { name } } } } } } }';
      const r = await api.gql(huge);
      expect(r.status).toBe(400);
      expect(r.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', limit: 'complexity' });
      const viaVariables = await api.gql('query($n: Int) { tables(first: $n) { edges { node { columns { table { columns { name } } } } } } }', { n: 500 });
      expect(viaVariables.errors?.[0].extensions.limit).toBe('complexity');
      const ok = await api.gql(
        '{ tables(first: 100) { totalCount edges { node { id name columns { id name logicalType } joinable { tableName score localColumn remoteColumn } unionable { tableName score } } } } }',
      );
      expect(ok.errors).toBeUndefined();
    });

    it('refuses a page larger than the most it serves by naming the argument, not by a complexity figure', async () => {
      for (const [query, variables] of [
        ['{ tables(first: 100000) { edges { node { id } } } }', undefined],
        ['query($n: Int) { searchColumns(text: "player", first: $n) { column { id } } }', { n: 100000 }],
      ] as const) {
        const r = await api.gql(query, variables);
        expect(r.status).toBe(200);
        expect(r.data).toBeNull();
        expect(r.errors?.[0]).toMatchObject({ message: 'first must be at most 500', extensions: { code: 'BAD_USER_INPUT', field: 'first' } });
      }
    });

    it('judges a repeated query again by its numbers, and quotes each caller its own bad value', async () => {
      const paged = 'query($n: Int, $q: String) { tables(first: $n, filter: { nameContains: $q }) { edges { node { columns { table { columns { name } } } } } } }';
      for (const n of [500, 5, 500, 5]) {
        const r = await api.gql(paged, { n, q: `club ${n}` });
        if (n === 500) expect(r.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', limit: 'complexity' });
        else expect(r.errors).toBeUndefined();
      }
      // The remembered verdict leaves strings out of its key, so coercion errors, which quote the
      // value, are never remembered: the second caller reads its own value, not the first's.
      const first = await api.gql(paged, { n: 'abc' });
      const second = await api.gql(paged, { n: 'xyz' });
      expect(first.status).toBe(400);
      expect(first.errors?.[0].message).toContain('abc');
      expect(second.errors?.[0].message).toContain('xyz');
      expect(second.errors?.[0].message).not.toContain('abc');
    });

    it('lets the standard introspection query (GraphiQL, codegen) through the limits, in development and in production with introspection on', async () => {
      type Intro = { __schema: { queryType: { name: string }; types: { name: string }[] } };
      const r = await api.gql<Intro>(getIntrospectionQuery());
      expect(r.errors).toBeUndefined();
      expect(r.status).toBe(200);
      expect(r.data!.__schema.queryType.name).toBe('Query');
      expect(r.data!.__schema.types.map((t) => t.name)).toContain('Table');
      const full = await api.gql<Intro>(getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true }));
      expect(full.errors).toBeUndefined();
      const prod = await startTestServer(db, engine, { production: true, introspection: true });
      try {
        const p = await prod.gql<Intro>(getIntrospectionQuery());
        expect(p.errors).toBeUndefined();
        expect(p.data!.__schema.queryType.name).toBe('Query');
      } finally {
        await prod.close();
      }
    });

    it('still costs the non-introspection part of a mixed operation', async () => {
      const huge = '{ tables(first: 500) { edges { node { columns { table { columns { name } } } } } } }';
      const mixed = await api.gql(`{ __schema { types { name } } ${huge.slice(1, -1)} }`);
      expect(mixed.status).toBe(400);
      expect(mixed.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', limit: 'complexity' });
      // Aliased engine calls next to an introspection field are no cheaper either: the engine-field
      // cap refuses them before their complexity is summed.
      const engines = Array.from({ length: 120 }, (_, i) => `s${i}: synthesize(question: "club") { id }`).join(' ');
      const aliased = await api.gql(`{ __typename __type(name: "Query") { name } ${engines} }`);
      expect(aliased.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', limit: 'engineFields' });
      // Free introspection is still bounded: graphql-js's MaxIntrospectionDepthRule refuses deep nesting.
      const nested = await api.gql('{ __schema { types { fields { type { fields { type { fields { type { fields { name } } } } } } } } } }');
      expect(nested.status).toBe(400);
      expect(nested.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', reason: 'GRAPHQL_VALIDATION_FAILED' });
      // Small mixed operations pass.
      const small = await api.gql<{ __type: { name: string }; tables: { totalCount: number } }>('{ __type(name: "Table") { name fields { name } } tables(first: 5) { totalCount } }');
      expect(small.errors).toBeUndefined();
      expect(small.data!.__type.name).toBe('Table');
    });

    it('answers 413 to a body over the limit (declared or streamed)', async () => {
      const big = JSON.stringify({ query: '{ tables { totalCount } }', variables: { pad: 'x'.repeat(1024 * 1024 + 10) } });
      const r = await fetch(`${api.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: big });
      expect(r.status).toBe(413);
      expect(((await r.json()) as { errors: { extensions: { code: string } }[] }).errors[0].extensions.code).toBe('BAD_USER_INPUT');
      const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= 20) controller.close();
          else {
            sent++;
            controller.enqueue(chunk);
          }
        },
      });
      const s = await fetch(`${api.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: stream, duplex: 'half' } as RequestInit);
      expect(s.status).toBe(413);
    });

    it('times out a slow synthesize with code TIMEOUT', async () => {
      const quick = await startTestServer(db, engine, { engineTimeoutMs: 150 });
      try {
        const t0 = Date.now();
        const r = await quick.gql('{ synthesize(question: "club sleep:5000") { id } }');
        expect(Date.now() - t0).toBeLessThan(3000);
        expect(r.errors?.[0].extensions.code).toBe('TIMEOUT');
        expect(r.errors?.[0].message).toContain('150 ms');
      } finally {
        await quick.close();
      }
    });
  });

  describe('errors in production', () => {
    it('development: internal errors keep their message and a stack trace', async () => {
      const r = await api.gql('{ synthesize(question: "explode") { id } }');
      expect(r.errors?.[0].extensions.code).toBe('INTERNAL');
      expect(r.errors?.[0].message).toContain('lake_table_secret');
      expect(r.errors?.[0].extensions.stacktrace).toBeDefined();
    });

    it('production: INTERNAL with a generic message and the request id; details only in the log; no introspection', async () => {
      const lines: string[] = [];
      const { pino } = await import('pino');
      const logger = pino({ level: 'info' }, { write: (s: string) => void lines.push(s) });
      const prod = await startTestServer(db, engine, { production: true, introspection: false }, logger);
      try {
        const r = await prod.gql('{ synthesize(question: "explode") { id } }', undefined, { headers: { 'x-request-id': 'prod-1' } });
        expect(r.errors?.[0]).toEqual({ message: 'Internal server error (request prod-1)', path: ['synthesize'], locations: expect.anything(), extensions: { code: 'INTERNAL', requestId: 'prod-1' } });
        expect(r.raw).not.toContain('lake_table_secret');
        expect(r.raw).not.toContain('SELECT');
        expect(r.raw).not.toMatch(/at .*\.ts:\d+/);
        const logged = lines.map((l) => JSON.parse(l) as { reqId?: string; err?: { message: string; stack: string }; msg: string });
        const entry = logged.find((l) => l.reqId === 'prod-1' && l.msg === 'request failed');
        expect(entry?.err?.message).toContain('lake_table_secret');
        expect(entry?.err?.stack).toBeDefined();
        // User errors stay informative in production.
        const bad = await prod.gql('{ synthesize(question: "club", budget: 99) { id } }');
        expect(bad.errors?.[0]).toMatchObject({ message: 'budget must be an integer between 1 and 30', extensions: { code: 'BAD_USER_INPUT', field: 'budget' } });
        const intro = await prod.gql('{ __schema { types { name } } }');
        expect(intro.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
        const devIntro = await api.gql<{ __schema: { types: unknown[] } }>('{ __schema { types { name } } }');
        expect(devIntro.data!.__schema.types.length).toBeGreaterThan(10);
      } finally {
        await prod.close();
      }
    });
  });

  describe('CATALOG_IN_USE', () => {
    it('reaches the client as CATALOG_IN_USE: the holder named in development, a safe sentence in production, logged as a failure', async () => {
      const dev = await api.gql('{ synthesize(question: "club lockheld") { id } }');
      expect(dev.errors?.[0].extensions.code).toBe('CATALOG_IN_USE');
      expect(dev.errors?.[0].message).toContain(`in use by process ${process.pid}`);

      const lines: string[] = [];
      const { pino } = await import('pino');
      const logger = pino({ level: 'info' }, { write: (s: string) => void lines.push(s) });
      const prod = await startTestServer(db, engine, { production: true, introspection: false }, logger);
      try {
        const r = await prod.gql('{ synthesize(question: "club lockheld") { id } }', undefined, { headers: { 'x-request-id': 'lock-1' } });
        expect(r.errors?.[0].extensions.code).toBe('CATALOG_IN_USE');
        expect(r.errors?.[0].message).toMatch(/^the catalog is in use by another process/);
        expect(r.raw).not.toContain(String(process.pid));
        const logged = lines.map((l) => JSON.parse(l) as { reqId?: string; msg: string; code?: string; err?: { message: string } });
        const entry = logged.find((l) => l.reqId === 'lock-1' && l.msg === 'request failed');
        expect(entry?.code).toBe('CATALOG_IN_USE');
        expect(entry?.err?.message).toContain(`in use by process ${process.pid}`);
      } finally {
        await prod.close();
      }
    });
  });

  describe('mutations', () => {
    it('confines ingest paths to the lake roots', async () => {
      const cases: [string, string][] = [
        ['../../etc/passwd', 'FORBIDDEN'],
        ['/etc', 'FORBIDDEN'],
        [path.join(lake.outsideDir, 'secret.csv'), 'FORBIDDEN'],
        ['sales/../../outside', 'FORBIDDEN'],
        ['no-such-folder', 'BAD_USER_INPUT'],
        ['', 'BAD_USER_INPUT'],
      ];
      for (const [p, code] of cases) {
        const r = await api.gql('mutation($p: String!) { ingest(path: $p) { id } }', { p });
        expect(r.errors?.[0].extensions.code, p).toBe(code);
      }
      const link = await addEscapingSymlink(lake);
      try {
        const viaLink = await api.gql('mutation($p: String!) { ingest(path: $p) { id } }', { p: 'escape' });
        expect(viaLink.errors?.[0].extensions.code).toBe('FORBIDDEN');
        expect(viaLink.errors?.[0].message).not.toContain(lake.outsideDir);
        // The whole root now contains a symlink leading out: refused too.
        const root = await api.gql('mutation($p: String!) { ingest(path: $p) { id } }', { p: lake.lakesDir });
        expect(root.errors?.[0].extensions.code).toBe('FORBIDDEN');
      } finally {
        const { unlink } = await import('node:fs/promises');
        await unlink(link);
      }
      expect(await db.prisma.lakeTable.count({ where: { name: 'secret' } })).toBe(0);
    });

    it('ingest answers at once with a running run; ingestRun reports progress, per-file errors and the result', async () => {
      const extra = path.join(lake.lakesDir, 'extra');
      await mkdir(extra, { recursive: true });
      await writeFile(path.join(extra, 'shipments.csv'), 'shipment_id,order_id,carrier\n1,70001,DHL\n2,70002,UPS\n3,70003,DHL\n');
      await writeFile(path.join(extra, 'broken.parquet'), 'this is not parquet');
      const before = engine.invalidations;
      type Run = { id: string; status: string; path: string; filesSeen: number; tablesIngested: number; tablesFailed: number; errors: { path: string; code: string; message: string }[] };
      const r = await api.gql<{ ingest: Run }>('mutation { ingest(path: "extra") { id status path filesSeen } }');
      expect(r.errors).toBeUndefined();
      expect(r.data!.ingest.status).toBe('running');
      expect(r.data!.ingest.path).toBe(extra);
      let run: Run | null = null;
      for (let i = 0; i < 200; i++) {
        const p = await api.gql<{ ingestRun: Run }>('query($id: ID!) { ingestRun(id: $id) { id status path filesSeen tablesIngested tablesFailed errors { path code message } } }', {
          id: r.data!.ingest.id,
        });
        run = p.data!.ingestRun;
        if (run.status !== 'running') break;
        await new Promise((res) => setTimeout(res, 100));
      }
      expect(run).toMatchObject({ status: 'partial', filesSeen: 2, tablesIngested: 1, tablesFailed: 1 });
      expect(run!.errors[0].path).toContain('broken.parquet');
      expect(run!.errors[0].code).toBe('LAKE_READ');
      expect(engine.invalidations).toBeGreaterThan(before);
      const t = await api.gql<{ tables: Conn }>('{ tables(filter: { source: "extra" }) { totalCount edges { node { id name } } } }');
      expect(t.data!.tables.edges.map((e) => e.node.name)).toEqual(['shipments']);
      const unknownRun = await api.gql('{ ingestRun(id: "00000000-0000-4000-8000-000000000000") { id } }');
      expect(unknownRun.data).toEqual({ ingestRun: null });
    });

    it('deleteTable removes a table and tells the engine', async () => {
      const id = (await db.prisma.lakeTable.findFirstOrThrow({ where: { name: 'shipments' } })).id;
      const before = engine.invalidations;
      const d = await api.gql<{ deleteTable: boolean }>('mutation($id: ID!) { deleteTable(id: $id) }', { id });
      expect(d.data).toEqual({ deleteTable: true });
      expect(engine.invalidations).toBe(before + 1);
      expect((await api.gql('query($id: ID!) { table(id: $id) { id } }', { id })).data).toEqual({ table: null });
      expect((await api.gql<{ deleteTable: boolean }>('mutation($id: ID!) { deleteTable(id: $id) }', { id })).data).toEqual({ deleteTable: false });
      expect(await db.prisma.lakeColumn.count({ where: { tableId: id } })).toBe(0);
    });
  });
});
