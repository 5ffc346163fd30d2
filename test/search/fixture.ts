import type { IntentAtom } from '../../src/intent/index.js';
import { MinHash } from '../../src/sketch/minhash.js';
import { drawInt, mulberry32 } from '../../src/util/prng.js';
import {
  LakeSnapshot,
  SupportScorer,
  SynthesisModel,
  labelTokens,
  type AtomContext,
  type SnapshotColumn,
  type SnapshotJoin,
  type SnapshotTable,
  type SnapshotUnion,
} from '../../src/search/index.js';

/**
 * Hand-made lakes for the search stages, held in memory: tables with the columns named below,
 * join edges with the given scores, no union edges, no embeddings. Every column gets its own
 * MinHash values (no two tables share content, so no table is a copy or a shard of another): the
 * answers then depend only on the names, the edges and the intent, and can be worked out by hand.
 */

/** 32 MinHash slots that no other column shares (a per-column offset keeps them apart). */
function minhashOf(seed: number): number[] {
  return Array.from({ length: 32 }, (_, s) => 1_000_000 * (seed + 1) + s);
}

let columnSeed = 0;

export function table(name: string, columns: string[], rowCount = 10): SnapshotTable {
  return {
    id: name,
    name,
    uri: `/lake/${name}.csv`,
    format: 'csv',
    sourceRoot: 'lake',
    rowCount,
    columns: columns.map(
      (c, ordinal): SnapshotColumn => ({
        id: `${name}.${c}`,
        tableId: name,
        name: c,
        ordinal,
        logicalType: c.endsWith('_id') ? 'integer' : 'text',
        uniqueness: ordinal === 0 ? 1 : 0.5,
        distinctEstimate: rowCount,
        sampleValues: [],
        topValues: [],
        minhash: minhashOf(columnSeed++),
        numericMin: null,
        numericMax: null,
        embedding: null,
      }),
    ),
  };
}

/** A join edge between the key columns `a.col` and `b.col` with the given score. */
export function join(a: SnapshotTable, b: SnapshotTable, column: string, score: number): SnapshotJoin {
  const col = (t: SnapshotTable) => {
    const c = t.columns.find((x) => x.name === column);
    if (!c) throw new Error(`${t.name} has no column ${column}`);
    return c.id;
  };
  return { fromTableId: a.id, toTableId: b.id, fromColumnId: col(a), toColumnId: col(b), score, containmentFromTo: 1, containmentToFrom: 1 };
}

export function snapshotOf(tables: SnapshotTable[], joins: SnapshotJoin[]): LakeSnapshot {
  return new LakeSnapshot(tables, joins, [], null);
}

export function entity(id: string, label: string, grounding: { tableId: string; score: number }[] = []): IntentAtom {
  return { id, kind: 'entity', label, parentIds: [], grounding: grounding.map((g) => ({ kind: 'table-name' as const, tableId: g.tableId, score: g.score })) };
}

export function attribute(id: string, label: string, entityId: string): IntentAtom {
  return { id, kind: 'attribute', label, parentIds: [entityId], grounding: [] };
}

export function relation(id: string, from: string, to: string): IntentAtom {
  return { id, kind: 'relation', label: `${from} - ${to}`, parentIds: [from, to], grounding: [] };
}

/** The atom contexts the engine builds (labels tokenised, groundings per table), without embeddings. */
export function contextsOf(snapshot: LakeSnapshot, atoms: IntentAtom[]): AtomContext[] {
  const index = new Map(atoms.map((a, i) => [a.id, i]));
  return atoms.map((atom) => {
    const groundedTables = new Map<string, number>();
    for (const g of atom.grounding) {
      if (snapshot.tableById.has(g.tableId)) groundedTables.set(g.tableId, Math.max(groundedTables.get(g.tableId) ?? 0, g.score));
    }
    return {
      atom,
      tokens: labelTokens(atom.label),
      embedding: null,
      groundedTables,
      parent: atom.kind === 'attribute' || atom.kind === 'value' ? (index.get(atom.parentIds[0]) ?? -1) : -1,
    };
  });
}

