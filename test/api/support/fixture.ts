import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { buildDemoLake } from '../../../scripts/build-demo-lake.js';
import { createServer, type ApiConfigOverrides, type CreateServerOptions, type GraftServer } from '../../../src/api/index.js';
import type { ServedEngine } from '../../../src/api/servedEngine.js';
import type { CatalogDatabase } from '../../../src/catalog/database.js';
import { HashedNgramEmbedder } from '../../../src/embed/index.js';
import { ingestLake } from '../../../src/ingest/index.js';

/**
 * The lake the API suites run on: three sources under one lake root,
 *
 *   <tmp>/lakes/sales  orders, customers, sales_staff   (grant key `sales.<table>`)
 *   <tmp>/lakes/hr     employees, departments            (grant key `hr.<table>`)
 *   <tmp>/lakes/demo   the demo lake (14 tables)         (grant key `demo.<table>`)
 *
 * `sales.sales_staff` has the schema and a subset of the rows of `hr.employees`, so the catalog
 * holds join and union edges ACROSS sources: exactly what a `sales.*` token must never see the
 * far end of. `<tmp>/outside` lies outside the lake root (path confinement tests).
 */
export interface ApiLake {
  tmp: string;
  lakesDir: string;
  outsideDir: string;
  sources: { sales: string; hr: string; demo: string };
  cleanup(): Promise<void>;
}

function csv(header: string[], rows: (string | number)[][]): string {
  return `${[header.join(','), ...rows.map((r) => r.join(','))].join('\n')}\n`;
}

const FIRST = ['Ada', 'Bo', 'Cy', 'Di', 'Ed', 'Flo', 'Gus', 'Hal', 'Ivy', 'Jo', 'Kim', 'Lu'];
const LAST = ['Stone', 'Reed', 'Marsh', 'Vale', 'Frost', 'Hale', 'North', 'West'];
const DEPTS = [['ENG', 'Engineering', 3], ['OPS', 'Operations', 1], ['FIN', 'Finance', 2], ['SAL', 'Sales', 4], ['PPL', 'People', 2]] as const;

export async function buildApiLake(): Promise<ApiLake> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'graft-api-'));
  const lakesDir = path.join(tmp, 'lakes');
  const sales = path.join(lakesDir, 'sales');
  const hr = path.join(lakesDir, 'hr');
  const demo = path.join(lakesDir, 'demo');
  const outsideDir = path.join(tmp, 'outside');
  for (const d of [sales, hr, demo, outsideDir]) await mkdir(d, { recursive: true });

  const employees = Array.from({ length: 60 }, (_, i) => [
    5001 + i,
    `${FIRST[i % FIRST.length]} ${LAST[(i * 5) % LAST.length]}`,
    DEPTS[i % DEPTS.length][0],
    40_000 + ((i * 7919) % 50_000),
    2010 + (i % 14),
  ]);
  const empHeader = ['employee_id', 'full_name', 'dept_code', 'salary', 'hire_year'];
  await writeFile(path.join(hr, 'employees.csv'), csv(empHeader, employees));
  await writeFile(path.join(hr, 'departments.csv'), csv(['dept_code', 'dept_name', 'floor'], DEPTS.map((d) => [...d])));
  await writeFile(path.join(sales, 'sales_staff.csv'), csv(empHeader, employees.filter((e) => e[2] === 'SAL' || (e[0] as number) < 5021)));
  await writeFile(
    path.join(sales, 'customers.csv'),
    csv(['customer_id', 'customer_name', 'city'], Array.from({ length: 80 }, (_, i) => [i + 1, `Customer ${String.fromCharCode(65 + (i % 26))}${i}`, ['Oslo', 'Lima', 'Pune', 'Kobe'][i % 4]])),
  );
  await writeFile(
    path.join(sales, 'orders.csv'),
    csv(
      ['order_id', 'customer_id', 'amount', 'order_date'],
      Array.from({ length: 300 }, (_, i) => [70001 + i, 1 + ((i * 37) % 80), ((i * 131) % 997) + 0.5, `2024-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`]),
    ),
  );
  await buildDemoLake(demo);
  await writeFile(path.join(outsideDir, 'secret.csv'), csv(['secret_id', 'secret'], [[1, 'hunter2'], [2, 'swordfish']]));
  return {
    tmp,
    lakesDir,
    outsideDir,
    sources: { sales, hr, demo },
    cleanup: () => rm(tmp, { recursive: true, force: true }),
  };
}

export async function ingestApiLake(db: CatalogDatabase, lake: ApiLake): Promise<void> {
  const embedder = new HashedNgramEmbedder();
  for (const dir of [lake.sources.sales, lake.sources.hr, lake.sources.demo]) {
    const s = await ingestLake(db, dir, { embedder });
    if (s.status !== 'succeeded') throw new Error(`fixture ingest of ${dir} ${s.status}: ${JSON.stringify(s.errors)}`);
  }
}

/** A symlink inside the lake root pointing outside it. */
export async function addEscapingSymlink(lake: ApiLake): Promise<string> {
  const link = path.join(lake.lakesDir, 'escape');
  await symlink(lake.outsideDir, link);
  return link;
}

export interface GqlResult<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  data: T | null;
  errors?: { message: string; path?: string[]; extensions: Record<string, unknown> & { code: string } }[];
  raw: string;
}

export interface TestServer {
  server: GraftServer;
  url: string;
  gql<T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>, opts?: { token?: string; headers?: Record<string, string> }): Promise<GqlResult<T>>;
  close(): Promise<void>;
}

export const silentLogger = () => pino({ level: process.env.GRAFT_TEST_LOG_LEVEL ?? 'silent' });

export async function startTestServer(
  db: CatalogDatabase,
  engine: ServedEngine,
  config: ApiConfigOverrides = {},
  logger = silentLogger(),
  extra: Pick<CreateServerOptions, 'lineage'> = {},
): Promise<TestServer> {
  const server = await createServer({
    ...extra,
    db,
    engine,
    embedder: new HashedNgramEmbedder(),
    logger,
    config: { production: false, allowAnonymous: true, introspection: true, ...config },
  });
  const { url } = await server.listen({ port: 0, host: '127.0.0.1' });
  return {
    server,
    url,
    async gql(query, variables, opts = {}) {
      const res = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
          ...opts.headers,
        },
        body: JSON.stringify({ query, variables }),
      });
      const raw = await res.text();
      let body: { data?: unknown; errors?: GqlResult['errors'] } = {};
      try {
        body = JSON.parse(raw) as typeof body;
      } catch {
        // leave empty: the test looks at raw/status
      }
      return { status: res.status, headers: res.headers, data: (body.data ?? null) as never, errors: body.errors, raw };
    },
    close: () => server.shutdown('test'),
  };
}
