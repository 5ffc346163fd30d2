import { describe, expect, it } from 'vitest';
import {
  bestJoin,
  columnUnionSimilarity,
  DEFAULT_GRAPH_OPTIONS as OPTS,
  evaluateJoin,
  isKeyLike,
  joinTokenEvidence,
  prepareTable,
  scoreUnion,
  valueSpecificity,
  type GraphTable,
} from '../../src/graph/index.js';
import { makeColumn, makeTable, range, rng } from './fixture.js';

function prep(t: GraphTable) {
  return prepareTable(t, OPTS);
}

function col(t: GraphTable, name: string) {
  const c = prep(t).columns.find((x) => x.col.name === name);
  if (!c) throw new Error(`no column ${name}`);
  return c;
}

describe('valueSpecificity', () => {
  it('small dense integer ranges are not specific', () => {
    expect(valueSpecificity(makeColumn('t', 'id', 0, range(1, 50)))).toBe(0);
    expect(valueSpecificity(makeColumn('t', 'year', 0, range(1990, 2020)))).toBe(0);
    // Sparse but short numbers coincide by chance too.
    expect(valueSpecificity(makeColumn('t', 'x', 0, [3, 17, 99, 250, 640]))).toBe(0);
  });

  it('sparse long numbers and varied text are specific', () => {
    const r = rng(1);
    const accounts = range(1, 30).map(() => 10_000_000 + Math.floor(r() * 80_000_000));
    expect(valueSpecificity(makeColumn('t', 'acct', 0, accounts))).toBe(1);
    expect(valueSpecificity(makeColumn('t', 'zip', 0, [2134, 10001, 94105, 60601, 73301, 30301]))).toBeCloseTo(0.75);
    const names = range(1, 20).map((i) => `customer ${i}`);
    expect(valueSpecificity(makeColumn('t', 'n', 0, names))).toBe(1);
  });

  it('short codes and small category sets are weak; dates and fractions never count', () => {
    expect(valueSpecificity(makeColumn('t', 'g', 0, ['M', 'F', 'M']))).toBeLessThan(0.1);
    expect(valueSpecificity(makeColumn('t', 'p', 0, [12.5, 1999.99, 45000.25]))).toBe(0);
    const d = makeColumn('t', 'd', 0, ['2020-01-01', '2020-02-01'], { logicalType: 'date' });
    expect(valueSpecificity(d)).toBe(0);
  });
});

