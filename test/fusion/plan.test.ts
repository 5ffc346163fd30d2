/** Planning alone (no files read): spanning tree choice, parallel edges, grouping, bad input. */
import { describe, expect, it } from 'vitest';
import { planFusion, type FusionJoinEdge, type FusionTable } from '../../src/fusion/index.js';
import { GraftError } from '../../src/util/errors.js';

function table(name: string, columns: string[], types: Record<string, string> = {}): FusionTable {
  return {
    id: `T_${name}`,
    name,
    uri: `/nowhere/${name}.parquet`,
    format: 'parquet',
    columns: columns.map((c) => ({ id: `C_${name}_${c}`, name: c, logicalType: types[c] ?? 'integer' })),
  };
}

function edge(from: string, to: string, score: number, containment = 1): FusionJoinEdge {
  const [ft, fc] = from.split('.') as [string, string];
  const [tt, tc] = to.split('.') as [string, string];
  return {
    fromColumnId: `C_${ft}_${fc}`,
    toColumnId: `C_${tt}_${tc}`,
    fromTableId: `T_${ft}`,
    toTableId: `T_${tt}`,
    score,
    containmentFromTo: containment,
    containmentToFrom: containment,
  };
}

describe('join tree', () => {
  it('keeps the best of parallel edges between one pair', () => {
    const plan = planFusion({
      tables: [table('a', ['x', 'y']), table('b', ['x', 'y'])],
      joins: [edge('a.x', 'b.x', 0.5), edge('a.y', 'b.y', 0.9), edge('b.x', 'a.x', 0.7)],
      unions: [],
    });
    expect(plan.joinSteps).toHaveLength(1);
    expect(plan.joinSteps[0]).toMatchObject({
      leftGroupId: 'g1',
      leftColumn: { name: 'y', groupColumn: 'y' },
      rightGroupId: 'g2',
      rightColumn: { name: 'y' },
      score: 0.9,
    });
    expect(plan.sql).toContain('JOIN "g2" ON "g1"."y" = "g2"."y"');
  });

  it('picks a maximum-score spanning tree and orders steps so each attaches a new group', () => {
    const plan = planFusion({
      tables: [table('a', ['k']), table('b', ['k', 'c']), table('c', ['c', 'k'])],
      joins: [edge('a.k', 'b.k', 0.9), edge('b.c', 'c.c', 0.8), edge('a.k', 'c.k', 0.3)],
      unions: [],
    });
    expect(plan.joinSteps.map((s) => [s.leftGroupId, s.rightGroupId, s.score])).toEqual([
      ['g1', 'g2', 0.9],
      ['g2', 'g3', 0.8],
    ]);
    expect(plan.joinedGroupIds).toEqual(['g1', 'g2', 'g3']);
    expect(plan.disconnected).toEqual([]);
  });

  it('orients steps from the joined part even when the edge points the other way', () => {
    const plan = planFusion({
      tables: [table('dim', ['id', 'label']), table('fact', ['dim_id', 'v'])],
      joins: [edge('fact.dim_id', 'dim.id', 0.8, 0.95)],
      unions: [],
    });
    expect(plan.joinSteps[0]).toMatchObject({
      leftGroupId: 'g1',
      leftColumn: { tableId: 'T_dim', name: 'id' },
      rightGroupId: 'g2',
      rightColumn: { tableId: 'T_fact', name: 'dim_id' },
      containment: 0.95,
    });
    expect(plan.outputColumns.map((c) => c.name)).toEqual(['id', 'label', 'v']);
  });

  it('casts join keys of different kinds to text, with a warning', () => {
    const plan = planFusion({
      tables: [table('a', ['code'], { code: 'text' }), table('b', ['code'])],
      joins: [edge('b.code', 'a.code', 0.7)],
      unions: [],
    });
    expect(plan.joinSteps[0]!.castToText).toBe(true);
    expect(plan.sql).toContain('CAST("g1"."code" AS VARCHAR) = CAST("g2"."code" AS VARCHAR)');
    expect(plan.warnings.join('\n')).toMatch(/cast to text/);
  });

  it('ignores edges outside the input set and edges inside a union group', () => {
    const plan = planFusion({
      tables: [table('s1', ['k', 'v']), table('s2', ['k', 'v']), table('d', ['k'])],
      joins: [edge('s1.k', 's2.k', 1), edge('s2.k', 'd.k', 0.6), edge('s1.k', 'zzz.k', 1)],
      unions: [
        {
          tableAId: 'T_s1',
          tableBId: 'T_s2',
          score: 0.9,
          alignment: [
            { columnAId: 'C_s1_k', columnBId: 'C_s2_k', score: 1 },
            { columnAId: 'C_s1_v', columnBId: 'C_s2_v', score: 1 },
          ],
        },
        { tableAId: 'T_s1', tableBId: 'T_elsewhere', score: 1, alignment: [] },
      ],
    });
    expect(plan.unionGroups.map((g) => g.tableIds)).toEqual([['T_s1', 'T_s2'], ['T_d']]);
    expect(plan.unionGroups[0]!.name).toBe('s');
    expect(plan.joinSteps).toHaveLength(1);
    expect(plan.joinSteps[0]!.score).toBe(0.6);
    expect(plan.warnings.join('\n')).toMatch(/1 join edge\(s\) name columns or tables outside/);
    expect(plan.warnings.join('\n')).toMatch(/1 union edge\(s\) name tables outside/);
  });
});

describe('grouping and naming', () => {
  it('keeps group names unique and uses them for clashing output columns', () => {
    const a = table('x', ['id', 'name']);
    const b = { ...table('x', ['id', 'name']), id: 'T_x2', columns: [{ id: 'C_x2_id', name: 'id', logicalType: 'integer' }, { id: 'C_x2_name', name: 'NAME', logicalType: 'text' }] };
    const plan = planFusion({
      tables: [a, b],
      joins: [{ ...edge('x.id', 'x.id', 0.9), toColumnId: 'C_x2_id', toTableId: 'T_x2' }],
      unions: [],
    });
    expect(plan.unionGroups.map((g) => g.name)).toEqual(['x', 'x_2']);
    expect(plan.outputColumns.map((c) => c.name)).toEqual(['id', 'x__name', 'x_2__NAME']);
  });

  it('an empty table set gives a non-executable plan, not a crash', () => {
    const plan = planFusion({ tables: [], joins: [], unions: [] });
    expect(plan.executable).toBe(false);
    expect(plan.sql).toBeNull();
    expect(plan.unionGroups).toEqual([]);
  });

  it('rejects duplicate ids with a GraftError naming the id', () => {
    expect(() => planFusion({ tables: [table('a', ['k']), table('a', ['k'])], joins: [], unions: [] })).toThrow(GraftError);
    expect(() => planFusion({ tables: [table('a', ['k']), table('a', ['k'])], joins: [], unions: [] })).toThrow(/T_a/);
  });

  it('quotes identifiers that contain quotes', () => {
    const plan = planFusion({ tables: [table('q', ['we"ird', 'k'])], joins: [], unions: [] });
    expect(plan.sql).toContain('"we""ird"');
  });
});
