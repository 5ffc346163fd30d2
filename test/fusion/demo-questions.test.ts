/**
 * The gold questions of the demo lake, fused from hand-built inputs over the real built lake:
 * the fused SQL must return exactly the reference SQL's row count.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDuckDB } from '../../src/lake/index.js';
import {
  countFusion,
  planFusion,
  previewFusion,
  type FusionInput,
  type FusionPlan,
  type FusionTable,
  type ValueFilter,
} from '../../src/fusion/index.js';
import { makeDemoLake, type DemoGold } from '../support/demoLake.js';
import { cid, demoTable, joinEdge, tid, unionByName } from './helpers.js';

let dir: string;
let gold: DemoGold;
const tables = new Map<string, FusionTable>();

/** The value filter each gold question's reference SQL applies. */
const QUESTION_FILTERS: Record<string, ValueFilter[]> = {
  'aib-points': [{ columnId: cid('club', 'club_name'), operator: '=', literal: 'AIB' }],
  'aib-roster': [{ columnId: cid('club', 'club_name'), operator: '=', literal: 'AIB' }],
  'cs-gpa': [{ columnId: cid('department', 'dept_name'), operator: '=', literal: 'Computer Science' }],
  'students-2021-gpa': [{ columnId: cid('student', 'enrol_year'), operator: '=', literal: 2021 }],
  'linear-algebra-grades': [{ columnId: cid('course', 'title'), operator: '=', literal: 'Linear Algebra' }],
  'math-credits': [{ columnId: cid('department', 'dept_name'), operator: '=', literal: 'Mathematics' }],
};

beforeAll(async () => {
  ({ dir, gold } = await makeDemoLake());
  const names = new Set(gold.questions.flatMap((q) => q.tables));
  names.add('club_copy');
  for (const name of names) tables.set(name, await demoTable(dir, name));
});

afterAll(async () => {
  await closeDuckDB();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The fusion input for a table set: gold joins and gold unions among those tables. */
function inputFor(names: string[], filters: ValueFilter[] = [], extraJoins: { from: string; to: string }[] = []): FusionInput {
  const inSet = (ref: string) => names.includes(ref.split('.')[0]!);
  const joins = [...gold.joins, ...extraJoins].filter((j) => inSet(j.from) && inSet(j.to)).map((j) => joinEdge(j.from, j.to));
  const unions = gold.unions
    .filter(([a, b]) => names.includes(a) && names.includes(b))
    .map(([a, b]) => unionByName(tables.get(a)!, tables.get(b)!));
  return { tables: names.map((n) => tables.get(n)!), joins, unions, filters };
}

/** Steps form a spanning tree of the joined groups, each attaching a new group to the joined part. */
function expectJoinTree(plan: FusionPlan): void {
  expect(plan.joinSteps).toHaveLength(plan.joinedGroupIds.length - 1);
  const joined = new Set([plan.joinedGroupIds[0]]);
  for (const step of plan.joinSteps) {
    expect(joined.has(step.leftGroupId)).toBe(true);
    expect(joined.has(step.rightGroupId)).toBe(false);
    joined.add(step.rightGroupId);
  }
  expect([...joined].sort()).toEqual([...plan.joinedGroupIds].sort());
}

describe('gold questions', () => {
  it('covers every gold question', () => {
    expect(Object.keys(QUESTION_FILTERS).sort()).toEqual(gold.questions.map((q) => q.id).sort());
  });

  for (const id of Object.keys(QUESTION_FILTERS)) {
    it(`${id}: fused row count equals the reference SQL's`, async () => {
      const q = gold.questions.find((x) => x.id === id)!;
      const plan = planFusion(inputFor(q.tables, QUESTION_FILTERS[id]));
      expect(plan.executable).toBe(true);
      expect(plan.disconnected).toEqual([]);
      expect(plan.filters.unbound).toEqual([]);
      expect(plan.filters.bound).toHaveLength(1);
      expectJoinTree(plan);
      expect(await countFusion(plan)).toBe(q.expectedRowCount);

      const preview = await previewFusion(plan, 7);
      expect(preview.rows.length).toBeLessThanOrEqual(7);
      expect(preview.rows.length).toBe(Math.min(7, q.expectedRowCount));
      expect(new Set(preview.columns.map((c) => c.toLowerCase())).size).toBe(preview.columns.length);
      expect(preview.columns).toEqual(plan.outputColumns.map((c) => c.name));
      expect(() => JSON.stringify(preview.rows)).not.toThrow();
      if (q.expectedRowCount <= 7) expect(preview.rowCountExact).toBe(q.expectedRowCount);
      else expect(preview.rowCountExact).toBeUndefined();
    });
  }

  it('aib-points: one union group of the three shards, joined through the bridge', async () => {
    const q = gold.questions.find((x) => x.id === 'aib-points')!;
    const plan = planFusion(inputFor(q.tables, QUESTION_FILTERS['aib-points']));
    expect(plan.unionGroups).toHaveLength(4);
    const shards = plan.unionGroups.filter((g) => g.tableIds.length > 1);
    expect(shards).toHaveLength(1);
    expect(shards[0]!.tableIds.sort()).toEqual(['game_results_2021', 'game_results_2022', 'game_results_2023'].map(tid));
    expect(shards[0]!.name).toBe('game_results');
    // Every shard column is aligned into one group column.
    for (const col of shards[0]!.columnMapping) expect(col.columns).toHaveLength(3);
    expect(plan.sql).toContain('UNION ALL BY NAME');
    expect(plan.joinSteps).toHaveLength(3);
    // The right-hand join keys are not repeated in the output.
    const names = plan.outputColumns.map((c) => c.name);
    expect(names.filter((n) => n === 'player_id')).toHaveLength(1);
    expect(names.filter((n) => n === 'club_id')).toHaveLength(1);
    expect(names).toEqual(expect.arrayContaining(['club_name', 'full_name', 'points', 'game_date', 'season']));

    const preview = await previewFusion(plan, 100);
    expect(preview.rows).toHaveLength(q.expectedRowCount);
    expect(preview.rowCountExact).toBe(q.expectedRowCount);
    for (const row of preview.rows) {
      expect(row['club_name']).toBe('AIB');
      expect(typeof row['points']).toBe('number');
      expect(row['game_date']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it('aib-points: redundant edges (shard to shard, bridge to shards) still give a tree and the same count', async () => {
    const q = gold.questions.find((x) => x.id === 'aib-points')!;
    const plan = planFusion(inputFor(q.tables, QUESTION_FILTERS['aib-points'], gold.acceptableJoins));
    expectJoinTree(plan);
    expect(plan.joinSteps).toHaveLength(3);
    expect(await countFusion(plan)).toBe(q.expectedRowCount);
  });

  it('text equality is case-insensitive and trimmed', async () => {
    const plan = planFusion(
      inputFor(['club', 'player_club_map', 'player'], [{ columnId: cid('club', 'club_name'), operator: '=', literal: '  aib ' }]),
    );
    expect(plan.filters.bound[0]!.sql).toBe(`lower(trim("g1"."club_name")) = lower(trim('  aib '))`);
    expect(await countFusion(plan)).toBe(gold.questions.find((x) => x.id === 'aib-roster')!.expectedRowCount);
  });

  it('below the union threshold shards stay separate groups', () => {
    const input = inputFor(['player', 'game_results_2021', 'game_results_2022']);
    input.unions = input.unions.map((u) => ({ ...u, score: 0.5 }));
    expect(planFusion(input).unionGroups).toHaveLength(3);
    expect(planFusion({ ...input, unionThreshold: 0.4 }).unionGroups).toHaveLength(2);
  });
});
