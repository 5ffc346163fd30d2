import { describe, expect, it } from 'vitest';
import type { LakeSnapshot } from '../../../src/search/snapshot.js';
import { mulberry32 } from '../../../src/util/prng.js';
import { partitionCommunities, sampleSeeds, tableDegree } from '../../../src/value/trajectories/index.js';
import { lake, randomLake } from './lake.js';

function expectPartition(snap: LakeSnapshot, groups: string[][]): void {
  const all = groups.flat();
  expect(all.length).toBe(snap.tables.length);
  expect(new Set(all)).toEqual(new Set(snap.tables.map((t) => t.id)));
}

/** Six dense groups of eight tables, a few links between groups, and some isolated tables. */
function clusteredLake(isolated: number): LakeSnapshot {
  const b = lake();
  const rand = mulberry32(11);
  const name = (g: number, i: number) => `g${g}_${i}`;
  for (let g = 0; g < 6; g++) for (let i = 0; i < 8; i++) b.table(name(g, i), ['id', 'ref', 'ref2', 'v']);
  for (let k = 0; k < isolated; k++) b.table(`lonely${k}`, ['id', 'v']);
  for (let g = 0; g < 6; g++) {
    for (let i = 0; i < 8; i++) {
      b.join(`${name(g, i)}.ref`, `${name(g, (i + 1) % 8)}.id`, 0.9);
      b.join(`${name(g, i)}.ref2`, `${name(g, Math.floor(rand() * 8))}.id`, 0.8);
    }
    b.join(`${name(g, 0)}.ref2`, `${name((g + 1) % 6, 3)}.id`, 0.2);
  }
  return b.build();
}

describe('partitionCommunities', () => {
  it('puts every table in exactly one community, none larger than ceil(n/K)', () => {
    for (const [snap, k] of [
      [clusteredLake(5), 4],
      [clusteredLake(5), 6],
      [clusteredLake(0), 3],
      [randomLake(60, 9, { isolated: 6 }), 5],
      [randomLake(60, 9, { isolated: 6 }), 12],
    ] as const) {
      const groups = partitionCommunities(snap, k, mulberry32(1));
      expectPartition(snap, groups);
      const cap = Math.ceil(snap.tables.length / k);
      for (const g of groups) expect(g.length).toBeLessThanOrEqual(cap);
      expect(groups.length).toBeGreaterThanOrEqual(Math.ceil(snap.tables.length / cap));
      expect(groups.length).toBeLessThanOrEqual(2 * k);
    }
  });

  it('follows the natural clusters when they fit', () => {
    const snap = clusteredLake(0);
    const groups = partitionCommunities(snap, 6, mulberry32(3));
    expect(groups).toHaveLength(6);
    for (const g of groups) expect(new Set(g.map((t) => t.split('_')[0])).size).toBe(1);
  });

  it('splits one big clique into balanced pieces', () => {
    const b = lake();
    for (let i = 0; i < 20; i++) b.table(`c${String(i).padStart(2, '0')}`, ['id', ...Array.from({ length: 19 }, (_, j) => `r${j}`)]);
    for (let i = 0; i < 20; i++) {
      let r = 0;
      for (let j = 0; j < 20; j++) if (j !== i) b.join(`c${String(i).padStart(2, '0')}.r${r++}`, `c${String(j).padStart(2, '0')}.id`, 0.7);
    }
    const snap = b.build();
    const groups = partitionCommunities(snap, 4, mulberry32(2));
    expectPartition(snap, groups);
    expect(groups.map((g) => g.length)).toEqual([5, 5, 5, 5]);
  });

  it('packs isolated tables instead of leaving one community each', () => {
    const b = lake();
    for (let i = 0; i < 12; i++) b.table(`iso${String(i).padStart(2, '0')}`, ['v']);
    const snap = b.build();
    const groups = partitionCommunities(snap, 3, mulberry32(1));
    expectPartition(snap, groups);
    expect(groups.map((g) => g.length)).toEqual([4, 4, 4]);
  });

  it('is deterministic for a seed and handles an empty lake', () => {
    const snap = randomLake(40, 4);
    expect(partitionCommunities(snap, 5, mulberry32(8))).toEqual(partitionCommunities(snap, 5, mulberry32(8)));
    expect(partitionCommunities(lake().build(), 3, mulberry32(1))).toEqual([]);
  });
});

describe('sampleSeeds', () => {
  it('never seeds an isolated table and draws one seed per non-empty degree quantile', () => {
    const snap = clusteredLake(5);
    for (const [k, q] of [
      [4, 2],
      [6, 3],
      [3, 100],
    ] as const) {
      const seeds = sampleSeeds(snap, { communities: k, quantiles: q }, mulberry32(7));
      const groups = partitionCommunities(snap, k, mulberry32(7));
      for (const s of seeds) expect(tableDegree(snap, s)).toBeGreaterThan(0);
      expect(seeds.some((s) => s.startsWith('lonely'))).toBe(false);
      expect(new Set(seeds).size).toBe(seeds.length);
      const expected = groups.reduce((n, g) => n + Math.min(q, g.filter((t) => tableDegree(snap, t) > 0).length), 0);
      expect(seeds).toHaveLength(expected);
      // Seeds of one community fall in distinct quantiles, in quantile order.
      let at = 0;
      for (const g of groups) {
        const cands = g.filter((t) => tableDegree(snap, t) > 0).sort((a, b) => tableDegree(snap, a) - tableDegree(snap, b) || snap.compare(a, b));
        const mine = seeds.slice(at, at + Math.min(q, cands.length));
        at += mine.length;
        // Quantile b holds positions [floor(b·m/Q), floor((b+1)·m/Q)).
        const m = cands.length;
        const binOf = (pos: number): number => {
          let bin = 0;
          while (pos >= Math.floor(((bin + 1) * m) / q)) bin++;
          return bin;
        };
        const bins = mine.map((s) => binOf(cands.indexOf(s)));
        expect(mine.every((s) => cands.includes(s))).toBe(true);
        expect(new Set(bins).size).toBe(bins.length);
        expect([...bins].sort((a, b) => a - b)).toEqual(bins);
      }
    }
  });

  it('takes a low-degree and a high-degree seed with two quantiles', () => {
    // Hubs h0..h3 form a clique, each with one leaf; two isolated tables.
    const b = lake();
    for (let i = 0; i < 4; i++) b.table(`h${i}`, ['id', 'a', 'b', 'c']).table(`leaf${i}`, ['id', 'h_id']);
    b.table('alone1', ['v']).table('alone2', ['v']);
    for (let i = 0; i < 4; i++) {
      b.join(`leaf${i}.h_id`, `h${i}.id`);
      let col = 0;
      for (let j = i + 1; j < 4; j++) b.join(`h${i}.${'abc'[col++]}`, `h${j}.id`);
    }
    const snap = b.build();
    const firsts = new Set<string>();
    for (let s = 0; s < 30; s++) {
      const seeds = sampleSeeds(snap, { communities: 1, quantiles: 2 }, mulberry32(s));
      expect(seeds).toHaveLength(2);
      expect(seeds[0]).toMatch(/^leaf/);
      expect(seeds[1]).toMatch(/^h/);
      firsts.add(seeds[0]);
    }
    expect(firsts.size).toBeGreaterThan(1);
  });
});
