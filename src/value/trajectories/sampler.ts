/**
 * Stage 2 of the self-generated trajectory data (GRAFT Algorithm 1): grow a connected set of
 * tables from a seed, then decide which columns the pseudo question "talks about". The sampled
 * set is the answer a good search should find for the pseudo intent that stage 3 compresses it
 * into; the order tables were added in is the trajectory.
 */
import type { LakeSnapshot, Neighbour } from '../../search/snapshot.js';
import { BadInputError } from '../../util/errors.js';

export type SamplerKind = 'centrality' | 'anchor' | 'uniform';
export const SAMPLER_KINDS: readonly SamplerKind[] = ['centrality', 'anchor', 'uniform'];

/** Probability of keeping a non-key column. */
export const DEFAULT_BETA = 0.5;
/** Probability that the centrality sampler ignores the scores and draws uniformly from the frontier. */
export const DEFAULT_EPSILON = 0.1;
/** Probability that a kept non-key text column gets a value leaf. */
export const DEFAULT_VALUE_PROBABILITY = 0.3;

export interface ExpandOptions {
  /** Largest number of tables (the seed included); expansion stops earlier when nothing is left to add. */
  size: number;
  sampler?: SamplerKind;
  beta?: number;
  epsilon?: number;
  valueProbability?: number;
}

/** One table added to the set, attached to `via` (already in the set) through a real lake edge. */
export interface ExpansionStep {
  tableId: string;
  via: string;
  kind: 'join' | 'union';
  /** Score of the strongest edge between `via` and `tableId` (the one `snapshot.neighbours` lists). */
  edgeScore: number;
}

/**
 * A kept column. `key` columns are always kept: `role: 'join'` for an end of a join edge between
 * two sampled tables (or a column union-aligned, between sampled tables, with such an end),
 * `'union'` for another column aligned by a union edge between two sampled tables;
 * `'sampled'` columns were kept with probability beta.
 * The role matters in stage 3: union-aligned columns are keys while the tables are apart, but
 * once the union merges them into one entity they are that entity's shared attributes.
 */
export interface KeptColumn {
  columnId: string;
  key: boolean;
  role: 'join' | 'union' | 'sampled';
}

export interface SampledSubgraph {
  seed: string;
  /** Sampled tables in the order they were added (the seed first). */
  tables: string[];
  /** One step per table after the seed, in order. */
  steps: ExpansionStep[];
  /** Kept columns per sampled table, in column ordinal order. */
  keptColumns: Map<string, KeptColumn[]>;
  /** Value summary (a literal for a value leaf) per kept non-key text column that got one. */
  values: Map<string, string>;
}

/** Join and union score mass between two tables (every stored edge counted, not just the strongest). */
interface PairScores {
  join: number;
  union: number;
}

const pairCache = new WeakMap<LakeSnapshot, Map<string, Map<string, PairScores>>>();

/** For each table, the other tables it shares edges with and the summed join / union scores. */
function pairScores(snapshot: LakeSnapshot): Map<string, Map<string, PairScores>> {
  let index = pairCache.get(snapshot);
  if (index) return index;
  const built = new Map<string, Map<string, PairScores>>();
  for (const t of snapshot.tables) built.set(t.id, new Map());
  const add = (a: string, b: string, kind: keyof PairScores, score: number): void => {
    if (a === b || !built.has(a) || !built.has(b)) return;
    for (const [x, y] of [
      [a, b],
      [b, a],
    ]) {
      const row = built.get(x)!;
      const cur = row.get(y) ?? { join: 0, union: 0 };
      cur[kind] += score;
      row.set(y, cur);
    }
  };
  for (const j of snapshot.joins) add(j.fromTableId, j.toTableId, 'join', j.score);
  for (const u of snapshot.unions) add(u.tableAId, u.tableBId, 'union', u.score);
  index = built;
  pairCache.set(snapshot, index);
  return index;
}

/** The strongest edge between two tables, as the snapshot's adjacency lists it. */
function edgeBetween(snapshot: LakeSnapshot, from: string, to: string): Neighbour | undefined {
  return snapshot.neighbours(from).find((n) => n.tableId === to);
}

function pick<T>(items: readonly T[], rand: () => number): T {
  return items[Math.min(items.length - 1, Math.floor(rand() * items.length))];
}

