import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BadInputError, NotFoundError } from '../../src/util/errors.js';
import { LakeGraphIndex, type GraphEdges, type GraphTable } from '../../src/graph/index.js';
import { labelledLake, makeColumn, makeTable, range, rng, type Cell } from './fixture.js';

const joinIds = (e: GraphEdges) => e.joins.map((j) => `${j.fromColumnId}>${j.toColumnId}`).sort();
const unionIds = (e: GraphEdges) => e.unions.map((u) => `${u.tableAId}|${u.tableBId}`).sort();

function precisionRecall(found: string[], expected: string[]) {
  const exp = new Set(expected);
  const tp = found.filter((x) => exp.has(x)).length;
  return { precision: found.length ? tp / found.length : 1, recall: expected.length ? tp / expected.length : 1 };
}

function checkInvariants(index: LakeGraphIndex, tables: GraphTable[]): void {
  const columnTable = new Map(tables.flatMap((t) => t.columns.map((c) => [c.id, t.id] as const)));
  const { joins, unions } = index.allEdges();
  const pairs = new Set<string>();
  for (const j of joins) {
    expect(j.fromTableId).not.toBe(j.toTableId);
    expect(columnTable.get(j.fromColumnId)).toBe(j.fromTableId);
    expect(columnTable.get(j.toColumnId)).toBe(j.toTableId);
    for (const x of [j.score, j.containmentFromInTo, j.containmentToInFrom, j.jaccard, j.nameSimilarity]) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThanOrEqual(1);
    }
    // The foreign column is contained in the key, or the key is a piece (row shard) of the referenced table.
    expect(j.containmentFromInTo >= index.options.joinMinContainment || j.containmentToInFrom >= index.options.keyPieceMinCoverage).toBe(true);
    // One edge per unordered column pair.
    const key = [j.fromColumnId, j.toColumnId].sort().join('|');
    expect(pairs.has(key)).toBe(false);
    pairs.add(key);
  }
  for (const u of unions) {
    expect(u.tableAId < u.tableBId).toBe(true);
    expect(u.score).toBeGreaterThanOrEqual(index.options.unionMinScore);
    expect(u.score).toBeLessThanOrEqual(1);
    const as = u.alignment.map((p) => p.columnAId);
    const bs = u.alignment.map((p) => p.columnBId);
    expect(new Set(as).size).toBe(as.length);
    expect(new Set(bs).size).toBe(bs.length);
    for (const p of u.alignment) {
      expect(columnTable.get(p.columnAId)).toBe(u.tableAId);
      expect(columnTable.get(p.columnBId)).toBe(u.tableBId);
      expect(p.score).toBeGreaterThan(0);
      expect(p.score).toBeLessThanOrEqual(1);
    }
  }
}