export function modelOf(snapshot: LakeSnapshot, atoms: IntentAtom[]): SynthesisModel {
  return new SynthesisModel(snapshot, atoms, new SupportScorer(snapshot, contextsOf(snapshot, atoms)));
}

/**
 * The football lake: players and clubs linked only through the bridge player_club_map; matches
 * and coaches hang off club; stadium stands alone.
 *
 *   player --0.9-- player_club_map --0.9-- club --0.8-- match
 *                                           \--0.7-- coach          stadium
 */
export function footballLake() {
  const player = table('player', ['player_id', 'player_name', 'age']);
  const map = table('player_club_map', ['player_id', 'club_id']);
  const club = table('club', ['club_id', 'club_name', 'city']);
  const match = table('match', ['match_id', 'club_id', 'goals']);
  const coach = table('coach', ['coach_id', 'club_id']);
  const stadium = table('stadium', ['stadium_id', 'stadium_name']);
  const snapshot = snapshotOf(
    [player, map, club, match, coach, stadium],
    [join(player, map, 'player_id', 0.9), join(map, club, 'club_id', 0.9), join(club, match, 'club_id', 0.8), join(club, coach, 'club_id', 0.7)],
  );
  return { snapshot, player, map, club, match, coach, stadium };
}

/** Connected in the lake graph induced on `tables`? */
export function isConnected(snapshot: LakeSnapshot, tables: readonly string[]): boolean {
  if (tables.length === 0) return true;
  const inSet = new Set(tables);
  const seen = new Set([tables[0]]);
  const stack = [tables[0]];
  while (stack.length > 0) {
    const t = stack.pop()!;
    for (const n of snapshot.neighbours(t)) {
      if (inSet.has(n.tableId) && !seen.has(n.tableId)) {
        seen.add(n.tableId);
        stack.push(n.tableId);
      }
    }
  }
  return seen.size === inSet.size;
}

/** Every subset of `pool` (as arrays in pool order). */
export function subsets<T>(pool: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let mask = 0; mask < 1 << pool.length; mask++) out.push(pool.filter((_, i) => mask & (1 << i)));
  return out;
}

/**
 * A random small lake for checks against brute force: `n` tables over a random tree plus a few
 * extra edges (random scores), and an intent of two entities grounded in random tables with
 * random scores, an attribute and a relation between the entities.
 */
export function randomLake(seed: number, n: number) {
  const rand = mulberry32(seed);
  const words = ['singer', 'concert', 'stadium', 'song', 'album', 'band', 'city', 'ticket', 'venue', 'fan'];
  const tables = Array.from({ length: n }, (_, i) => table(`${words[i % words.length]}_${i}`, [`${words[i % words.length]}_id`, 'title', `ref${i}_id`]));
  const joins: SnapshotJoin[] = [];
  const edge = (a: SnapshotTable, b: SnapshotTable) => {
    const score = 0.5 + 0.5 * rand();
    joins.push({ fromTableId: a.id, toTableId: b.id, fromColumnId: a.columns[2].id, toColumnId: b.columns[0].id, score, containmentFromTo: 1, containmentToFrom: 1 });
  };
  for (let i = 1; i < n; i++) edge(tables[i], tables[drawInt(rand, 0, i - 1)]);
  for (let k = 0; k < 2; k++) {
    const a = drawInt(rand, 0, n - 1);
    const b = drawInt(rand, 0, n - 1);
    if (a !== b) edge(tables[a], tables[b]);
  }
  const grounded = (k: number) => Array.from({ length: k }, () => ({ tableId: tables[drawInt(rand, 0, n - 1)].id, score: 0.35 + 0.65 * rand() }));
  const atoms = [entity('e0', 'x', grounded(2)), entity('e1', 'y', grounded(2)), attribute('a0', 'title', 'e0'), relation('r0', 'e0', 'e1')];
  return { snapshot: snapshotOf(tables, joins), atoms };
}

