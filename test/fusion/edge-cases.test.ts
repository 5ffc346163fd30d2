/**
 * Fusion over the real demo lake beyond the gold questions: renamed shard headers, name clashes,
 * disconnected sets, SQLite, filters that cannot bind, hostile literals, every operator.
 */
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDuckDB, sqlString, withDuckDB } from '../../src/lake/index.js';
import {
  countFusion,
  FusionExecutionError,
  planFusion,
  previewFusion,
  type FusionTable,
  type ValueFilter,
} from '../../src/fusion/index.js';
import { makeDemoLake, type DemoGold } from '../support/demoLake.js';
import { cid, demoTable, describeTable, joinEdge, tid, unionByName } from './helpers.js';

let dir: string;
let gold: DemoGold;
const t: Record<string, FusionTable> = {};

async function scalar(sql: string): Promise<number> {
  return withDuckDB(async (con) => Number((await con.runAndReadAll(sql)).getRows()[0]![0] as bigint));
}
const file = (name: string) => path.join(dir, name);
const src = (name: string) =>
  name.endsWith('.parquet') ? `read_parquet(${sqlString(file(name))})` : `read_csv(${sqlString(file(name))}, header=true)`;

beforeAll(async () => {
  ({ dir, gold } = await makeDemoLake());
  for (const name of [
    'club',
    'club_copy',
    'player_club_map',
    'player',
    'game_results_2021',
    'game_results_2022',
    'game_results_2023',
    'student',
    'course',
    'vendor',
  ]) {
    t[name] = await demoTable(dir, name);
  }
});