describe('LakeGraphIndex on the labelled lake', () => {
  const lake = labelledLake();

  it('finds exactly the labelled joins and unions (precision = recall = 1)', () => {
    const edges = LakeGraphIndex.build(lake.tables).allEdges();
    const j = precisionRecall(joinIds(edges), lake.joins);
    const u = precisionRecall(unionIds(edges), lake.unions);
    expect({ joins: joinIds(edges), unions: unionIds(edges) }).toEqual({
      joins: [...lake.joins].sort(),
      unions: [...lake.unions].sort(),
    });
    expect(j).toEqual({ precision: 1, recall: 1 });
    expect(u).toEqual({ precision: 1, recall: 1 });
  });

  it('scores shards and copies as strongly unionable', () => {
    const { unions } = LakeGraphIndex.build(lake.tables).allEdges();
    const score = (a: string, b: string) => unions.find((u) => u.tableAId === a && u.tableBId === b)!.score;
    expect(score('game_part1', 'game_part2')).toBeGreaterThanOrEqual(0.8);
    expect(score('tag_part1', 'tag_part2')).toBeGreaterThanOrEqual(0.8);
    expect(score('club', 'club_copy')).toBeGreaterThanOrEqual(0.99);
    const shard = unions.find((u) => u.tableAId === 'game_part1')!;
    expect(shard.alignment.map((p) => `${p.columnAId}~${p.columnBId}`)).toEqual([
      'game_part1.game_id~game_part2.game_id',
      'game_part1.player_id~game_part2.player_id',
      'game_part1.score~game_part2.score',
    ]);
  });

  it('does not report aligned columns of a copy as a join', () => {
    // club_name is unique and identically named in both: a join by the rules, but the same attribute.
    const { joins } = LakeGraphIndex.build(lake.tables).allEdges();
    expect(joins.some((j) => j.fromColumnId.endsWith('club_name'))).toBe(false);
    const noUnions = LakeGraphIndex.build(lake.tables, { unionMinScore: 2 }).allEdges();
    // Equal scores both ways: the tie goes to the smaller fromColumnId.
    expect(joinIds(noUnions)).toContain('club.club_name>club_copy.club_name');
  });

  it('joins tables that share some columns and each have their own (a services table repeats the resident it refers to)', () => {
    // local_govt_and_lot's shape: residents_services carries the resident's id and move-in date
    // beside its own columns; the two tables union weakly on the shared columns.
    const ids = [6, 10, 23, 28, 37, 38, 43, 45, 47, 58, 67, 83, 87, 88, 90];
    const moved = ids.map((_, i) => `2017-0${1 + (i % 3)}-15`);
    const residents = makeTable('residents', { resident_id: ids, property_id: ids.map((i) => 100 + i * 7), date_moved_in: moved, other_details: ids.map((i) => `resident ${i}`) });
    const served = ids.filter((_, i) => i % 4 !== 1);
    const services = makeTable('residents_services', {
      resident_id: served,
      service_id: served.map((_, i) => 40 + (i % 8)),
      property_id: served.map((i) => 100 + i * 7),
      date_moved_in: served.map((i) => moved[ids.indexOf(i)]),
      date_requested: served.map((_, i) => `2016-10-${10 + i}`),
      other_details: served.map((_, i) => (i % 2 ? 'Satisfied' : 'Unsatisfied')),
    });
    const edges = LakeGraphIndex.build([residents, services]).allEdges();
    expect(unionIds(edges), 'the shared columns still align').toEqual(['residents|residents_services']);
    expect(joinIds(edges)).toContain('residents_services.resident_id>residents.resident_id');
    // A same-named table of another schema (another source's residents) is the same entity, not a reference.
    const kept = ids.slice(0, 10);
    const other = makeTable(
      'residents_2',
      { resident_id: kept, property_id: kept.map((i) => 100 + i * 7), date_moved_in: moved.slice(0, 10), other_details: kept.map((i) => `resident ${i}`), phone: kept.map((i) => `555-01${i}`) },
      'residents',
    );
    const copies = LakeGraphIndex.build([residents, other]).allEdges();
    expect(unionIds(copies)).toEqual(['residents|residents_2']);
    expect(joinIds(copies)).toEqual([]);
  });

  it('joins two unique integer columns that hold the very same values, many of them, whatever their names', () => {
    // car_1's shape: cars_data continues car_names row for row, `Id` ~ `MakeId`.
    const ids = range(1, 150);
    const names = makeTable('car_names', { MakeId: ids, Model: ids.map((i) => `model ${i % 40}`), Make: ids.map((i) => `make ${i}`) });
    const data = makeTable('cars_data', { Id: ids, MPG: ids.map((i) => 10 + (i % 30)), Year: ids.map((i) => 1970 + (i % 13)) });
    expect(joinIds(LakeGraphIndex.build([names, data]).allEdges())).toEqual(['car_names.MakeId>cars_data.Id']);
    // Another range, or too few values, is no evidence: dense ids of that size are common.
    const shifted = makeTable('cars_data', { Id: range(2, 151), MPG: ids.map((i) => 10 + (i % 30)) });
    expect(joinIds(LakeGraphIndex.build([names, shifted]).allEdges())).toEqual([]);
    const few = range(1, 99);
    const fewNames = makeTable('car_names', { MakeId: few, Model: few.map((i) => `model ${i % 40}`), Make: few.map((i) => `make ${i}`) });
    const fewData = makeTable('cars_data', { Id: few, MPG: few.map((i) => 10 + (i % 30)), Year: few.map((i) => 1970 + (i % 13)) });
    expect(joinIds(LakeGraphIndex.build([fewNames, fewData]).allEdges())).toEqual([]);
    expect(joinIds(LakeGraphIndex.build([fewNames, fewData], { oneToOneMinDistinct: 99 }).allEdges()), 'the threshold, not the shape, keeps them apart').toEqual(['car_names.MakeId>cars_data.Id']);
    expect(joinIds(LakeGraphIndex.build([names, data], { oneToOneMinDistinct: 1000 }).allEdges())).toEqual([]);
  });

  it('addTable returns only the new table\'s edges, and their union is the whole edge set', () => {
    const index = new LakeGraphIndex();
    const collected: GraphEdges = { joins: [], unions: [] };
    for (const t of lake.tables) {
      const e = index.addTable(t);
      for (const j of e.joins) expect([j.fromTableId, j.toTableId]).toContain(t.id);
      for (const u of e.unions) expect([u.tableAId, u.tableBId]).toContain(t.id);
      collected.joins.push(...e.joins);
      collected.unions.push(...e.unions);
    }
    expect(joinIds(collected)).toEqual(joinIds(index.allEdges()));
    expect(unionIds(collected)).toEqual(unionIds(index.allEdges()));
    expect(index.size).toBe(lake.tables.length);
    checkInvariants(index, lake.tables);
  });

  it('yields the same edges for every ingest order', () => {
    const reference = JSON.stringify(LakeGraphIndex.build(lake.tables).allEdges());
    fc.assert(
      fc.property(fc.shuffledSubarray(lake.tables, { minLength: lake.tables.length, maxLength: lake.tables.length }), (order) => {
        expect(JSON.stringify(LakeGraphIndex.build(order).allEdges())).toBe(reference);
      }),
      { numRuns: 30 },
    );
  });

  it('removeTable drops the table\'s edges; the result equals a build without it', () => {
    fc.assert(
      fc.property(fc.subarray(lake.tables.map((t) => t.id), { minLength: 1, maxLength: 4 }), (removed) => {
        const index = LakeGraphIndex.build(lake.tables);
        for (const id of removed) index.removeTable(id);
        const rest = lake.tables.filter((t) => !removed.includes(t.id));
        expect(JSON.stringify(index.allEdges())).toBe(JSON.stringify(LakeGraphIndex.build(rest).allEdges()));
        // Re-adding restores the original edge set.
        for (const id of removed) index.addTable(lake.tables.find((t) => t.id === id)!);
        expect(JSON.stringify(index.allEdges())).toBe(JSON.stringify(LakeGraphIndex.build(lake.tables).allEdges()));
      }),
      { numRuns: 20 },
    );
  });

  it('edgesOf lists the edges touching a table', () => {
    const index = LakeGraphIndex.build(lake.tables);
    expect(joinIds(index.edgesOf('player'))).toEqual([
      'game_part1.player_id>player.player_id',
      'game_part2.player_id>player.player_id',
      'player.club_id>club.id',
      'player.club_id>club_copy.id',
    ]);
    expect(index.edgesOf('sensor')).toEqual({ joins: [], unions: [] });
    expect(() => index.edgesOf('nope')).toThrow(NotFoundError);
  });
});