describe('join name evidence', () => {
  const player = makeTable('player', { id: range(1, 30) });
  const country = makeTable('country', { Code: ['usa', 'fra', 'deu'] });
  const team = makeTable('team', { id: range(1, 10), team_id: range(1, 10) });
  const game = makeTable('game', {
    player_id: [1, 2, 3],
    CountryCode: ['usa', 'fra', 'fra'],
    home_team_id: [1, 2, 3],
    winner_id: [1, 2, 3],
    id: [1, 2, 3],
    team_id: [1, 2, 2],
    stuid: [1, 2, 3],
    reported_by_staff_id: [1, 2, 3],
    dst_apid: [1, 2, 3],
    Club_ID_2: [1, 2, 3],
    team_manager: [1, 2, 3],
  });

  const student = makeTable('student', { StuID: range(1, 30) });
  const staff = makeTable('staff', { staff_id: range(1, 30) });
  const airports = makeTable('airports', { apid: range(1, 30) });
  const club = makeTable('club', { Club_ID: range(1, 30) });
  const keyTables: Record<string, GraphTable> = { player, country, team, student, staff, airports, club };
  it.each([
    ['player_id', 'player', 'id', 1],
    ['CountryCode', 'country', 'Code', 1],
    ['team_id', 'team', 'team_id', 1],
    // Role words (before the words naming the key, and numbers) weigh like generic tokens.
    ['home_team_id', 'team', 'id', 0.75],
    ['reported_by_staff_id', 'staff', 'staff_id', 0.6],
    ['dst_apid', 'airports', 'apid', 2 / 3],
    ['Club_ID_2', 'club', 'Club_ID', 0.75],
    // A word after the ones naming the key is not a role: it says what else the column is.
    ['team_manager', 'team', 'id', 0.4],
    ['winner_id', 'player', 'id', 0],
    ['id', 'player', 'id', 0],
    ['stuid', 'student', 'StuID', 1],
  ] as const)('game.%s -> %s.%s = %d', (from, keyTable, key, expected) => {
    expect(joinTokenEvidence(col(game, from), col(keyTables[keyTable], key))).toBeCloseTo(expected);
  });

  it('a word closing a compound table name is that table (hero_id -> superhero.id), a short tail is not', () => {
    const superhero = makeTable('superhero', { id: range(1, 40) });
    const border = makeTable('border', { id: range(1, 40) });
    const heroPower = makeTable('hero_power', { hero_id: [1, 2, 3], power_id: [4, 5, 6] });
    const orders = makeTable('orders', { order_id: [1, 2, 3] });
    expect(joinTokenEvidence(col(heroPower, 'hero_id'), col(superhero, 'id'))).toBeCloseTo(1);
    expect(joinTokenEvidence(col(orders, 'order_id'), col(border, 'id'))).toBe(0);
    expect(joinTokenEvidence(col(heroPower, 'power_id'), col(superhero, 'id'))).toBe(0);
  });

  it("a file's content hash is no word of its table's name (f_id is not named by Forms_297f151b)", () => {
    const forms = makeTable('Forms_297f151b', { form_id: range(1, 40) });
    const files = makeTable('files_3abeac06', { f_id: range(1, 20) });
    const reviews = makeTable('review_213f1c81', { a_id: range(1, 20), form_id: range(1, 20) });
    expect(prep(forms).nameTokens).toEqual(new Set(['form']));
    expect(joinTokenEvidence(col(files, 'f_id'), col(forms, 'form_id'))).toBe(0);
    expect(joinTokenEvidence(col(reviews, 'a_id'), col(forms, 'form_id'))).toBe(0);
    // The name's own words still name the table.
    expect(joinTokenEvidence(col(reviews, 'form_id'), col(forms, 'form_id'))).toBe(1);
    expect(evaluateJoin(col(files, 'f_id'), col(forms, 'form_id'), OPTS)).toBeNull();
  });
});

describe('a lookup table of two rows', () => {
  const roles = makeTable('roles', { role_code: ['ED', 'PT'], role_description: ['Editor', 'Proof reader'] });
  const users = makeTable('users', { user_id: range(1, 12), role_code: range(1, 12).map((i) => (i % 3 === 0 ? 'PT' : 'ED')), role: range(1, 12).map((i) => (i % 2 === 0 ? 'PT' : 'ED')) });

  it('has keys, which join a column of the same name only', () => {
    expect(isKeyLike(col(roles, 'role_code').col, OPTS)).toBe(true);
    expect(isKeyLike(col(users, 'role_code').col, OPTS)).toBe(false);
    const e = bestJoin(col(users, 'role_code'), col(roles, 'role_code'), OPTS);
    expect(e?.toColumnId).toBe('roles.role_code');
    // The same two values under a name that only shares a word (evidence 0.67, enough for a larger key).
    expect(bestJoin(col(users, 'role'), col(roles, 'role_code'), OPTS)).toBeNull();
  });
});

