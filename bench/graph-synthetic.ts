/**
 * Synthetic scale check for src/graph: ~1,000 tables / ~10,000 columns shaped like a pooled
 * lake of many small relational sources (same-named tables across sources, small integer ids
 * everywhere, foreign keys inside each source, ~20% of tables split into row shards).
 *
 *   npx tsx bench/graph-synthetic.ts [sources=100] [seed=1]
 *
 * Prints the time to build the index (profile generation is not timed), the work the LSH
 * left (column pairs verified, table pairs scored vs all pairs) and the edges found.
 */
import { performance } from 'node:perf_hooks';
import { LakeGraphIndex, type GraphColumn, type GraphTable } from '../src/graph/index.js';
import type { LogicalType } from '../src/lake/types.js';
import { MinHash, normaliseValue } from '../src/sketch/minhash.js';

const SOURCES = Number(process.argv[2] ?? 100);
const SEED = Number(process.argv[3] ?? 1);

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
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
const ATTRS = (
  'age height weight rating price amount total quantity duration distance capacity population budget salary ' +
  'score rank level year founded opened status colour color gender type kind code title description email ' +
  'phone address street zip date start_date end_date created updated city_name country_name note'
).split(' ');
const CATEGORY_VALUES = ['red', 'blue', 'green', 'open', 'closed', 'active', 'inactive', 'M', 'F', 'yes', 'no', 'north', 'south'];

interface Col {
  name: string;
  values: Array<string | number>;
  type: LogicalType;
}

function profile(tableId: string, cols: Col[]): GraphColumn[] {
  return cols.map((c, i) => {
    const distinct = new Set<string>();
    for (const v of c.values) {
      const n = normaliseValue(v);
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
  const kind = int(0, 5);
  switch (kind) {
    case 0:
      return { name, type: 'float', values: Array.from({ length: rows }, () => Math.round(r() * 100000) / 100) };
    case 1:
      return { name, type: 'integer', values: Array.from({ length: rows }, () => int(0, 120)) };
    case 2:
      return { name, type: 'text', values: Array.from({ length: rows }, () => pick(CATEGORY_VALUES)) };
    case 3:
      return { name, type: 'date', values: Array.from({ length: rows }, () => `20${int(10, 24)}-0${int(1, 9)}-1${int(0, 9)}`) };
    case 4:
      // Sparse long codes, unique per source: specific values.
      return { name, type: 'integer', values: Array.from({ length: rows }, () => source * 10_000_000 + int(0, 9_999_999)) };
    default:
      return { name, type: 'text', values: Array.from({ length: rows }, (_, i) => `${name} ${source} ${i % Math.max(2, rows >> 1)}`) };
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
const index = LakeGraphIndex.build(tables);
const built = performance.now() - t1;
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
console.log(`build: ${(built / 1000).toFixed(2)} s, heap +${((heapAfter - heapBefore) / 2 ** 20).toFixed(0)} MiB`);
console.log(
  `column pairs verified: ${index.stats.joinPairsVerified} of ${allColumnPairs} (${((100 * index.stats.joinPairsVerified) / allColumnPairs).toFixed(3)}%)`,
);
console.log(
  `table pairs scored:    ${index.stats.unionPairsScored} of ${allTablePairs} (${((100 * index.stats.unionPairsScored) / allTablePairs).toFixed(2)}%)`,
);
console.log(`joins: ${edges.joins.length} (${crossSource} across sources)`);
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
