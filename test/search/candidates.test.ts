import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCatalog, type CatalogDatabase } from '../../src/catalog/index.js';
import { HashedNgramEmbedder } from '../../src/embed/index.js';
import { createEngine, type Engine } from '../../src/engine/index.js';
import { ingestLake } from '../../src/ingest/index.js';
import { closeDuckDB } from '../../src/lake/index.js';
import { openDemoCatalog, type DemoCatalog } from '../support/demoLake.js';

/**
 * The recall stage and the candidate syntheses on a small hand-made lake of two sources:
 *  - hr/: employee -> department over a text code (same column name), and a bridge table
 *    (project_assignment) between employee and project that no question word names;
 *  - shop/: a same-named `employee` table of another system (its own columns, no join path to
 *    hr's department), customers and their orders in two row shards (disjoint order ids, the
 *    same customer codes).
 */
const csv = (header: string[], rows: (string | number)[][]) => [header.join(','), ...rows.map((r) => r.join(','))].join('\n') + '\n';
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

async function writeLake(root: string): Promise<void> {
  await mkdir(path.join(root, 'hr'), { recursive: true });
  await mkdir(path.join(root, 'shop'), { recursive: true });
  const depts = ['ACCT', 'ENGR', 'SALE', 'LEGL', 'OPER', 'RSCH'];
  await writeFile(path.join(root, 'hr/department.csv'), csv(['dept_code', 'dept_title', 'floor'], depts.map((d, i) => [`DPT-${d}`, `${d.toLowerCase()} division`, i + 1])));
  await writeFile(
    path.join(root, 'hr/employee.csv'),
    csv(['employee_id', 'full_name', 'dept_code', 'hired_year'], range(40).map((i) => [1000 + i, `worker ${i}`, `DPT-${depts[i % depts.length]}`, 2000 + (i % 20)])),
  );
  await writeFile(path.join(root, 'hr/project.csv'), csv(['project_id', 'project_title', 'budget'], range(12).map((i) => [500 + i, `initiative ${i}`, 10000 * (i + 1)])));
  await writeFile(
    path.join(root, 'hr/project_assignment.csv'),
    csv(['employee_id', 'project_id', 'hours'], range(60).map((i) => [1000 + ((i * 7) % 40), 500 + (i % 12), 5 + (i % 30)])),
  );
  await writeFile(
    path.join(root, 'shop/employee.csv'),
    csv(['staff_no', 'first_name', 'store_city', 'shift'], range(25).map((i) => [`S${(7000 + i * 3).toString()}`, `clerk${i}`, ['Lyon', 'Porto', 'Graz'][i % 3], ['early', 'late'][i % 2]])),
  );
  const codes = range(30).map((i) => `CU-${(4000 + i * 17).toString(36).toUpperCase()}`);
  await writeFile(path.join(root, 'shop/customer.csv'), csv(['customer_code', 'customer_name', 'segment'], codes.map((c, i) => [c, `buyer ${i}`, ['retail', 'trade'][i % 2]])));
  const order = (i: number) => [90000 + i, codes[(i * 11) % codes.length], (i * 37) % 500, ['card', 'cash', 'wire'][i % 3]];
  const header = ['order_id', 'customer_code', 'amount', 'payment'];
  await writeFile(path.join(root, 'shop/orders_part1.csv'), csv(header, range(60).map(order)));
  await writeFile(path.join(root, 'shop/orders_part2.csv'), csv(header, range(60).map((i) => order(i + 60))));
}

