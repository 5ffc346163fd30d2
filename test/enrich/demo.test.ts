import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine/index.js';
import { enrichFromRequest, enrichTable } from '../../src/enrich/index.js';
import { closeDuckDB } from '../../src/lake/index.js';
import { openDemoCatalog, type DemoCatalog } from '../support/demoLake.js';

/** The demo's enrichment scenario (demo/README.md): student -> gpa. */
describe('enrich on the demo lake', () => {
  let demo: DemoCatalog;
  let engine: Engine;
  beforeAll(async () => {
    demo = await openDemoCatalog();
    engine = createEngine(demo.db, demo.embedder, { valueModel: 'off' });
  }, 120_000);
  afterAll(async () => {
    await demo?.close();
    await closeDuckDB();
  });

  it('student for gpa: department joins by dept_code, enrollment fans out and is left out', async () => {
    const r = await enrichTable(engine, 'student', { target: 'gpa', preview: 400 });
    expect(r.task).toBe('regression');
    expect(r.tables.map((t) => [t.name, t.role])).toEqual([
      ['student', 'base'],
      ['department', 'join'],
    ]);
    expect(r.tables[1]!.join).toMatchObject({ baseColumn: 'dept_code', column: 'dept_code' });
    expect(r.tables[1]!.newColumns).toEqual(['dept_name', 'building']);
    expect(r.rejected.find((x) => x.name === 'enrollment')?.reason).toBe('fan-out');
    expect(r.rowCount).toBe(300);
    expect(r.preview!.rows.every((row) => row.dept_name !== null)).toBe(true);
    const words = await enrichFromRequest(engine, 'find tables that help predict gpa in the student table');
    expect(words!.tables.map((t) => t.name)).toEqual(['student', 'department']);
  });
});