// ---- random lakes ------------------------------------------------------------------------

const COLUMN_NAMES = ['id', 'name', 'player_id', 'club_id', 'code', 'country_code', 'score', 'label', 'acct'];
const TABLE_NAMES = ['player', 'club', 'game', 'country', 'stats', 'sensor', 'club_part1', 'club_part2'];
const WORDS = range(1, 30).map((i) => `word${String.fromCharCode(97 + (i % 26))}${i}`);
const LONGS = range(1, 40).map((i) => 10_000_000 + i * 7_919_113 % 89_000_000);

const columnArb = fc.record({
  name: fc.constantFrom(...COLUMN_NAMES),
  kind: fc.constantFrom('dense', 'repeat', 'text', 'long'),
  lo: fc.integer({ min: 1, max: 30 }),
  n: fc.integer({ min: 1, max: 30 }),
  seed: fc.integer({ min: 0, max: 1000 }),
});
const tableArb = fc.record({ name: fc.constantFrom(...TABLE_NAMES), columns: fc.array(columnArb, { minLength: 1, maxLength: 4 }) });
const lakeArb = fc.array(tableArb, { minLength: 2, maxLength: 6 });

type LakeRecipe = Array<{ name: string; columns: Array<{ name: string; kind: string; lo: number; n: number; seed: number }> }>;

