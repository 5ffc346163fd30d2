/**
 * Synthetic scale check for src/graph: ~1,000 tables / ~10,000 columns shaped like a pooled
 * lake of many small relational sources (same-named tables across sources, small integer ids
 * everywhere, foreign keys inside each source, ~20% of tables split into row shards).
 *
 *   npx tsx bench/graph-synthetic.ts [--sources 100] [--seed 1] [--exhaustive]
 *
 * Prints the time to build the index (profile generation is not timed), the work the LSH
 * left (column pairs verified, table pairs scored vs all pairs) and the edges found. With
 * --exhaustive it also applies the same pair rules to ALL column and table pairs and reports
 * the share of those edges the LSH candidates recovered (use fewer sources: it is quadratic);
 * DEBUG_MISSES=1 then lists the unions the LSH candidates missed.
 */
import { performance } from 'node:perf_hooks';
import { intOption, type NumberRange } from '../src/cli/options.js';
import {
  bestJoin,
  LakeGraphIndex,
  prepareTable,
  scoreUnion,
  type GraphColumn,
  type GraphTable,
  type JoinEdgeCandidate,
} from '../src/graph/index.js';
import type { LogicalType } from '../src/lake/types.js';
import { MinHash, cellKey } from '../src/sketch/minhash.js';
import { mulberry32 as rng } from '../src/util/prng.js';

/** `--name <n>` as an integer within `range`: `--sources x` is refused by name, not read as NaN. */
function arg(name: string, fallback: number, range: NumberRange): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? intOption(name, range)(process.argv[i + 1] ?? '') : fallback;
}
const SOURCES = arg('sources', 100, { min: 1 });
const SEED = arg('seed', 1, { min: 0 });
const EXHAUSTIVE = process.argv.includes('--exhaustive');

const r = rng(SEED);
const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

const ENTITIES = (
  'player club team game match season league stadium coach referee city country region airport airline flight ' +
  'route customer order product category supplier invoice payment account branch employee department project ' +
  'task student course teacher school class exam grade book author publisher library member loan movie actor ' +
  'director studio genre review user post comment tag artist album song playlist hotel room booking guest ' +
  'doctor patient hospital visit drug prescription ship port voyage crew station train line ticket sensor ' +
  'device reading vehicle driver trip race circuit lap result election candidate party vote county wine grape'
).split(' ');
/** Attribute names with the kind of values they hold (a column's values follow its name). */
const ATTR_KINDS: Record<string, 'float' | 'smallint' | 'category' | 'date' | 'longcode' | 'text'> = {
  rating: 'float', price: 'float', amount: 'float', total: 'float', weight: 'float', height: 'float',
  distance: 'float', budget: 'float', salary: 'float',
  age: 'smallint', quantity: 'smallint', duration: 'smallint', capacity: 'smallint', score: 'smallint',
  rank: 'smallint', level: 'smallint', year: 'smallint', founded: 'smallint', opened: 'smallint',
  status: 'category', colour: 'category', color: 'category', gender: 'category', type: 'category', kind: 'category',
  date: 'date', start_date: 'date', end_date: 'date', created: 'date', updated: 'date',
  zip: 'longcode', phone: 'longcode',
  email: 'text', address: 'text', street: 'text', title: 'text', description: 'text', note: 'text',
  city_name: 'text', country_name: 'text',
};
const ATTRS = Object.keys(ATTR_KINDS);
const CATEGORIES: Record<string, string[]> = {
  status: ['active', 'inactive', 'pending', 'closed', 'suspended'],
  colour: ['red', 'blue', 'green', 'black', 'white', 'yellow', 'purple', 'orange', 'grey', 'brown', 'pink', 'navy'],
  gender: ['M', 'F'],
  type: ['standard', 'premium', 'basic', 'trial'],
};
CATEGORIES.color = CATEGORIES.colour;
CATEGORIES.kind = CATEGORIES.type;

interface Col {
  name: string;
  values: Array<string | number>;
  type: LogicalType;
}

function profile(tableId: string, cols: Col[]): GraphColumn[] {
  return cols.map((c, i) => {
    const distinct = new Set<string>();
    for (const v of c.values) {
      const n = cellKey(v);
      if (n !== null) distinct.add(n);
    }
    const mh = new MinHash();
    for (const v of distinct) mh.add(v);
    const nums = c.values.filter((v): v is number => typeof v === 'number');
    let lo = Infinity;
    let hi = -Infinity;
    for (const x of nums) {
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    }
    let len = 0;
    for (const v of c.values) len += String(v).length;
    return {
      id: `${tableId}.${i}`,
      tableId,
      name: c.name,
      ordinal: i,
      logicalType: c.type,
      nullShare: 0,
      distinctEstimate: distinct.size,
      uniqueness: c.values.length ? distinct.size / c.values.length : 0,
      minhash: mh.toArray(),
      sampleValues: [...distinct].slice(0, 10),
      numericMin: nums.length ? lo : null,
      numericMax: nums.length ? hi : null,
      avgLength: c.values.length ? len / c.values.length : 0,
    };
  });
}