describe('evaluateJoin / bestJoin', () => {
  const club = makeTable('club', { id: range(1, 20), name: range(1, 20).map((i) => `club ${i}`) });
  const player = makeTable('player', { player_id: range(1, 60), club_id: range(1, 60).map((i) => (i % 20) + 1) });
  const sensor = makeTable('sensor', { id: range(1, 50) });

  it('joins foreign -> key with name evidence, whichever argument comes first', () => {
    const e1 = bestJoin(col(player, 'club_id'), col(club, 'id'), OPTS);
    const e2 = bestJoin(col(club, 'id'), col(player, 'club_id'), OPTS);
    expect(e1).not.toBeNull();
    expect(e2).toEqual(e1);
    expect(e1!.fromColumnId).toBe('player.club_id');
    expect(e1!.toColumnId).toBe('club.id');
    expect(e1!.containmentFromInTo).toBeGreaterThan(0.9);
    // 0.4 * c + 0.1 * uniqueness + 0.3 * name + 0.2 * specificity with c ~ 1, name 1, spec 0
    expect(e1!.score).toBeCloseTo(0.8, 1);
  });

  it('rejects a small-integer containment without name evidence', () => {
    // club.id (1..20) is fully contained in sensor.id (1..50), both key-like.
    expect(bestJoin(col(club, 'id'), col(sensor, 'id'), OPTS)).toBeNull();
    expect(bestJoin(col(player, 'club_id'), col(sensor, 'id'), OPTS)).toBeNull();
  });

  it('needs a key-like target, same type family, different tables', () => {
    expect(evaluateJoin(col(club, 'id'), col(player, 'club_id'), OPTS)).toBeNull(); // club_id is not unique
    const text = makeTable('t', { club_id: range(1, 20).map((i) => `c${i}`) });
    expect(bestJoin(col(text, 'club_id'), col(club, 'id'), OPTS)).toBeNull();
    const p = prep(player);
    expect(bestJoin(p.columns[0], p.columns[1], OPTS)).toBeNull();
  });

  it('skips booleans and near-constant columns', () => {
    const flags = makeTable('flags', { club_id: [1, 1, 1, 1] });
    expect(bestJoin(col(flags, 'club_id'), col(club, 'id'), OPTS)).toBeNull();
    const b = makeTable('b', { club_id: [1, 2] });
    b.columns[0].logicalType = 'boolean';
    expect(bestJoin(col(b, 'club_id'), col(club, 'id'), OPTS)).toBeNull();
  });

  it('accepts specific values without name evidence', () => {
    const r = rng(3);
    const accts = range(1, 40).map(() => 10_000_000 + Math.floor(r() * 89_999_999));
    const account = makeTable('account', { account_number: accts });
    const transfer = makeTable('transfer', { acct: accts.slice(0, 30).concat(accts.slice(0, 10)) });
    const e = bestJoin(col(transfer, 'acct'), col(account, 'account_number'), OPTS);
    expect(e?.fromColumnId).toBe('transfer.acct');
    expect(e?.nameSimilarity).toBe(0);
  });
});