describe('candidate syntheses (hand-made two-source lake)', () => {
  let root: string;
  let db: CatalogDatabase;
  let engine: Engine;
  const names = (r: { tables: { name: string; uri: string; role: string }[] }, core = true) =>
    r.tables.filter((t) => !core || t.role !== 'alternate').map((t) => `${path.basename(path.dirname(t.uri))}/${t.name}`).sort();

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'graft-candidates-'));
    await writeLake(root);
    db = await openCatalog({ dataDir: 'memory://' });
    const embedder = new HashedNgramEmbedder();
    const s = await ingestLake(db, root, { embedder });
    expect(s.tablesFailed).toBe(0);
    engine = createEngine(db, embedder, { valueModel: 'off' });
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    await closeDuckDB();
    await rm(root, { recursive: true, force: true });
  });

  it('a same-named table of another source loses to the one that joins', async () => {
    const r = await engine.synthesize('Which department title does each employee have?', { budget: 3 });
    const core = names(r);
    expect(core).toContain('hr/department');
    expect(core).toContain('hr/employee');
    expect(core).not.toContain('shop/employee');
    expect(r.plan.joinSteps.map((s) => `${s.left.column}=${s.right.column}`)).toEqual(['dept_code=dept_code']);
  });

  it('returns the row shards of a table together', async () => {
    for (const budget of [3, 10]) {
      const r = await engine.synthesize('What amount did each customer pay in their orders?', { budget });
      const core = names(r);
      expect(core, `L = ${budget}`).toEqual(expect.arrayContaining(['shop/customer', 'shop/orders_part1', 'shop/orders_part2']));
      expect(r.tables.filter((t) => t.name.startsWith('orders_part') && t.role !== 'alternate').map((t) => t.role).sort()).toEqual(['shard', 'witness']);
      expect(r.plan.unionGroups.map((g) => g.tables.sort())).toEqual([['orders_part1', 'orders_part2']]);
    }
  });

  it('finds a bridge table that no question word names', async () => {
    const r = await engine.synthesize('How many hours did each employee work on each project?', { budget: 5 });
    const core = names(r);
    expect(core).toEqual(expect.arrayContaining(['hr/employee', 'hr/project', 'hr/project_assignment']));
    expect(core).not.toContain('shop/employee');
  });

  it('marks the tables beyond the core as alternates, keeps the core its own, and never exceeds the budget', async () => {
    const q = 'Which department title does each employee have?';
    const small = await engine.synthesize(q, { budget: 3 });
    // Every offer that fits (floor 0): which ones the fitted model keeps is alternate-confidence.test.ts's.
    const large = await engine.synthesize(q, { budget: 10, minAlternateConfidence: 0 });
    expect(names(large)).toEqual(names(small));
    expect(large.tables.length).toBeLessThanOrEqual(10);
    const roles = large.tables.map((t) => t.role);
    // Alternates come after the core, and the fused SQL is about the core only.
    expect(roles.slice(roles.indexOf('alternate') >= 0 ? roles.indexOf('alternate') : roles.length).every((x) => x === 'alternate')).toBe(true);
    expect(roles, 'an ambiguous question spends the larger budget on alternates').toContain('alternate');
    for (const t of large.tables.filter((x) => x.role !== 'alternate')) expect(large.plan.sql ?? '').toContain(t.uri);
    for (const t of large.tables.filter((x) => x.role === 'alternate')) expect(large.plan.sql ?? '').not.toContain(t.uri);
  });

  it('spends the rest of the budget on a table that joins the core though no question word names it', async () => {
    const r = await engine.synthesize('Which floor is the ACCT division on?', { budget: 5 });
    expect(names(r)).toEqual(['hr/department']);
    const alternates = r.tables.filter((t) => t.role === 'alternate').map((t) => `${path.basename(path.dirname(t.uri))}/${t.name}`);
    expect(alternates).toContain('hr/employee');
    expect(alternates).not.toContain('shop/employee');
  });

  it('reaches a table through a paraphrase of its name (word vectors: bureau ~ department)', async () => {
    const r = await engine.synthesize('Which bureau does each employee belong to?', { budget: 3 });
    expect(names(r)).toEqual(['hr/department', 'hr/employee']);
  });

  it('does not take a word-vector neighbour alone as support ("near" ~ city, "salary" ~ payment)', async () => {
    const r = await engine.synthesize('What salary is paid near Reykjavik?', { budget: 10 });
    expect(r.tables).toEqual([]);
  });

  it('answers an off-topic question with no tables and a reason', async () => {
    const r = await engine.synthesize('Which volcanoes erupted near Reykjavik?', { budget: 10 });
    expect(r.tables).toEqual([]);
    expect(r.warnings.join(' ')).toMatch(/nothing in the catalog supports the question|no table in the catalog matches/);
  });
});

describe('off-topic questions on the demo lake', () => {
  let demo: DemoCatalog;
  beforeAll(async () => {
    demo = await openDemoCatalog();
  });
  afterAll(async () => demo?.close());

  it('gives an empty answer with the reason instead of an unrelated table', async () => {
    const engine = createEngine(demo.db, demo.embedder, { valueModel: 'off' });
    const r = await engine.synthesize('employees in marketing, salary', { budget: 10 });
    expect(r.tables).toEqual([]);
    expect(r.warnings.join(' ')).toMatch(/nothing in the catalog supports the question/);
  });
});