function attribute(name: string, rows: number, source: number): Col {
  const many = <T>(f: (i: number) => T) => Array.from({ length: rows }, (_, i) => f(i));
  switch (ATTR_KINDS[name]) {
    case 'float':
      return { name, type: 'float', values: many(() => Math.round(r() * 100000) / 100) };
    case 'smallint':
      return { name, type: 'integer', values: many(() => (name === 'year' || name === 'founded' ? int(1950, 2024) : int(0, 120))) };
    case 'category':
      return { name, type: 'text', values: many(() => pick(CATEGORIES[name])) };
    case 'date':
      return { name, type: 'date', values: many(() => `20${int(10, 24)}-0${int(1, 9)}-1${int(0, 9)}`) };
    case 'longcode':
      // Sparse long numbers: specific values (zip codes recur across sources, phones do not).
      return { name, type: 'integer', values: many(() => (name === 'zip' ? 10_000 + int(0, 899) * 97 : source * 10_000_000 + int(0, 9_999_999))) };
    default:
      return { name, type: 'text', values: many((i) => `${name} ${source} ${i % Math.max(2, rows >> 1)}`) };
  }
}

const tables: GraphTable[] = [];
let columnCount = 0;
const t0 = performance.now();
for (let s = 0; s < SOURCES; s++) {
  const entities = [...new Set(Array.from({ length: 8 }, () => pick(ENTITIES)))];
  const rowsOf = new Map(entities.map((e) => [e, int(20, 300)]));
  const prefixedIds = r() < 0.6; // source convention: `player_id` vs `id`
  for (const e of entities) {
    const rows = rowsOf.get(e)!;
    const cols: Col[] = [];
    cols.push({ name: prefixedIds ? `${e}_id` : 'id', type: 'integer', values: Array.from({ length: rows }, (_, i) => i + 1) });
    cols.push({ name: prefixedIds ? `${e}_name` : 'name', type: 'text', values: Array.from({ length: rows }, (_, i) => `${e} ${s} ${i}`) });
    for (const other of entities) {
      if (other === e || r() > 0.25) continue;
      const n = rowsOf.get(other)!;
      cols.push({ name: `${other}_id`, type: 'integer', values: Array.from({ length: rows }, () => int(1, n)) });
    }
    const attrCount = int(3, 9);
    const used = new Set(cols.map((c) => c.name));
    for (let a = 0; a < attrCount; a++) {
      const name = pick(ATTRS);
      if (used.has(name)) continue;
      used.add(name);
      cols.push(attribute(name, rows, s));
    }
    const id = `s${s}.${e}`;
    // ~20% of tables become 2-3 disjoint row shards.
    if (rows >= 40 && r() < 0.2) {
      const k = int(2, 3);
      const cuts = [0, ...Array.from({ length: k - 1 }, (_, i) => Math.floor(((i + 1) * rows) / k)), rows];
      for (let p = 0; p < k; p++) {
        const shardId = `${id}_part${p + 1}`;
        const shardCols = cols.map((c) => ({ ...c, values: c.values.slice(cuts[p], cuts[p + 1]) }));
        tables.push({ id: shardId, name: `${e}_part${p + 1}`, rowCount: cuts[p + 1] - cuts[p], columns: profile(shardId, shardCols) });
        columnCount += shardCols.length;
      }
    } else {
      tables.push({ id, name: e, rowCount: rows, columns: profile(id, cols) });
      columnCount += cols.length;
    }
  }
}
const generated = performance.now() - t0;

const heapBefore = process.memoryUsage().heapUsed;
const t1 = performance.now();
const cpu1 = process.cpuUsage();
const index = LakeGraphIndex.build(tables);
const built = performance.now() - t1;
const cpu = process.cpuUsage(cpu1);
const heapAfter = process.memoryUsage().heapUsed;
const edges = index.allEdges();

const joinSources = edges.joins.map((j) => [j.fromTableId.split('.')[0], j.toTableId.split('.')[0]]);
const crossSource = joinSources.filter(([a, b]) => a !== b).length;
const shardUnions = edges.unions.filter((u) => u.tableAId.replace(/_part\d+$/, '') === u.tableBId.replace(/_part\d+$/, '')).length;
const shardPairs = (() => {
  const groups = new Map<string, number>();
  for (const t of tables) if (/_part\d+$/.test(t.id)) groups.set(t.id.replace(/_part\d+$/, ''), (groups.get(t.id.replace(/_part\d+$/, '')) ?? 0) + 1);
  let pairs = 0;
  for (const k of groups.values()) pairs += (k * (k - 1)) / 2;
  return pairs;
})();