/**
 * A key table cut into row shards beside a whole table of another source: `race.track_id` refers
 * to track ids 1-40, held half by each piece of one `track` table (ids 1-20 and 21-40, a union
 * edge aligning their columns), so the join rules score its edge to each piece low (contained in
 * neither: 0.65); the other source's `track` holds ids 1-45 and so the whole column, by chance
 * (0.7). Column sketches are real MinHash signatures of those value sets.
 */
export function shardedKeyLake(opts: { thirdPiece?: boolean } = {}) {
  const signature = (values: number[]) => {
    const m = new MinHash();
    for (const v of values) m.add(String(v));
    return m.toArray();
  };
  const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
  const piece = (id: string, uri: string, keys: number[], nameSeed: number): SnapshotTable => {
    const t = table('track', ['track_id', 'track_name'], keys.length);
    return {
      ...t,
      id,
      uri,
      columns: t.columns.map((c) => ({
        ...c,
        id: `${id}.${c.name}`,
        tableId: id,
        uniqueness: 1,
        distinctEstimate: keys.length,
        logicalType: c.name === 'track_id' ? 'integer' : 'text',
        minhash: c.name === 'track_id' ? signature(keys) : signature(keys.map((k) => k * 1000 + nameSeed)),
        numericMin: c.name === 'track_id' ? Math.min(...keys) : null,
        numericMax: c.name === 'track_id' ? Math.max(...keys) : null,
      })),
    };
  };
  const partA = piece('track@a1', '/lake/a/track_1.csv', ids(1, 20), 1);
  const partB = piece('track@a2', '/lake/a/track_2.csv', ids(21, 40), 1);
  const other = piece('track@b', '/lake/b/track.csv', ids(1, 45), 2);
  // With `thirdPiece`: ids 41-60 in a piece with a union edge to the second piece only.
  const partC = opts.thirdPiece ? piece('track@a3', '/lake/a/track_3.csv', ids(41, 60), 1) : undefined;
  const referenced = partC ? 60 : 40;
  const raceTable = table('race', ['race_id', 'track_id', 'race_name'], referenced);
  const race: SnapshotTable = {
    ...raceTable,
    columns: raceTable.columns.map((c) => (c.name === 'track_id' ? { ...c, distinctEstimate: referenced, minhash: signature(ids(1, referenced)) } : c)),
  };
  const ref = (to: SnapshotTable, score: number, containmentFromTo: number, containmentToFrom: number): SnapshotJoin => ({
    fromTableId: 'race',
    toTableId: to.id,
    fromColumnId: 'race.track_id',
    toColumnId: `${to.id}.track_id`,
    score,
    containmentFromTo,
    containmentToFrom,
  });
  const union = (a: SnapshotTable, b: SnapshotTable, score: number): SnapshotUnion => ({
    tableAId: a.id,
    tableBId: b.id,
    score,
    alignment: ['track_id', 'track_name'].map((c) => ({ columnAId: `${a.id}.${c}`, columnBId: `${b.id}.${c}`, score: 1 })),
  });
  // The other source's table has the pieces' schema too (a union edge to each), but holds their
  // keys: it is a copy's, not another piece's.
  const unions = [union(partA, partB, 0.9), union(other, partA, 0.85), union(other, partB, 0.85)];
  const pieceShare = 20 / referenced;
  const joins = [ref(partA, 0.65, pieceShare, 1), ref(partB, 0.65, pieceShare, 1), ref(other, 0.7, Math.min(1, 45 / referenced), Math.min(1, referenced / 45))];
  const tables = [race, partA, partB, other];
  if (partC) {
    tables.push(partC);
    unions.push(union(partB, partC, 0.9));
    joins.push(ref(partC, 0.65, pieceShare, 1));
  }
  const snapshot = new LakeSnapshot(tables, joins, unions, null);
  return { snapshot, race, partA, partB, partC, other };
}