function buildLake(recipe: LakeRecipe): GraphTable[] {
  return recipe.map((t, ti) => {
    const id = `t${ti}_${t.name}`;
    const seen = new Set<string>();
    const cols = t.columns.filter((c) => !seen.has(c.name) && (seen.add(c.name), true));
    return {
      id,
      name: t.name,
      rowCount: 0,
      columns: cols.map((c, i) => {
        const r = rng(c.seed);
        let values: Cell[];
        if (c.kind === 'dense') values = range(c.lo, c.lo + c.n);
        else if (c.kind === 'repeat') values = range(1, c.n + 1).map(() => 1 + Math.floor(r() * (c.lo + 5)));
        else if (c.kind === 'text') values = range(1, c.n + 1).map(() => WORDS[Math.floor(r() * Math.min(WORDS.length, c.lo + 5))]);
        else values = range(1, c.n + 1).map(() => LONGS[Math.floor(r() * Math.min(LONGS.length, c.lo + 5))]);
        return makeColumn(id, c.name, i, values);
      }),
    };
  });
}

describe('LakeGraphIndex on random lakes', () => {
  it('is order-independent, keeps its invariants, and removal equals rebuild', () => {
    fc.assert(
      fc.property(
        lakeArb.chain((recipe) =>
          fc.tuple(fc.constant(recipe), fc.shuffledSubarray(range(0, recipe.length - 1), { minLength: recipe.length, maxLength: recipe.length })),
        ),
        ([recipe, order]) => {
          const tables = buildLake(recipe);
          const index = LakeGraphIndex.build(tables);
          checkInvariants(index, tables);
          const permuted = LakeGraphIndex.build(order.map((i) => tables[i]));
          expect(JSON.stringify(permuted.allEdges())).toBe(JSON.stringify(index.allEdges()));
          permuted.removeTable(tables[0].id);
          expect(JSON.stringify(permuted.allEdges())).toBe(JSON.stringify(LakeGraphIndex.build(tables.slice(1)).allEdges()));
        },
      ),
      { numRuns: 100 },
    );
  });
});

// ---- candidate generation ------------------------------------------------------------------

describe('candidate generation', () => {
  it('never compares generic small-integer id columns (no all-pairs)', () => {
    // 150 tables, each an `id` 1..n column and a uniquely named float column. Raw containment
    // would link every id column to every larger one (11k pairs); none has name evidence.
    const letters = 'abcdefghijklmnopqrtuvwxyz';
    const word = (i: number) => 'q' + letters[i % 25] + letters[Math.floor(i / 25) % 25] + 'x';
    const r = rng(5);
    const tables = range(0, 149).map((i) =>
      makeTable(`t${i}`, { id: range(1, 10 + (i % 40)), [word(i)]: range(1, 10 + (i % 40)).map(() => r() * 100) }),
    );
    const index = LakeGraphIndex.build(tables);
    expect(index.allEdges()).toEqual({ joins: [], unions: [] });
    expect(index.stats.joinPairsVerified).toBe(0);
    expect(index.stats.unionPairsScored).toBe(0);
  });

  it('compares a foreign key with the keys whose name it carries, not with every key', () => {
    const tables = [
      makeTable('club', { id: range(1, 20) }),
      makeTable('city', { id: range(1, 20) }),
      makeTable('player', { player_id: range(1, 60), club_id: range(1, 60).map((i) => 1 + (i % 20)) }),
    ];
    const index = LakeGraphIndex.build(tables);
    expect(joinIds(index.allEdges())).toEqual(['player.club_id>club.id']);
    expect(index.stats.joinPairsVerified).toBe(1);
  });

  it('finds a key whose name is split another way (`stuid` -> student.`StuID`, small integers)', () => {
    const tables = [
      makeTable('student', { StuID: range(1, 30), age: range(1, 30).map((i) => 18 + (i % 7)) }),
      makeTable('lives_in', { stuid: range(1, 20).map((i) => 1 + (i % 25)), room: range(1, 20).map((i) => 100 + (i % 9)) }),
    ];
    // Only the name channel can propose the pair (small integers are not in the value channel).
    expect(joinIds(LakeGraphIndex.build(tables).allEdges())).toEqual(['lives_in.stuid>student.StuID']);
  });
});