/** Index drawn with probability ∝ weight; uniform when every weight is 0. */
function pickWeighted(weights: readonly number[], rand: () => number): number {
  const total = weights.reduce((s, w) => s + w, 0);
  if (!(total > 0)) return Math.min(weights.length - 1, Math.floor(rand() * weights.length));
  let r = rand() * total;
  for (let i = 0; i < weights.length; i++) {
    r -= weights[i];
    if (r < 0) return i;
  }
  // Rounding can leave r at ~0 past the end: the last positive weight takes it.
  for (let i = weights.length - 1; i >= 0; i--) if (weights[i] > 0) return i;
  return weights.length - 1;
}

/**
 * Grow a connected table set from `seed`, one table at a time, up to `options.size` tables.
 *
 * - `centrality` (default): the frontier is every table with an edge to the set; a candidate's
 *   centrality is its score mass towards the current set, Σ_{m in set} (Σ join scores between
 *   c and m + Σ union scores between c and m), every stored edge counted. The next table is drawn
 *   ∝ centrality; with probability `epsilon` uniformly from the frontier instead, so the data also
 *   shows weak-but-valid attachments. `via` is the set member with the strongest edge to it.
 * - `anchor`: only the seed's neighbours are candidates (uniform); stops when they run out.
 * - `uniform`: a random walk: a uniform not-yet-sampled neighbour of the last added table; if
 *   it has none, a uniform neighbour of a uniformly chosen set member that still has one.
 *
 * Then columns are kept (see `KeptColumn`): keys always, other columns with probability `beta`,
 * at least one non-key column per table that has any; a kept non-key text column gets a value
 * (from its top values, else its sample values) with probability `valueProbability`.
 */
export function expandFromSeed(
  snapshot: LakeSnapshot,
  seed: string,
  options: ExpandOptions,
  rand: () => number,
): SampledSubgraph {
  if (!snapshot.tableById.has(seed)) throw new BadInputError(`unknown seed table '${seed}'`);
  const size = Math.max(1, Math.floor(options.size));
  const sampler = options.sampler ?? 'centrality';
  const epsilon = options.epsilon ?? DEFAULT_EPSILON;
  const tables = [seed];
  const inSet = new Set(tables);
  const steps: ExpansionStep[] = [];
  const attach = (tableId: string, via: string): void => {
    const edge = edgeBetween(snapshot, via, tableId)!;
    steps.push({ tableId, via, kind: edge.kind, edgeScore: edge.score });
    tables.push(tableId);
    inSet.add(tableId);
  };
  const outside = (t: string): Neighbour[] => snapshot.neighbours(t).filter((n) => !inSet.has(n.tableId));

  if (sampler === 'centrality') {
    const pairs = pairScores(snapshot);
    const centrality = new Map<string, number>();
    const absorb = (t: string): void => {
      centrality.delete(t);
      for (const [other, s] of pairs.get(t)!) {
        if (!inSet.has(other)) centrality.set(other, (centrality.get(other) ?? 0) + s.join + s.union);
      }
    };
    absorb(seed);
    while (tables.length < size && centrality.size > 0) {
      const frontier = [...centrality.keys()].sort((a, b) => snapshot.compare(a, b));
      const next =
        rand() < epsilon ? pick(frontier, rand) : frontier[pickWeighted(frontier.map((c) => centrality.get(c)!), rand)];
      let via = '';
      let best = -Infinity;
      for (const m of tables) {
        const e = edgeBetween(snapshot, m, next);
        if (e && e.score > best) {
          best = e.score;
          via = m;
        }
      }
      attach(next, via);
      absorb(next);
    }
  } else if (sampler === 'anchor') {
    while (tables.length < size) {
      const candidates = outside(seed);
      if (candidates.length === 0) break;
      attach(pick(candidates, rand).tableId, seed);
    }
  } else if (sampler === 'uniform') {
    while (tables.length < size) {
      const last = tables[tables.length - 1];
      let from = last;
      let candidates = outside(last);
      if (candidates.length === 0) {
        const open = tables.filter((t) => outside(t).length > 0);
        if (open.length === 0) break;
        from = pick(open, rand);
        candidates = outside(from);
      }
      attach(pick(candidates, rand).tableId, from);
    }
  } else {
    throw new BadInputError(`unknown sampler '${String(sampler)}'`);
  }

  const { keptColumns, values } = keepColumns(snapshot, tables, options, rand);
  return { seed, tables, steps, keptColumns, values };
}