afterAll(async () => {
  await closeDuckDB();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const roster = (filters: ValueFilter[] = []) =>
  planFusion({
    tables: [t.club!, t.player_club_map!, t.player!],
    joins: [joinEdge('player_club_map.club_id', 'club.club_id'), joinEdge('player_club_map.player_id', 'player.player_id')],
    unions: [],
    filters,
  });

describe('union groups with different headers', () => {
  it('projects renamed shard columns onto the group names; missing columns are NULL', async () => {
    // A fourth season exported with other headers, columns reordered, assists missing, venue extra.
    const shard = file('results_2024_export.csv');
    await withDuckDB((con) =>
      con.run(
        `COPY (SELECT 'home' AS venue, points AS pts, game_date, player_id AS pid, game_id AS gid ` +
          `FROM ${src('game_results_2023.parquet')}) TO ${sqlString(shard)} (HEADER, DELIMITER ',')`,
      ),
    );
    const s24 = await describeTable(shard, 'results_2024_export');
    const s23 = t.game_results_2023!;
    const renamed = {
      tableAId: s23.id,
      tableBId: s24.id,
      score: 0.8,
      alignment: [
        // Stored orientation is not trusted: one pair is given reversed.
        { columnAId: cid('game_results_2023', 'game_id'), columnBId: cid('results_2024_export', 'gid'), score: 0.9 },
        { columnAId: cid('results_2024_export', 'pid'), columnBId: cid('game_results_2023', 'player_id'), score: 0.9 },
        { columnAId: cid('game_results_2023', 'points'), columnBId: cid('results_2024_export', 'pts'), score: 0.8 },
        { columnAId: cid('game_results_2023', 'game_date'), columnBId: cid('results_2024_export', 'game_date'), score: 1 },
      ],
    };
    const plan = planFusion({
      tables: [t.club!, t.player_club_map!, t.player!, t.game_results_2021!, t.game_results_2022!, s23, s24],
      joins: [
        joinEdge('player_club_map.club_id', 'club.club_id'),
        joinEdge('player_club_map.player_id', 'player.player_id'),
        // The only edge into the shards starts at the renamed column.
        joinEdge('results_2024_export.pid', 'player.player_id'),
      ],
      unions: [unionByName(t.game_results_2021!, t.game_results_2022!), unionByName(t.game_results_2022!, s23), renamed],
      filters: [{ columnId: cid('club', 'club_name'), operator: '=', literal: 'AIB' }],
    });
    const group = plan.unionGroups.find((g) => g.tableIds.length > 1)!;
    expect(group.tableIds).toHaveLength(4);
    expect(group.columnMapping.map((c) => c.name)).toEqual(['game_id', 'player_id', 'points', 'assists', 'game_date', 'venue']);
    expect(group.columnMapping.find((c) => c.name === 'assists')!.columns).toHaveLength(3);
    expect(group.columnMapping.find((c) => c.name === 'venue')!.columns).toEqual([
      { tableId: s24.id, columnId: cid('results_2024_export', 'venue'), columnName: 'venue' },
    ]);
    expect(plan.sql).toContain('"pid" AS "player_id"');
    expect(plan.sql).toContain('"pts" AS "points"');
    expect(plan.warnings.join('\n')).toMatch(/assists, venue exist in only some members/);
    const step = plan.joinSteps.find((s) => s.rightGroupId === group.id)!;
    expect(step.rightColumn).toMatchObject({ name: 'pid', groupColumn: 'player_id' });

    const aib2023 = await scalar(
      `SELECT count(*) FROM ${src('game_results_2023.parquet')} g JOIN ${src('player_club_map.csv')} m ON m.player_id = g.player_id ` +
        `JOIN ${src('club.csv')} c ON c.club_id = m.club_id WHERE c.club_name = 'AIB'`,
    );
    expect(aib2023).toBeGreaterThan(0);
    const aibPoints = gold.questions.find((q) => q.id === 'aib-points')!.expectedRowCount;
    expect(await countFusion(plan)).toBe(aibPoints + aib2023);

    const preview = await previewFusion(plan, 500);
    expect(preview.rows).toHaveLength(aibPoints + aib2023);
    const fromExport = preview.rows.filter((r) => r['venue'] === 'home');
    expect(fromExport).toHaveLength(aib2023);
    for (const r of fromExport) {
      expect(r['assists']).toBeNull();
      expect(typeof r['points']).toBe('number');
    }
  });
});

describe('output column names', () => {
  it('prefixes clashing names with the group name and drops the right-hand join key', async () => {
    const plan = planFusion({
      tables: [t.club!, t.club_copy!],
      joins: [joinEdge('club.club_id', 'club_copy.club_id')],
      unions: [], // not stacked: joined instead
    });
    expect(plan.outputColumns.map((c) => c.name)).toEqual([
      'club_id',
      'club__club_name',
      'club__city',
      'club__founded',
      'club_copy__club_name',
      'club_copy__city',
      'club_copy__founded',
    ]);
    const preview = await previewFusion(plan, 3);
    expect(preview.columns).toEqual(plan.outputColumns.map((c) => c.name));
    expect(preview.rows).toHaveLength(3);
    expect(preview.rows[0]!['club__club_name']).toBe(preview.rows[0]!['club_copy__club_name']);
    expect(await countFusion(plan)).toBe(12);
  });
});

describe('disconnected sets', () => {
  it('reports groups no join edge reaches and plans the largest component', async () => {
    const plan = planFusion({
      tables: [t.student!, t.club!, t.player_club_map!],
      joins: [joinEdge('player_club_map.club_id', 'club.club_id')],
      unions: [],
      filters: [
        { columnId: cid('student', 'gpa'), operator: '>', literal: 3 },
        { columnId: cid('club', 'club_name'), operator: '=', literal: 'AIB' },
      ],
    });
    expect(plan.disconnected).toEqual([[tid('student')]]);
    expect(plan.executable).toBe(true);
    expect(plan.warnings.join('\n')).toMatch(/no join edge connects \[student\]/);
    expect(plan.filters.unbound).toHaveLength(1);
    expect(plan.filters.unbound[0]!.filter.columnId).toBe(cid('student', 'gpa'));
    expect(plan.filters.unbound[0]!.reason).toMatch(/not in the joined component/);
    expect(plan.sql).not.toContain('student');
    expect(await countFusion(plan)).toBe(13);
  });

  it('a set with no join edges at all does not crash and never invents a join', async () => {
    const plan = planFusion({ tables: [t.student!, t.vendor!, t.course!], joins: [], unions: [] });
    expect(plan.joinSteps).toEqual([]);
    expect(plan.disconnected).toEqual([[tid('vendor')], [tid('course')]]);
    expect(plan.sql).not.toMatch(/\bJOIN\b/);
    expect(await countFusion(plan)).toBe(300);
  });
});

describe('SQLite tables', () => {
  it('a joined SQLite table is copied into DuckDB, and the SQL names it with sqlite_scan', async () => {
    const dbFile = file('clubs.sqlite');
    const db = new Database(dbFile);
    db.exec('CREATE TABLE clubs (club_id INTEGER PRIMARY KEY, club_name TEXT); INSERT INTO clubs VALUES (1, \'AIB\');');
    db.close();
    const sqliteClub: FusionTable = {
      id: tid('clubs'),
      name: 'clubs',
      uri: `${dbFile}#clubs`,
      format: 'sqlite',
      columns: [
        { id: cid('clubs', 'club_id'), name: 'club_id', logicalType: 'integer' },
        { id: cid('clubs', 'club_name'), name: 'club_name', logicalType: 'text' },
      ],
    };
    const plan = planFusion({
      tables: [t.player_club_map!, sqliteClub],
      joins: [joinEdge('player_club_map.club_id', 'clubs.club_id')],
      unions: [],
    });
    expect(plan.executable).toBe(true);
    expect(plan.sql).toContain(`sqlite_scan(${sqlString(dbFile)}, 'clubs')`);
    expect(plan.joinSteps).toHaveLength(1);
    const expected = await scalar(`SELECT count(*) FROM ${src('player_club_map.csv')} WHERE club_id = 1`);
    expect(expected).toBeGreaterThan(0);
    expect(await countFusion(plan)).toBe(expected);
    const preview = await previewFusion(plan, 3);
    expect(preview.sources.find((s) => s.name === 'clubs')).toMatchObject({ readBy: 'better-sqlite3', copiedRows: 1, truncated: false });
    expect(preview.rows.every((r) => r['club_name'] === 'AIB')).toBe(true);

    // Left out of the joined component it is not read at all.
    const apart = planFusion({ tables: [t.club!, t.player_club_map!, sqliteClub], joins: [joinEdge('player_club_map.club_id', 'club.club_id')], unions: [] });
    expect(apart.disconnected).toEqual([[tid('clubs')]]);
    expect(apart.sources.map((s) => s.name)).not.toContain('clubs');
    expect(await countFusion(apart)).toBe(150);
  });
});

describe('filters', () => {
  it('a filter on an unknown column is reported as unbound', async () => {
    const plan = roster([
      { columnId: 'c:nowhere.nothing', operator: '=', literal: 'x' },
      { columnId: cid('club', 'club_name'), operator: '=', literal: 'AIB' },
    ]);
    expect(plan.filters.unbound).toEqual([
      { filter: { columnId: 'c:nowhere.nothing', operator: '=', literal: 'x' }, reason: expect.stringMatching(/unknown column/) },
    ]);
    expect(plan.filters.bound).toHaveLength(1);
    expect(await countFusion(plan)).toBe(13);
  });

  it('filters that cannot be expressed are unbound with a reason', () => {
    const col = cid('player', 'birth_year');
    const plan = roster([
      { columnId: col, operator: 'between', literal: [1990] },
      { columnId: col, operator: 'in', literal: [] },
      { columnId: col, operator: '>', literal: Number.NaN },
      { columnId: col, operator: '=', literal: [1, 2] },
      { columnId: col, operator: 'regex' as never, literal: 'x' },
    ]);
    expect(plan.filters.bound).toEqual([]);
    expect(plan.filters.unbound.map((u) => u.reason)).toEqual([
      expect.stringMatching(/between needs exactly two/),
      expect.stringMatching(/in needs at least one/),
      expect.stringMatching(/finite number/),
      expect.stringMatching(/one value/),
      expect.stringMatching(/unknown operator/),
    ]);
  });

  it('hostile literals are quoted, never executed', async () => {
    const name = cid('club', 'club_name');
    expect(roster([{ columnId: name, operator: '=', literal: "' OR 1=1 --" }]).sql).toContain(
      `lower(trim("g1"."club_name")) = lower(trim(''' OR 1=1 --'))`,
    );
    for (const filter of [
      { columnId: name, operator: '=', literal: "' OR 1=1 --" },
      { columnId: name, operator: '=', literal: "AIB' OR '1'='1" },
      { columnId: name, operator: 'like', literal: "%' OR 1=1 --" },
      { columnId: name, operator: 'in', literal: ["') OR (1=1", "AIB'; DROP TABLE x; --"] },
      { columnId: cid('club', 'club_id'), operator: '=', literal: '1 OR 1=1' },
      { columnId: cid('player', 'birth_year'), operator: '>', literal: "3000 OR 1=1" },
    ] as ValueFilter[]) {
      const plan = roster([filter]);
      expect(plan.filters.bound).toHaveLength(1);
      expect(await countFusion(plan)).toBe(0);
    }
  });

  it('each operator matches an independent DuckDB count', async () => {
    const student = src('student.parquet');
    const course = src('course.csv');
    const shards = ['2021', '2022', '2023'].map((y) => `SELECT * FROM ${src(`game_results_${y}.parquet`)}`).join(' UNION ALL ');
    const single = (table: FusionTable, filters: ValueFilter[]) => planFusion({ tables: [table], joins: [], unions: [], filters });
    const shardPlan = (filters: ValueFilter[]) =>
      planFusion({
        tables: [t.game_results_2021!, t.game_results_2022!, t.game_results_2023!],
        joins: [],
        unions: [
          unionByName(t.game_results_2021!, t.game_results_2022!),
          unionByName(t.game_results_2021!, t.game_results_2023!),
        ],
        filters,
      });
    const cases: [ReturnType<typeof planFusion>, string][] = [
      [single(t.student!, [{ columnId: cid('student', 'gpa'), operator: 'between', literal: [3, 3.5] }]), `SELECT count(*) FROM ${student} WHERE gpa BETWEEN 3 AND 3.5`],
      [single(t.student!, [{ columnId: cid('student', 'enrol_year'), operator: 'in', literal: [2021, '2022'] }]), `SELECT count(*) FROM ${student} WHERE enrol_year IN (2021, 2022)`],
      [single(t.student!, [{ columnId: cid('student', 'gpa'), operator: '>=', literal: '3.5' }]), `SELECT count(*) FROM ${student} WHERE gpa >= 3.5`],
      [single(t.student!, [{ columnId: cid('student', 'dept_code'), operator: '!=', literal: 'cs' }]), `SELECT count(*) FROM ${student} WHERE dept_code <> 'CS'`],
      [single(t.student!, [{ columnId: cid('student', 'dept_code'), operator: 'in', literal: ['cs', 'Math '] }]), `SELECT count(*) FROM ${student} WHERE dept_code IN ('CS', 'MATH')`],
      [single(t.course!, [{ columnId: cid('course', 'title'), operator: 'like', literal: 'alg' }]), `SELECT count(*) FROM ${course} WHERE title ILIKE '%alg%'`],
      [single(t.course!, [{ columnId: cid('course', 'course_code'), operator: 'like', literal: 'cs1%' }]), `SELECT count(*) FROM ${course} WHERE course_code ILIKE 'cs1%'`],
      [single(t.course!, [{ columnId: cid('course', 'credits'), operator: '<', literal: 10 }]), `SELECT count(*) FROM ${course} WHERE credits < 10`],
      [shardPlan([{ columnId: cid('game_results_2022', 'game_date'), operator: '>=', literal: '2022-03-01' }]), `SELECT count(*) FROM (${shards}) WHERE game_date >= DATE '2022-03-01'`],
      [shardPlan([{ columnId: cid('game_results_2021', 'points'), operator: '>', literal: 20 }]), `SELECT count(*) FROM (${shards}) WHERE points > 20`],
    ];
    for (const [plan, reference] of cases) {
      expect(plan.filters.unbound).toEqual([]);
      const expected = await scalar(reference);
      expect(expected, reference).toBeGreaterThan(0);
      expect(await countFusion(plan), plan.filters.bound[0]!.sql).toBe(expected);
    }
  });
});