const allColumnPairs = (columnCount * (columnCount - 1)) / 2;
const allTablePairs = (tables.length * (tables.length - 1)) / 2;
console.log(`tables ${tables.length}, columns ${columnCount} (profiles generated in ${(generated / 1000).toFixed(1)} s, not timed)`);
console.log(`build: ${(built / 1000).toFixed(2)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s CPU, heap +${((heapAfter - heapBefore) / 2 ** 20).toFixed(0)} MiB`);
console.log(
  `column pairs verified: ${index.stats.joinPairsVerified} of ${allColumnPairs} (${((100 * index.stats.joinPairsVerified) / allColumnPairs).toFixed(3)}%)`,
);
console.log(
  `table pairs scored:    ${index.stats.unionPairsScored} of ${allTablePairs} (${((100 * index.stats.unionPairsScored) / allTablePairs).toFixed(2)}%)`,
);
console.log(`joins: ${edges.joins.length} (${crossSource} across sources: same-named tables elsewhere, shared zip codes)`);
{
  // Same-named tables in other sources make small-integer joins ambiguous; does the score at
  // least rank the column's own source first? (for columns with an edge into their own source)
  const src = (tableId: string) => tableId.split('.')[0];
  const byFrom = new Map<string, JoinEdgeCandidate[]>();
  for (const j of edges.joins) byFrom.set(j.fromColumnId, [...(byFrom.get(j.fromColumnId) ?? []), j]);
  let withOwn = 0;
  let ownFirst = 0;
  for (const list of byFrom.values()) {
    if (!list.some((j) => src(j.fromTableId) === src(j.toTableId))) continue;
    withOwn++;
    const best = Math.max(...list.map((j) => j.score));
    const top = list.filter((j) => j.score === best);
    if (top.every((j) => src(j.fromTableId) === src(j.toTableId))) ownFirst++;
  }
  console.log(`foreign columns whose top-scored join stays in their own source: ${ownFirst} of ${withOwn}`);
}
console.log(`unions: ${edges.unions.length} (${shardUnions} of ${shardPairs} shard pairs found)`);

// Incremental ingest: remove and re-add 50 tables one at a time.
const sample = tables.slice(0, 50);
for (const t of sample) index.removeTable(t.id);
const t2 = performance.now();
for (const t of sample) index.addTable(t);
const incremental = performance.now() - t2;
console.log(`incremental addTable: ${(incremental / sample.length).toFixed(2)} ms per table (into ${tables.length - 50} indexed)`);
const same = JSON.stringify(index.allEdges()) === JSON.stringify(edges);
console.log(`edge set after remove + re-add identical to bulk build: ${same}`);

if (EXHAUSTIVE) {
  // Same rules over all pairs: what the LSH candidate generation could at best find.
  const t3 = performance.now();
  const prepared = tables.map((t) => prepareTable(t, index.options)).sort((a, b) => (a.table.id < b.table.id ? -1 : 1));
  const joins: JoinEdgeCandidate[] = [];
  const unionKeys = new Set<string>();
  const aligned = new Set<string>();
  for (let i = 0; i < prepared.length; i++) {
    for (let j = i + 1; j < prepared.length; j++) {
      const u = scoreUnion(prepared[i], prepared[j], index.options);
      if (u) {
        unionKeys.add(`${u.tableAId}|${u.tableBId}`);
        for (const p of u.alignment) aligned.add(`${p.columnAId}|${p.columnBId}`).add(`${p.columnBId}|${p.columnAId}`);
      }
      for (const ca of prepared[i].columns) {
        for (const cb of prepared[j].columns) {
          const e = bestJoin(ca, cb, index.options);
          if (e) joins.push(e);
        }
      }
    }
  }
  const joinKeys = new Set(joins.map((e) => `${e.fromColumnId}|${e.toColumnId}`).filter((k) => !aligned.has(k)));
  const found = index.allEdges();
  const foundJoins = found.joins.filter((e) => joinKeys.has(`${e.fromColumnId}|${e.toColumnId}`)).length;
  const foundUnions = found.unions.filter((u) => unionKeys.has(`${u.tableAId}|${u.tableBId}`)).length;
  if (process.env.DEBUG_MISSES) {
    const have = new Set(found.unions.map((u) => `${u.tableAId}|${u.tableBId}`));
    const byId = new Map(prepared.map((p) => [p.table.id, p]));
    for (const k of unionKeys) {
      if (have.has(k)) continue;
      const [a, b] = k.split('|').map((id) => byId.get(id)!);
      const inter = [...a.headerTokens].filter((t) => b.headerTokens.has(t)).length;
      const jac = inter / (a.headerTokens.size + b.headerTokens.size - inter);
      console.log('missed', k, 'J', jac.toFixed(2), [...a.headerTokens].join(','), '//', [...b.headerTokens].join(','), scoreUnion(a, b, index.options)!.score.toFixed(2), JSON.stringify(scoreUnion(a, b, index.options)!.alignment.map((p) => [a.columns.find((c) => c.col.id === p.columnAId)!.col.name, b.columns.find((c) => c.col.id === p.columnBId)!.col.name, +p.score.toFixed(2)])));
    }
  }
  console.log(`exhaustive reference (${((performance.now() - t3) / 1000).toFixed(1)} s): joins ${joinKeys.size}, unions ${unionKeys.size}`);
  console.log(
    `LSH recall vs exhaustive: joins ${(foundJoins / Math.max(1, joinKeys.size)).toFixed(4)}, unions ${(foundUnions / Math.max(1, unionKeys.size)).toFixed(4)}` +
      ` (extra edges not in reference: ${found.joins.length - foundJoins} joins, ${found.unions.length - foundUnions} unions)`,
  );
}