/** Column keeping and value summaries for a sampled table set (see `expandFromSeed`). */
export function keepColumns(
  snapshot: LakeSnapshot,
  tables: readonly string[],
  options: Pick<ExpandOptions, 'beta' | 'valueProbability'>,
  rand: () => number,
): Pick<SampledSubgraph, 'keptColumns' | 'values'> {
  const beta = options.beta ?? DEFAULT_BETA;
  const valueProbability = options.valueProbability ?? DEFAULT_VALUE_PROBABILITY;
  const inSet = new Set(tables);
  const role = new Map<string, 'join' | 'union'>();
  const aligned: [string, string][] = [];
  for (const u of snapshot.unions) {
    if (u.tableAId === u.tableBId || !inSet.has(u.tableAId) || !inSet.has(u.tableBId)) continue;
    for (const a of u.alignment) {
      role.set(a.columnAId, 'union');
      role.set(a.columnBId, 'union');
      aligned.push([a.columnAId, a.columnBId]);
    }
  }
  for (const j of snapshot.joins) {
    if (!inSet.has(j.fromTableId) || !inSet.has(j.toTableId)) continue;
    role.set(j.fromColumnId, 'join');
    role.set(j.toColumnId, 'join');
  }
  // A column aligned with a join key is that key in another shard: once the union merges the
  // shards into one entity, the entity joins through it, so it is a join key too (transitively,
  // for chains of shards).
  for (let changed = true; changed; ) {
    changed = false;
    for (const [a, b] of aligned) {
      if ((role.get(a) === 'join') !== (role.get(b) === 'join')) {
        role.set(a, 'join');
        role.set(b, 'join');
        changed = true;
      }
    }
  }

  // Union-aligned columns that are not join keys become the merged entity's attributes: like any
  // other attribute they are kept with probability beta, but all together across the shards
  // (one draw per alignment group), or a sharded table's tree would carry nearly every column.
  const group = new Map<string, string>();
  const find = (c: string): string => {
    let r = c;
    while (group.has(r) && group.get(r) !== r) r = group.get(r)!;
    return r;
  };
  for (const [a, b] of aligned) {
    if (role.get(a) !== 'union') continue;
    if (!group.has(a)) group.set(a, a);
    if (!group.has(b)) group.set(b, b);
    group.set(find(a), find(b));
  }
  const groupKept = new Map<string, boolean>();
  const alignedKept = (c: string): boolean => {
    const g = find(c);
    if (!groupKept.has(g)) groupKept.set(g, rand() < beta);
    return groupKept.get(g)!;
  };

  // Decide every table's attributes first, emit second: a group forced on for one shard must be
  // kept in all of its shards, whatever order the tables come in.
  const columnsOf = (tableId: string) => [...snapshot.tableById.get(tableId)!.columns].sort((a, b) => a.ordinal - b.ordinal);
  const keptOthersOf = new Map<string, Set<string>>();
  for (const tableId of tables) {
    const columns = columnsOf(tableId);
    const others = columns.filter((c) => !role.has(c.id));
    const keptOthers = new Set(others.filter(() => rand() < beta).map((c) => c.id));
    const unionColumns = columns.filter((c) => role.get(c.id) === 'union');
    // At least one attribute per table that has any: a table of join keys only is a bridge.
    if (keptOthers.size === 0 && !unionColumns.some((c) => alignedKept(c.id))) {
      if (others.length > 0) keptOthers.add(pick(others, rand).id);
      else if (unionColumns.length > 0) groupKept.set(find(pick(unionColumns, rand).id), true);
    }
    keptOthersOf.set(tableId, keptOthers);
  }

  const keptColumns = new Map<string, KeptColumn[]>();
  const values = new Map<string, string>();
  for (const tableId of tables) {
    const columns = columnsOf(tableId);
    const keptOthers = keptOthersOf.get(tableId)!;
    const kept: KeptColumn[] = [];
    for (const c of columns) {
      const r = role.get(c.id);
      if (r === 'union' && !alignedKept(c.id)) continue;
      if (r) kept.push({ columnId: c.id, key: true, role: r });
      else if (keptOthers.has(c.id)) {
        kept.push({ columnId: c.id, key: false, role: 'sampled' });
        if (c.logicalType === 'text') {
          const usable = (vs: string[]): string[] => vs.filter((v) => v.trim() !== '');
          const pool = usable(c.topValues).length > 0 ? usable(c.topValues) : usable(c.sampleValues);
          if (pool.length > 0 && rand() < valueProbability) values.set(c.id, pick(pool, rand));
        }
      }
    }
    keptColumns.set(tableId, kept);
  }
  return { keptColumns, values };
}