describe('joins a user found missing', () => {
  it('integer ids kept as text join an integer key when the names say so, never on values alone', () => {
    const visitor = makeTable('visitor', { ID: range(1, 40), Name: range(1, 40).map((i) => `visitor ${i}`) });
    const visit = makeTable('visit', { visitor_ID: range(1, 40).map((i) => String((i % 25) + 1)) });
    visit.columns[0].logicalType = 'text';
    const e = bestJoin(col(visit, 'visitor_ID'), col(visitor, 'ID'), OPTS);
    expect(e?.fromColumnId).toBe('visit.visitor_ID');
    expect(e?.toColumnId).toBe('visitor.ID');
    // Same values, no name evidence: small integers coincide by chance, text or not.
    const sensor = makeTable('sensor', { sensor_id: range(1, 50) });
    expect(bestJoin(col(visit, 'visitor_ID'), col(sensor, 'sensor_id'), OPTS)).toBeNull();
    // A zero-padded code is a code, not a number.
    const coded = makeTable('coded', { visitor_ID: range(1, 40).map((i) => String(i).padStart(3, '0')) });
    expect(bestJoin(col(coded, 'visitor_ID'), col(visitor, 'ID'), OPTS)).toBeNull();
  });

  it('a row shard of the key table joins the column that references the whole table (hero_power.power_id -> superpower piece)', () => {
    // superpower cut into three shards; hero_power references every power.
    const pieces = [range(1, 33), range(34, 87), range(88, 167)].map((ids, i) => makeTable(`superpower_${i}`, { id: ids, power_name: ids.map((x) => `power ${x}`) }));
    const heroPower = makeTable('hero_power', { hero_id: range(1, 600).map((i) => (i % 300) + 1), power_id: range(1, 600).map((i) => (i % 167) + 1) });
    for (const piece of pieces) {
      const e = bestJoin(col(heroPower, 'power_id'), col(piece, 'id'), OPTS);
      expect(e?.fromColumnId).toBe('hero_power.power_id');
      expect(e?.toColumnId).toBe(`${piece.name}.id`);
      // Part of the referenced table: a join, weaker than the whole table's (f contained) would be.
      expect(e!.score).toBeLessThan(0.8);
    }
    // Without name evidence a piece of small integer ids is a chance match, not a join.
    const sensor = makeTable('sensor', { reading_id: range(1, 600).map((i) => (i % 167) + 1) });
    for (const piece of pieces) expect(bestJoin(col(sensor, 'reading_id'), col(piece, 'id'), OPTS)).toBeNull();
    // A piece whose keys the column mostly lacks is not the referenced table.
    const fewPowers = makeTable('hero_power_few', { power_id: range(1, 200).map((i) => (i % 40) + 1) });
    expect(bestJoin(col(fewPowers, 'power_id'), col(pieces[2], 'id'), OPTS)).toBeNull();
  });

  it('a key named by an abbreviation of the referring word joins (countries.Continent -> continents.ContId)', () => {
    const continents = makeTable('continents', { ContId: range(1, 5), Continent: ['america', 'europe', 'asia', 'africa', 'australia'] });
    const countries = makeTable('countries', { CountryId: range(1, 30), Continent: range(1, 30).map((i) => (i % 5) + 1) });
    expect(joinTokenEvidence(col(countries, 'Continent'), col(continents, 'ContId'))).toBeGreaterThanOrEqual(OPTS.nameEvidenceMin);
    const e = bestJoin(col(countries, 'Continent'), col(continents, 'ContId'), OPTS);
    expect(e?.fromColumnId).toBe('countries.Continent');
  });

  it('hundreds of short codes contained in a unique key join with no name in common', () => {
    const r = rng(5);
    const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    const codes = new Set<string>([...letters]);
    while (codes.size < 600) codes.add(letters[Math.floor(r() * 26)] + letters[Math.floor(r() * 26)]);
    const all = [...codes];
    const economies = makeTable('economies', { code_alpha: all, label: all.map((c) => `economy ${c}`) });
    const flows = makeTable('flows', { reporter: range(1, 900).map((i) => all[i % 231]) });
    expect(valueSpecificity(flows.columns[0])).toBeGreaterThanOrEqual(OPTS.specificityMin);
    const e = bestJoin(col(flows, 'reporter'), col(economies, 'code_alpha'), OPTS);
    expect(e?.fromColumnId).toBe('flows.reporter');
    expect(e?.nameSimilarity).toBe(0);
    // A handful of short codes stays weak evidence.
    expect(valueSpecificity(makeColumn('t', 'c', 0, ['A', 'B', 'CD', 'E']))).toBeLessThan(OPTS.specificityMin);
  });

  it('between two same-named tables of different sources the direction depends on content, not on generated ids', () => {
    const direction = (idA: string, idB: string) => {
      // Equal scores both ways (same ids, both unique); one table has rows without an id.
      const a = makeTable(idA, { singer_id: range(1, 30) }, 'singer');
      const b = makeTable(idB, { singer_id: [...range(1, 30), null, null] }, 'singer');
      expect(evaluateJoin(col(a, 'singer_id'), col(b, 'singer_id'), OPTS)!.score).toBe(evaluateJoin(col(b, 'singer_id'), col(a, 'singer_id'), OPTS)!.score);
      const e = bestJoin(col(a, 'singer_id'), col(b, 'singer_id'), OPTS)!;
      return e.fromColumnId.startsWith(idA) ? 'a->b' : 'b->a';
    };
    expect(direction('x1', 'x2')).toBe(direction('x2', 'x1'));
  });
});