// ---- embeddings --------------------------------------------------------------------------

function unit(seed: number, dim = 256): Float64Array {
  const r = rng(seed);
  const v = Float64Array.from({ length: dim }, () => r() * 2 - 1);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

function near(base: Float64Array, seed: number, noise = 0.2): Float64Array {
  const e = unit(seed, base.length);
  const v = base.map((x, i) => x + noise * e[i]);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

describe('header embeddings as name evidence', () => {
  const player = (emb?: ArrayLike<number>) => ({
    id: 'player',
    name: 'player',
    rowCount: 60,
    columns: [makeColumn('player', 'player_id', 0, range(1, 60), { embedding: emb })],
  });
  const match = (emb?: ArrayLike<number>) => ({
    id: 'match',
    name: 'match',
    rowCount: 80,
    columns: [makeColumn('match', 'winner_id', 0, range(1, 80).map((i) => 1 + (i % 45)), { embedding: emb })],
  });

  it('winner_id -> player_id joins only when the header embeddings agree', () => {
    expect(LakeGraphIndex.build([player(), match()]).allEdges().joins).toEqual([]);
    const base = unit(1);
    const close = LakeGraphIndex.build([player(base), match(near(base, 2))]).allEdges().joins;
    expect(joinIds({ joins: close, unions: [] })).toEqual(['match.winner_id>player.player_id']);
    expect(close[0].nameSimilarity).toBeGreaterThanOrEqual(0.5);
    const far = LakeGraphIndex.build([player(base), match(unit(3))]).allEdges().joins;
    expect(far).toEqual([]);
  });

  it('identical embeddings of generic names (`id` ~ `id`) are no evidence', () => {
    const e = unit(4);
    const a = { id: 'a', name: 'a', rowCount: 20, columns: [makeColumn('a', 'id', 0, range(1, 20), { embedding: e })] };
    const b = { id: 'b', name: 'b', rowCount: 50, columns: [makeColumn('b', 'id', 0, range(1, 50), { embedding: e })] };
    expect(LakeGraphIndex.build([a, b]).allEdges().joins).toEqual([]);
  });
});

// ---- input validation ------------------------------------------------------------------------

describe('input validation', () => {
  it('rejects duplicates, foreign columns and mismatched sketches with the field named', () => {
    const index = new LakeGraphIndex();
    const t = makeTable('t', { id: range(1, 5) });
    index.addTable(t);
    expect(() => index.addTable(t)).toThrow(BadInputError);
    expect(() => index.addTable(t)).toThrow(/t: already indexed/);
    const wrongTable = makeTable('u', { id: range(1, 5) });
    wrongTable.columns[0].tableId = 'x';
    expect(() => index.addTable(wrongTable)).toThrow(/tableId is x, expected u/);
    const short = makeTable('v', { id: range(1, 5) });
    short.columns[0].minhash = short.columns[0].minhash.slice(0, 64);
    expect(() => index.addTable(short)).toThrow(/minhash has 64 slots, the index uses 128/);
    const bad = makeTable('w', { id: range(1, 5) });
    bad.columns[0].uniqueness = 2;
    expect(() => index.addTable(bad)).toThrow(/uniqueness must be a number in \[0,1\]/);
    expect(() => index.removeTable('nope')).toThrow(NotFoundError);
    // A failed add leaves nothing behind.
    expect(index.tableIds()).toEqual(['t']);
  });

  it('accepts columns without values and tables without columns', () => {
    const index = new LakeGraphIndex();
    const empty = { id: 'e', name: 'e', rowCount: 0, columns: [] };
    const nulls = makeTable('n', { id: [null, null] });
    expect(index.addTable(empty)).toEqual({ joins: [], unions: [] });
    expect(index.addTable(nulls)).toEqual({ joins: [], unions: [] });
    expect(index.addTable({ ...empty, id: 'e2' })).toEqual({ joins: [], unions: [] });
  });
});
