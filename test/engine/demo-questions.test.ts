import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCatalog, type CatalogDatabase } from '../../src/catalog/index.js';
import { HashedNgramEmbedder } from '../../src/embed/index.js';
import { createEngine, type Engine } from '../../src/engine/index.js';
import { countFusion, planFusion } from '../../src/fusion/index.js';
import { buildFusionInput } from '../../src/engine/stages/fuse.js';
import { openDemoCatalog, type DemoCatalog, type DemoGold } from '../support/demoLake.js';

/** The core synthesis of an answer: alternates (ranked extras up to the budget) left out. */
function core<T extends { role: string }>(tables: T[]): T[] {
  return tables.filter((t) => t.role !== 'alternate');
}

/** club_copy is a byte-identical copy of club: either may stand for it, never both. */
function normaliseCopy(names: string[]): string[] {
  return names.map((n) => (n === 'club_copy' ? 'club' : n)).sort();
}

describe('graft engine on the demo lake', () => {
  let demo: DemoCatalog;
  let db: CatalogDatabase;
  let engine: Engine;
  let lake: string;
  let gold: DemoGold;

  beforeAll(async () => {
    demo = await openDemoCatalog();
    ({ db, lake, gold } = demo);
    engine = createEngine(db, demo.embedder);
  });
  afterAll(async () => demo?.close());

  it('answers every gold question with exactly its table set as the core, bridges and all shards included', async () => {
    for (const q of gold.questions) {
      const r = await engine.synthesize(q.question, { budget: 10 });
      const names = core(r.tables).map((t) => t.name);
      expect({ id: q.id, tables: normaliseCopy(names) }).toEqual({ id: q.id, tables: normaliseCopy(q.tables) });
      expect(names.filter((n) => n.startsWith('club')).length, `${q.id}: a copy is redundant`).toBeLessThanOrEqual(1);
    }
  });

  it('names the bridge and the shards of the club -> player map -> game shards question', async () => {
    const q = gold.questions.find((x) => x.id === 'aib-points')!;
    const r = await engine.synthesize(q.question, { budget: 10 });
    const shards = r.tables.filter((t) => t.name.startsWith('game_results'));
    expect(shards).toHaveLength(3);
    expect(r.plan.unionGroups).toHaveLength(1);
    expect(r.plan.unionGroups[0].tables.sort()).toEqual(['game_results_2021', 'game_results_2022', 'game_results_2023']);
    expect(r.tables.find((t) => t.name === 'player_club_map')).toBeDefined();
    expect(r.plan.joinSteps.length).toBe(3); // 4 groups joined as a tree
  });

  it('emits SQL that runs in DuckDB and returns the reference row count', async () => {
    for (const q of gold.questions) {
      const r = await engine.synthesize(q.question, { budget: 10, preview: 5 });
      expect(r.plan.executable, q.id).toBe(true);
      const snap = await engine.snapshot();
      const plan = planFusion(buildFusionInput(snap, core(r.tables).map((t) => t.id), (await import('../../src/intent/index.js')).intentAtoms(r.intent.graph)));
      expect(plan.sql).toBe(r.plan.sql);
      expect({ id: q.id, rows: await countFusion(plan) }).toEqual({ id: q.id, rows: q.expectedRowCount });
      expect(r.preview!.rows.length).toBe(Math.min(5, q.expectedRowCount));
    }
  });

  it('beam search agrees with GRAFT-Exact on the demo questions', async () => {
    for (const q of gold.questions) {
      const beam = await engine.synthesize(q.question, { budget: 10 });
      const exact = await engine.synthesize(q.question, { budget: 10, strategy: 'exact' });
      expect({ id: q.id, tables: normaliseCopy(core(beam.tables).map((t) => t.name)) }).toEqual({
        id: q.id,
        tables: normaliseCopy(exact.tables.map((t) => t.name)),
      });
    }
  });

  it('respects the budget: L = 1 returns one table, L = 3 at most three', async () => {
    const q = gold.questions.find((x) => x.id === 'aib-points')!;
    expect((await engine.synthesize(q.question, { budget: 1 })).tables).toHaveLength(1);
    expect((await engine.synthesize(q.question, { budget: 3 })).tables.length).toBeLessThanOrEqual(3);
    expect((await engine.synthesize(q.question, { budget: 0 })).tables).toHaveLength(0);
  });

  it('rejects out-of-range budgets and beams and empty questions with BAD_USER_INPUT', async () => {
    await expect(engine.synthesize('clubs', { budget: 1000 })).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
    await expect(engine.synthesize('clubs', { budget: -1 })).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
    await expect(engine.synthesize('clubs', { beamWidth: 0 })).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
    await expect(engine.synthesize('   ')).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
  });

  it('rejects a malformed intent graph naming the field', async () => {
    const bad = { version: 1, trees: [{ entity: { id: 'e1', label: 'club' }, attributes: [] }], edges: [{ id: 'x', from: 'e1', to: 'nope' }] };
    await expect(engine.synthesize('', { intent: bad as never })).rejects.toThrow(/edges\[0\]\.to/);
  });

  it('answers a question with no match with an empty set and a warning, not a crash', async () => {
    const r = await engine.synthesize('zxqv blorf wibble?', { budget: 10 });
    expect(r.tables).toEqual([]);
    expect(r.warnings.length).toBeGreaterThan(0);
  });

  it('explains any table set, including why a redundant copy adds little', async () => {
    const q = gold.questions.find((x) => x.id === 'aib-roster')!;
    const r = await engine.synthesize(q.question, { budget: 10 });
    const snap = await engine.snapshot();
    const copy = snap.tables.find((t) => t.name === 'club_copy')!;
    const club = snap.tables.find((t) => t.name === 'club')!;
    const ids = [...new Set([...r.tables.map((t) => t.id), club.id, copy.id])];
    const ex = await engine.explain({ intent: r.intent.graph, tableIds: ids });
    expect(ex.score).toBeGreaterThanOrEqual(r.score - 1e-9);
    expect(ex.redundancy.some((p) => [p.tableA, p.tableB].sort().join() === [club.id, copy.id].sort().join())).toBe(true);
    const copyGain = ex.tables.find((t) => t.tableId === copy.id)!.leaveOneOutLoss;
    const mapGain = ex.tables.find((t) => t.name === 'player_club_map')!.leaveOneOutLoss;
    expect(copyGain).toBeLessThan(mapGain / 2);
    await expect(engine.explain({ question: q.question, tableIds: ['00000000-0000-0000-0000-000000000000'] })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('never shows a table the filter hides, in the answer or the intent grounding', async () => {
    const q = gold.questions.find((x) => x.id === 'aib-points')!;
    const allow = (t: { name: string }) => !t.name.startsWith('game_results');
    const r = await engine.synthesize(q.question, { budget: 10, allowTable: allow });
    const snap = await engine.snapshot();
    const hidden = new Set(snap.tables.filter((t) => !allow(t)).map((t) => t.id));
    expect(r.tables.some((t) => hidden.has(t.id))).toBe(false);
    expect(JSON.stringify(r.intent.graph)).not.toMatch(new RegExp([...hidden].join('|')));
    expect(r.plan.sql ?? '').not.toContain('game_results');
  });
});

describe('graft engine on an empty catalog', () => {
  it('returns an empty answer with a warning', async () => {
    const db = await openCatalog({ dataDir: 'memory://' });
    try {
      const engine = createEngine(db, new HashedNgramEmbedder());
      const r = await engine.synthesize('Which players scored most points?', { budget: 5 });
      expect(r.tables).toEqual([]);
      expect(r.warnings.join(' ')).toMatch(/ingest/);
    } finally {
      await db.close();
    }
  });
});