describe('union rules', () => {
  const r = rng(11);
  const teams = ['red', 'blue', 'green', 'gold', 'black'];
  const rows = range(1, 200).map((i) => ({ id: i, team: teams[Math.floor(r() * 5)], pts: Math.floor(r() * 50) }));
  const shard = (id: string, from: number, to: number) =>
    makeTable(id, {
      match_id: rows.slice(from, to).map((x) => x.id),
      team: rows.slice(from, to).map((x) => x.team),
      pts: rows.slice(from, to).map((x) => x.pts),
    });
  const a = shard('m_part1', 0, 70);
  const b = shard('m_part2', 70, 200);

  it('disjoint shards score high although their key values do not overlap', () => {
    const keySim = columnUnionSimilarity(col(a, 'match_id'), col(b, 'match_id'), OPTS);
    expect(keySim.score).toBeGreaterThan(0.8);
    const u = scoreUnion(prep(a), prep(b), OPTS);
    expect(u).not.toBeNull();
    expect(u!.score).toBeGreaterThanOrEqual(0.8);
    expect(u!.alignment.map((p) => [p.columnAId, p.columnBId])).toEqual([
      ['m_part1.match_id', 'm_part2.match_id'],
      ['m_part1.team', 'm_part2.team'],
      ['m_part1.pts', 'm_part2.pts'],
    ]);
  });

  it('coverage matters: 3 of 10 columns aligned scores low', () => {
    const wide = makeTable('wide', {
      match_id: range(1, 10),
      team: teams.concat(teams),
      pts: range(1, 10),
      ...Object.fromEntries(range(1, 7).map((i) => [`extra_${'abcdefg'[i - 1]}`, range(1, 10).map((x) => `${x}`)])),
    });
    expect(scoreUnion(prep(a), prep(wide), OPTS)).toBeNull();
    expect(scoreUnion(prep(a), prep(wide), { ...OPTS, unionMinScore: 0 })!.score).toBeLessThan(0.5);
  });

  it('generic-only overlap is not a union', () => {
    const product = makeTable('product', { id: range(1, 30), name: range(1, 30).map((i) => `item ${i}`), price: range(1, 30).map((i) => i * 1.5) });
    const category = makeTable('category', { id: range(1, 10), name: range(1, 10).map((i) => `cat ${i}`) });
    expect(scoreUnion(prep(category), prep(product), OPTS)).toBeNull();
    // Identical all-generic headers need similar table names as well.
    const genre = makeTable('genre', { id: range(1, 10), name: range(1, 10).map((i) => `genre ${i}`) });
    expect(scoreUnion(prep(category), prep(genre), OPTS)).toBeNull();
    const c2 = makeTable('category_part2', { id: range(11, 20), name: range(11, 20).map((i) => `cat ${i}`) });
    expect(scoreUnion(prep(category), prep(c2), OPTS)!.score).toBeGreaterThanOrEqual(0.8);
    // Shards named by one table and a content hash each: the hashes are no words of the names.
    const h1 = makeTable('category_3fa9c2d1', { id: range(1, 10), name: range(1, 10).map((i) => `cat ${i}`) });
    const h2 = makeTable('category_b81e0a47', { id: range(11, 20), name: range(11, 20).map((i) => `cat ${i}`) });
    expect(scoreUnion(prep(h1), prep(h2), OPTS)!.score).toBeGreaterThanOrEqual(0.8);
  });

  it('type families never align', () => {
    const t1 = makeTable('t1', { code: range(1, 10) });
    const t2 = makeTable('t2', { code: range(1, 10).map((i) => `c${i}`) });
    expect(columnUnionSimilarity(col(t1, 'code'), col(t2, 'code'), OPTS).score).toBe(0);
  });
});
