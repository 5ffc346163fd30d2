import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiConfigFromEnv, createApiToken, GrantScope, listApiTokens, revokeApiToken, TokenAuthenticator, validateGrant } from '../../src/api/index.js';
import type { CatalogDatabase } from '../../src/catalog/database.js';
import { catalogBackends } from '../support/catalogs.js';
import { buildApiLake, ingestApiLake, startTestServer, type ApiLake, type TestServer } from './support/fixture.js';
import { makeTestEngine, type InstrumentedEngine } from './support/testEngine.js';

/** Independent of src/api/auth/grants.ts on purpose: what the README promises grants mean. */
function grantedBy(patterns: readonly string[], source: string, table: string): boolean {
  const key = `${source}.${table}`;
  return patterns.some((p) => new RegExp(`^${p.split('*').map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 's').test(key));
}

const UUID_RE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

describe('configuration of anonymous access', () => {
  it('follows GRAFT_ALLOW_ANONYMOUS / GRAFT_REQUIRE_AUTH, REQUIRE winning', () => {
    expect(apiConfigFromEnv({}).allowAnonymous).toBe(true);
    expect(apiConfigFromEnv({ GRAFT_ALLOW_ANONYMOUS: '1' }).allowAnonymous).toBe(true);
    expect(apiConfigFromEnv({ GRAFT_ALLOW_ANONYMOUS: '0' }).allowAnonymous).toBe(false);
    expect(apiConfigFromEnv({ GRAFT_REQUIRE_AUTH: '1' }).allowAnonymous).toBe(false);
    expect(apiConfigFromEnv({ GRAFT_REQUIRE_AUTH: '1', GRAFT_ALLOW_ANONYMOUS: '1' }).allowAnonymous).toBe(false);
    expect(() => apiConfigFromEnv({ GRAFT_REQUIRE_AUTH: 'maybe' })).toThrow(/GRAFT_REQUIRE_AUTH/);
  });

  it('turns introspection off in production unless asked, and reads the lake roots', () => {
    expect(apiConfigFromEnv({}).introspection).toBe(true);
    expect(apiConfigFromEnv({ NODE_ENV: 'production' }).introspection).toBe(false);
    expect(apiConfigFromEnv({ GRAFT_ENV: 'production', GRAFT_INTROSPECTION: '1' })).toMatchObject({ production: true, introspection: true });
    expect(apiConfigFromEnv({ GRAFT_LAKE_ROOTS: '/a/lakes:rel' }, '/work').lakeRoots).toEqual(['/a/lakes', '/work/rel']);
    expect(apiConfigFromEnv({}, '/srv').lakeRoots[0]).toBe('/srv/lakes');
    expect(apiConfigFromEnv({}).lakeRoots[1]).toMatch(/demo-lake$/);
  });

  it('reads how long catalog reads may be answered from memory', () => {
    expect(apiConfigFromEnv({}).catalogCacheMs).toBe(1000);
    expect(apiConfigFromEnv({ GRAFT_CATALOG_CACHE_MS: '0' }).catalogCacheMs).toBe(0);
    expect(() => apiConfigFromEnv({ GRAFT_CATALOG_CACHE_MS: '-5' })).toThrow(/GRAFT_CATALOG_CACHE_MS/);
  });

  it('reads how long answered syntheses are kept (0: for ever)', () => {
    expect(apiConfigFromEnv({}).synthesisRetentionDays).toBe(30);
    expect(apiConfigFromEnv({ GRAFT_SYNTHESIS_RETENTION_DAYS: '0' }).synthesisRetentionDays).toBe(0);
    expect(() => apiConfigFromEnv({ GRAFT_SYNTHESIS_RETENTION_DAYS: '2.5' })).toThrow(/GRAFT_SYNTHESIS_RETENTION_DAYS/);
  });
});

describe('grant patterns', () => {
  it('validates patterns', () => {
    expect(validateGrant(' sales.* ')).toBe('sales.*');
    expect(validateGrant('*')).toBe('*');
    expect(() => validateGrant('sales')).toThrow(/<source>\.<table>/);
    expect(() => validateGrant('')).toThrow();
    expect(() => validateGrant('a.\u0001')).toThrow(/control/);
  });

  it('matches <source>.<table> with * wildcards, case-sensitively, everything else literal', () => {
    const s = GrantScope.of(['sales.*', 'hr.employees', '*.orders', 'x_y.a%b']);
    expect(s.allows('/lakes/sales', 'anything')).toBe(true);
    expect(s.allows('/lakes/hr', 'employees')).toBe(true);
    expect(s.allows('/lakes/hr', 'Employees')).toBe(false);
    expect(s.allows('/lakes/hr', 'departments')).toBe(false);
    expect(s.allows('/lakes/demo', 'orders')).toBe(true);
    expect(s.allows('/lakes/salesX', 'orders_2')).toBe(false);
    expect(s.allows('/l/x_y', 'a%b')).toBe(true);
    expect(s.allows('/l/xzy', 'a%b')).toBe(false);
    expect(s.allows('/l/x_y', 'aXb')).toBe(false);
    expect(GrantScope.of(['*']).unrestricted).toBe(true);
    expect(GrantScope.of(['sales.*']).tableFilter()!({ id: 'x', name: 'orders', uri: '/u', sourceRoot: 'sales' })).toBe(true);
  });

  it('builds one scope per list of grants, never one list standing for another', () => {
    expect(GrantScope.of(['sales.*', 'hr.a'])).toBe(GrantScope.of(['sales.*', 'hr.a']));
    // Lists that join to the same text under a naive separator stay apart.
    const split = GrantScope.of(['sales.a,hr.b']);
    const joined = GrantScope.of(['sales.a', 'hr.b']);
    expect(split).not.toBe(joined);
    expect(split.allows('/l/sales', 'a')).toBe(false);
    expect(joined.allows('/l/sales', 'a')).toBe(true);
    expect(() => GrantScope.of(['sales'])).toThrow(/<source>\.<table>/);
    expect(() => GrantScope.of(['sales'])).toThrow(/<source>\.<table>/);
  });
});

describe.each(catalogBackends)('auth and grants on $name', (backend) => {
  let lake: ApiLake;
  let db: CatalogDatabase;
  let engine: InstrumentedEngine;
  let double: boolean;
  let open: TestServer; // anonymous allowed
  let closed: TestServer; // GRAFT_REQUIRE_AUTH
  let tables: { id: string; name: string; source: string }[];
  let columnTable: Map<string, string>;
  let salesToken: string;
  let fullToken: string;
  const idOf = (name: string) => tables.find((t) => t.name === name)!.id;

  beforeAll(async () => {
    lake = await buildApiLake();
    db = await backend.open();
    await ingestApiLake(db, lake);
    ({ engine, double } = await makeTestEngine(db));
    open = await startTestServer(db, engine, { lakeRoots: [lake.lakesDir] });
    closed = await startTestServer(db, engine, { lakeRoots: [lake.lakesDir], allowAnonymous: false });
    const rows = await db.prisma.lakeTable.findMany({ include: { source: true, columns: { select: { id: true } } } });
    tables = rows.map((r) => ({ id: r.id, name: r.name, source: path.basename(r.source.rootPath) }));
    columnTable = new Map(rows.flatMap((r) => r.columns.map((c) => [c.id, r.id] as [string, string])));
    salesToken = (await createApiToken(db, { name: 'sales-only', grants: ['sales.*'] })).secret;
    fullToken = (await createApiToken(db, { name: 'admin', grants: ['*'] })).secret;
  });
  afterAll(async () => {
    await open?.close();
    await closed?.close();
    await db?.close();
    await lake?.cleanup();
  });

  describe('tokens', () => {
    it('stores only a hash of the secret, lists without secrets, and revokes', async () => {
      const t = await createApiToken(db, { name: 'tmp', grants: ['hr.employees', 'hr.employees'] });
      expect(t.secret).toMatch(/^graft_[A-Za-z0-9_-]{43}$/);
      expect(t.grants).toEqual(['hr.employees']);
      const row = await db.prisma.apiToken.findUniqueOrThrow({ where: { id: t.id } });
      expect(JSON.stringify(row)).not.toContain(t.secret);
      expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
      expect(t.secret.startsWith(row.prefix)).toBe(true);
      const listed = (await listApiTokens(db)).find((x) => x.id === t.id)!;
      expect(listed).not.toHaveProperty('secret');
      expect(listed.lastUsedAt).toBeNull();

      const ok = await closed.gql<{ tables: { totalCount: number } }>('{ tables { totalCount } }', undefined, { token: t.secret });
      expect(ok.data!.tables.totalCount).toBe(1);
      expect((await db.prisma.apiToken.findUniqueOrThrow({ where: { id: t.id } })).lastUsedAt).not.toBeNull();
      expect(await revokeApiToken(db, t.id)).toBe(true);
      expect(await revokeApiToken(db, t.id)).toBe(false);
      // The server may answer from its token memory for GRAFT_CATALOG_CACHE_MS, not longer.
      await new Promise((r) => setTimeout(r, closed.server.config.catalogCacheMs + 50));
      const after = await closed.gql('{ tables { totalCount } }', undefined, { token: t.secret });
      expect(after.status).toBe(401);
      expect(after.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
    });

    it('remembers what a secret stands for at most catalogCacheMs (0: not at all)', async () => {
      const t = await createApiToken(db, { name: 'remembered', grants: ['hr.*'] });
      const remembering = new TokenAuthenticator(db, 300);
      const reading = new TokenAuthenticator(db, 0);
      expect(await remembering.authenticate(t.secret)).toMatchObject({ kind: 'token', tokenId: t.id, grants: ['hr.*'] });
      expect(await reading.authenticate(t.secret)).toMatchObject({ kind: 'token', tokenId: t.id });
      const unknown = `graft_${'x'.repeat(43)}`;
      expect(await remembering.authenticate(unknown)).toBeNull();
      expect(await revokeApiToken(db, t.id)).toBe(true);
      expect(await reading.authenticate(t.secret)).toBeNull();
      expect(await remembering.authenticate(t.secret)).toMatchObject({ tokenId: t.id }); // within 300 ms: remembered
      await new Promise((r) => setTimeout(r, 350));
      expect(await remembering.authenticate(t.secret)).toBeNull();
      expect(await remembering.authenticate(unknown)).toBeNull();
    });

    it('refuses bad token input', async () => {
      await expect(createApiToken(db, { name: ' ', grants: ['a.b'] })).rejects.toThrow(/name/);
      await expect(createApiToken(db, { name: 'x', grants: [] })).rejects.toThrow(/grant/);
      await expect(createApiToken(db, { name: 'x', grants: ['nodot'] })).rejects.toThrow(/<source>\.<table>/);
    });

    it('requires a token when anonymous access is off; a bad token is refused even when it is on', async () => {
      const none = await closed.gql('{ tables { totalCount } }');
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toBe('Bearer');
      expect(none.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
      for (const headers of [{ authorization: 'Bearer graft_nope' }, { authorization: 'Basic dXNlcjpwYXNz' }, { authorization: 'Bearer' }]) {
        const r = await open.gql('{ tables { totalCount } }', undefined, { headers });
        expect(r.status, headers.authorization).toBe(401);
        expect(r.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
      }
      const anon = await open.gql<{ tables: { totalCount: number } }>('{ tables { totalCount } }');
      expect(anon.data!.tables.totalCount).toBe(tables.length);
      // Health endpoints need no token.
      expect((await fetch(`${closed.url}/healthz`)).status).toBe(200);
    });
  });

  describe('a sales.* token sees sales tables only, through every field', () => {
    it('the catalog really has edges from sales into hr (else this suite could not fail)', async () => {
      const r = await open.gql<{ table: { joinable: { tableName: string }[]; unionable: { tableName: string }[] } }>(
        'query($id: ID!) { table(id: $id) { joinable { tableName } unionable { tableName } } }',
        { id: idOf('sales_staff') },
      );
      expect(r.data!.table.joinable.map((j) => j.tableName)).toContain('departments');
      expect(r.data!.table.unionable.map((u) => u.tableName)).toContain('employees');
    });

    it('tables, table, columns', async () => {
      const t = await closed.gql<{ tables: { totalCount: number; edges: { node: { name: string; source: string } }[] } }>(
        '{ tables(first: 500) { totalCount edges { node { name source } } } }',
        undefined,
        { token: salesToken },
      );
      expect(t.data!.tables.totalCount).toBe(3);
      expect(t.data!.tables.edges.map((e) => `${e.node.source}.${e.node.name}`).sort()).toEqual(['sales.customers', 'sales.orders', 'sales.sales_staff']);
      const hr = await closed.gql('query($id: ID!) { table(id: $id) { id name } }', { id: idOf('employees') }, { token: salesToken });
      expect(hr.data).toEqual({ table: null });
      const cols = await closed.gql<{ columns: { totalCount: number; edges: { node: { tableName: string } }[] } }>(
        '{ columns(first: 500) { totalCount edges { node { tableName } } } }',
        undefined,
        { token: salesToken },
      );
      expect(new Set(cols.data!.columns.edges.map((e) => e.node.tableName))).toEqual(new Set(['customers', 'orders', 'sales_staff']));
      const hrCols = await closed.gql<{ columns: { totalCount: number } }>('query($t: ID) { columns(tableId: $t) { totalCount } }', { t: idOf('employees') }, { token: salesToken });
      expect(hrCols.data!.columns.totalCount).toBe(0);
    });

    it('neighbours of a granted table never reveal an ungranted one', async () => {
      const r = await closed.gql<{ table: { joinable: { tableName: string }[]; unionable: { tableName: string }[] } }>(
        'query($id: ID!) { table(id: $id) { joinable { tableName } unionable { tableName } } }',
        { id: idOf('sales_staff') },
        { token: salesToken },
      );
      expect(r.data!.table.joinable.map((j) => j.tableName)).not.toContain('departments');
      expect(r.data!.table.unionable).toEqual([]);
      expect(r.raw).not.toContain(idOf('employees'));
      expect(r.raw).not.toContain(idOf('departments'));
    });

    it('searchColumns', async () => {
      const r = await closed.gql<{ searchColumns: { column: { tableName: string } }[] }>(
        '{ searchColumns(text: "employee salary dept", first: 50) { column { tableName } } }',
        undefined,
        { token: salesToken },
      );
      const found = r.data!.searchColumns.map((h) => h.column.tableName);
      expect(found[0]).toBe('sales_staff');
      for (const t of found) expect(['customers', 'orders', 'sales_staff']).toContain(t);
      const anon = await open.gql<{ searchColumns: { column: { tableName: string } }[] }>('{ searchColumns(text: "employee salary dept", first: 50) { column { tableName } } }');
      expect(anon.data!.searchColumns.map((h) => h.column.tableName)).toContain('employees');
    });

    it('intentGraph, synthesize, synthesis, explainScore', async () => {
      const ig = await closed.gql<{ intentGraph: { trees: { entity: { label: string } }[] } }>(
        '{ intentGraph(question: "employees and sales_staff") { trees { entity { label } } json } }',
        undefined,
        { token: salesToken },
      );
      if (double) expect(ig.data!.intentGraph.trees.map((t) => t.entity.label)).toEqual(['sales_staff']);
      expect(ig.raw).not.toContain(idOf('employees'));
      expect(engine.calls.at(-1)).toMatchObject({ op: 'intentGraph', filtered: true });

      const s = await closed.gql<{ synthesize: { id: string; tables: { name: string; role: string }[] } }>(
        '{ synthesize(question: "employees with their orders") { id tables { name role } } }',
        undefined,
        { token: salesToken },
      );
      for (const t of s.data!.synthesize.tables) expect(['customers', 'orders', 'sales_staff']).toContain(t.name);
      if (double) expect(s.data!.synthesize.tables.filter((t) => t.role !== 'ALTERNATE').map((t) => t.name)).toEqual(['orders']);
      const stored = await db.prisma.synthesis.findUniqueOrThrow({ where: { id: s.data!.synthesize.id } });
      expect(stored.tokenId).not.toBeNull();

      // A synthesis over hr tables, made by someone who may see them, stays invisible to sales.
      const hrSyn = await closed.gql<{ synthesize: { id: string; tables: { name: string }[] } }>('{ synthesize(question: "employees and their departments") { id tables { name } } }', undefined, {
        token: fullToken,
      });
      const hid = hrSyn.data!.synthesize.id;
      const salesNames = ['customers', 'orders', 'sales_staff'];
      const hasUngranted = hrSyn.data!.synthesize.tables.some((t) => !salesNames.includes(t.name));
      if (double) expect(hasUngranted).toBe(true);
      expect((await closed.gql('query($id: ID!) { synthesis(id: $id) { id } }', { id: hid }, { token: salesToken })).data).toEqual({ synthesis: hasUngranted ? null : { id: hid } });
      expect((await closed.gql<{ synthesis: { id: string } }>('query($id: ID!) { synthesis(id: $id) { id } }', { id: hid }, { token: fullToken })).data!.synthesis.id).toBe(hid);
      const ex = await closed.gql('query($id: ID) { explainScore(synthesisId: $id) { score } }', { id: hid }, { token: salesToken });
      if (hasUngranted) expect(ex.errors?.[0].extensions.code).toBe('NOT_FOUND');
      // The sales token's own synthesis is visible to the admin token too (its tables are granted there).
      expect((await closed.gql<{ synthesis: { id: string } }>('query($id: ID!) { synthesis(id: $id) { id } }', { id: s.data!.synthesize.id }, { token: fullToken })).data!.synthesis.id).toBe(
        s.data!.synthesize.id,
      );

      const exT = await closed.gql('query($t: [ID!]) { explainScore(question: "employees", tables: $t) { score } }', { t: [idOf('orders'), idOf('employees')] }, { token: salesToken });
      expect(exT.errors?.[0].extensions.code).toBe('NOT_FOUND');
      expect(exT.raw).not.toContain(idOf('employees'));
      expect(exT.raw).not.toContain('employees"');
      // Unknown and ungranted look the same.
      const exU = await closed.gql('query($t: [ID!]) { explainScore(question: "x", tables: $t) { score } }', { t: ['00000000-0000-4000-8000-000000000000'] }, { token: salesToken });
      expect(exU.errors?.[0].message).toBe('1 of the given table ids are unknown or not granted');
      expect(exT.errors?.[0].message).toBe(exU.errors?.[0].message);

      const grounded = { trees: [{ entity: { id: 'e0', label: 'x', grounding: [{ tableId: idOf('employees'), kind: 'table-name', score: 1 }] } }] };
      const gi = await closed.gql('query($i: IntentGraphInput) { synthesize(question: "x", intent: $i) { id } }', { i: grounded }, { token: salesToken });
      expect(gi.errors?.[0]).toMatchObject({ message: 'intent.trees[0].entity.grounding[0].tableId: unknown table', extensions: { code: 'BAD_USER_INPUT' } });
    });

    it('an engine returning an ungranted table is stopped by the API (INTERNAL, nothing leaked)', async () => {
      engine.leakTableId = idOf('employees');
      try {
        const r = await closed.gql('{ synthesize(question: "orders leak") { id tables { id name } } }', undefined, { token: salesToken });
        expect(r.errors?.[0].extensions.code).toBe('INTERNAL');
        expect(r.data).toBeNull();
        expect(r.raw).not.toContain(idOf('employees'));
        expect(await db.prisma.synthesis.count({ where: { question: 'orders leak' } })).toBe(0);
      } finally {
        engine.leakTableId = undefined;
      }
    });

    it('mutations and ingest runs need full access', async () => {
      for (const q of [
        `mutation { deleteTable(id: "${idOf('orders')}") }`,
        'mutation { ingest(path: "sales") { id } }',
        '{ ingestRun(id: "00000000-0000-4000-8000-000000000000") { id } }',
      ]) {
        const r = await closed.gql(q, undefined, { token: salesToken });
        expect(r.errors?.[0].extensions.code, q).toBe('FORBIDDEN');
      }
      expect(await db.prisma.lakeTable.count({ where: { id: idOf('orders') } })).toBe(1);
      const admin = await closed.gql('{ ingestRun(id: "00000000-0000-4000-8000-000000000000") { id } }', undefined, { token: fullToken });
      expect(admin.data).toEqual({ ingestRun: null });
    });
  });

  it('SQL and JavaScript agree on what a grant admits (property)', async () => {
    const chars = fc.constantFrom('a', 'b', '.', '_', '%', '\\', '*', 'A', '-');
    const word = fc.string({ unit: chars, minLength: 0, maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(fc.array(word.map((w) => `${w}.${w.split('').reverse().join('')}`), { minLength: 1, maxLength: 3 }), word, word, async (patterns, source, table) => {
        const scope = GrantScope.of(patterns.map((p) => (p.trim() === '' || !p.trim().includes('.') ? 'x.y' : p)));
        const params: unknown[] = [table, `/lakes/${source}`];
        const cond = scope.sql(params, 't', 's');
        const [row] = await db.prisma.$queryRawUnsafe<{ ok: boolean }[]>(
          `SELECT ${cond} AS ok FROM (SELECT $1::text AS name) t, (SELECT $2::text AS root_path) s`,
          ...params,
        );
        expect(row.ok).toBe(scope.allows(`/lakes/${source}`, table));
        expect(row.ok).toBe(grantedBy(scope.patterns, source, table));
      }),
      { numRuns: 150 },
    );
  });

  it('every table id in every response is granted, for random grant sets (property)', async () => {
    const pool = ['sales.*', 'hr.*', 'demo.*', 'hr.employees', 'hr.departments', 'sales.orders', 'sales.sales_*', '*.employees', '*.*staff', 'demo.club*', 'demo.game_results_*', '*.customers', 'nomatch.*', '*.*e*s'];
    const allNames = tables.map((t) => t.name).join(' ');
    // Two requests: one query asking for all of it would exceed the complexity limit.
    const catalogQuery = `query {
      tables(first: 30) { totalCount edges { node { id name
        columns { id tableId }
        joinable { tableId tableName localColumnId remoteColumnId table { id } }
        unionable { tableId alignment { localColumnId remoteColumnId } } } } } }`;
    const query = `query {
      columns(first: 200) { totalCount edges { node { id tableId table { id } } } }
      searchColumns(text: "id name salary club player dept", first: 50) { column { id tableId } }
      intentGraph(question: "${allNames}") { json trees { entity { groundings { tableId } } attributes { groundings { tableId columnId } } } }
      synthesize(question: "${allNames}", budget: 30) { id tables { id table { id } } intent { json } }
    }`;
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.constantFrom(...pool), { minLength: 1, maxLength: 3 }), async (grants) => {
        const token = (await createApiToken(db, { name: `prop-${grants.join('+')}`, grants })).secret;
        const c = await closed.gql<{ tables: { totalCount: number } }>(catalogQuery, undefined, { token });
        const r = await closed.gql<{ synthesize: { id: string } }>(query, undefined, { token });
        expect(c.errors, JSON.stringify(c.errors)).toBeUndefined();
        expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
        const granted = new Set(tables.filter((t) => grantedBy(grants, t.source, t.name)).map((t) => t.id));
        expect(c.data!.tables.totalCount).toBe(granted.size);
        const stored = await closed.gql('query($id: ID!) { synthesis(id: $id) { tables { id } intent { json } } }', { id: r.data!.synthesize.id }, { token });
        const seen = new Set<string>();
        for (const raw of [c.raw, r.raw, stored.raw]) {
          for (const id of raw.match(UUID_RE) ?? []) {
            const tableId = tables.some((t) => t.id === id) ? id : columnTable.get(id);
            if (tableId === undefined) continue; // a synthesis id
            seen.add(tableId);
            expect(granted.has(tableId), `${grants.join(',')} leaked ${tables.find((t) => t.id === tableId)?.name}`).toBe(true);
          }
        }
        // The check above must have had something to check: every granted table shows up.
        expect(seen).toEqual(granted);
      }),
      { numRuns: 20 },
    );
  });
});
