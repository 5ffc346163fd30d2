import { describe, expect, it } from 'vitest';
import type { LakeSnapshot } from '../../../src/search/snapshot.js';
import { mulberry32 } from '../../../src/util/prng.js';
import { expandFromSeed, SAMPLER_KINDS, type SampledSubgraph } from '../../../src/value/trajectories/index.js';
import { lake, randomLake } from './lake.js';

/** Connected by construction: each step attaches to an earlier table through a real lake edge. */
function expectValidTrajectory(snap: LakeSnapshot, sub: SampledSubgraph, size: number): void {
  expect(sub.tables[0]).toBe(sub.seed);
  expect(sub.tables.length).toBeLessThanOrEqual(size);
  expect(new Set(sub.tables).size).toBe(sub.tables.length);
  expect(sub.steps).toHaveLength(sub.tables.length - 1);
  sub.steps.forEach((step, i) => {
    expect(step.tableId).toBe(sub.tables[i + 1]);
    expect(sub.tables.slice(0, i + 1)).toContain(step.via);
    const edge = snap.neighbours(step.via).find((n) => n.tableId === step.tableId);
    expect(edge).toBeDefined();
    expect(step.kind).toBe(edge!.kind);
    expect(step.edgeScore).toBe(edge!.score);
    const raw =
      step.kind === 'join'
        ? snap.joins.some(
            (j) =>
              (j.fromTableId === step.via && j.toTableId === step.tableId) ||
              (j.toTableId === step.via && j.fromTableId === step.tableId),
          )
        : !!snap.unionBetween(step.via, step.tableId);
    expect(raw).toBe(true);
  });
  expect([...sub.keptColumns.keys()].sort()).toEqual([...sub.tables].sort());
}

/** Tables reachable from `seed`. */
function component(snap: LakeSnapshot, seed: string): Set<string> {
  const seen = new Set([seed]);
  const queue = [seed];
  while (queue.length) for (const n of snap.neighbours(queue.shift()!)) if (!seen.has(n.tableId)) seen.add(n.tableId), queue.push(n.tableId);
  return seen;
}

describe('expandFromSeed', () => {
  const snap = randomLake(50, 3, { isolated: 2 });

  for (const sampler of SAMPLER_KINDS) {
    it(`${sampler}: every step attaches to an earlier table through a real edge, size <= L`, () => {
      for (let s = 0; s < 40; s++) {
        const seed = snap.tables[(s * 7) % snap.tables.length].id;
        const size = 1 + (s % 9);
        const sub = expandFromSeed(snap, seed, { size, sampler }, mulberry32(s));
        expectValidTrajectory(snap, sub, size);
        if (sampler !== 'anchor') {
          // Centrality and the walk only stop early when the seed's component is used up.
          expect(sub.tables.length).toBe(Math.min(size, component(snap, seed).size));
        }
      }
    });
  }

  it('is deterministic for a given random seed', () => {
    for (const sampler of SAMPLER_KINDS) {
      const a = expandFromSeed(snap, 't05', { size: 7, sampler }, mulberry32(42));
      const b = expandFromSeed(snap, 't05', { size: 7, sampler }, mulberry32(42));
      expect(b).toEqual(a);
    }
    const c = expandFromSeed(snap, 't05', { size: 7 }, mulberry32(43));
    const d = expandFromSeed(snap, 't05', { size: 7 }, mulberry32(42));
    expect(c).not.toEqual(d);
  });

  it('stops at once from an isolated table', () => {
    const sub = expandFromSeed(snap, 't49', { size: 5 }, mulberry32(1));
    expect(sub.tables).toEqual(['t49']);
    expect(sub.steps).toEqual([]);
  });

  it('rejects an unknown seed', () => {
    expect(() => expandFromSeed(snap, 'nope', { size: 3 }, mulberry32(1))).toThrow(/unknown seed/);
  });

  it('anchor: adds only neighbours of the seed and stops when they run out', () => {
    // Seed s with neighbours a, b, c; those have further neighbours the anchor sampler must not take.
    const b = lake().table('s', ['id', 'v']);
    for (const x of ['a', 'b', 'c']) {
      b.table(x, ['id', 's_id', 'v']).join(`${x}.s_id`, 's.id');
      b.table(`${x}2`, ['id', `${x}_id`, 'v']).join(`${x}2.${x}_id`, `${x}.id`);
    }
    const star = b.build();
    for (let s = 0; s < 20; s++) {
      const sub = expandFromSeed(star, 's', { size: 10, sampler: 'anchor' }, mulberry32(s));
      expect(sub.tables.slice(1).sort()).toEqual(['a', 'b', 'c']);
      expect(sub.steps.every((st) => st.via === 's')).toBe(true);
    }
    const two = expandFromSeed(star, 's', { size: 3, sampler: 'anchor' }, mulberry32(9));
    expect(two.tables).toHaveLength(3);
    expect(two.tables.slice(1).every((t) => ['a', 'b', 'c'].includes(t))).toBe(true);
  });

  it('uniform: walks on from the last added table while it has a fresh neighbour', () => {
    // A path t0 - t1 - ... - t9: from t0 the walk has exactly one way on at every step.
    const b = lake();
    for (let i = 0; i < 10; i++) b.table(`p${i}`, ['id', 'prev_id', 'v']);
    for (let i = 1; i < 10; i++) b.join(`p${i}.prev_id`, `p${i - 1}.id`);
    const path = b.build();
    const sub = expandFromSeed(path, 'p0', { size: 6, sampler: 'uniform' }, mulberry32(5));
    expect(sub.tables).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'p5']);
    expect(sub.steps.map((s) => s.via)).toEqual(['p0', 'p1', 'p2', 'p3', 'p4']);

    // On the random lake: a step leaves the last added table whenever that one still has a fresh neighbour.
    for (let s = 0; s < 30; s++) {
      const w = expandFromSeed(snap, snap.tables[s].id, { size: 8, sampler: 'uniform' }, mulberry32(100 + s));
      w.steps.forEach((step, i) => {
        const last = w.tables[i];
        const before = new Set(w.tables.slice(0, i + 1));
        const fresh = snap.neighbours(last).some((n) => !before.has(n.tableId));
        if (fresh) expect(step.via).toBe(last);
      });
    }
  });

  it('centrality: draws in proportion to the score mass towards the set; epsilon draws uniformly', () => {
    const star = lake()
      .table('s', ['id', 'v'])
      .table('heavy', ['id', 's_id', 'v'])
      .table('light', ['id', 's_id', 'v'])
      .join('heavy.s_id', 's.id', 0.95)
      .join('light.s_id', 's.id', 0.05)
      .build();
    const count = (epsilon: number): number => {
      let heavy = 0;
      for (let s = 0; s < 400; s++) {
        const sub = expandFromSeed(star, 's', { size: 2, epsilon }, mulberry32(s));
        if (sub.tables[1] === 'heavy') heavy++;
      }
      return heavy;
    };
    expect(count(0)).toBeGreaterThan(360);
    const mixed = count(1);
    expect(mixed).toBeGreaterThan(150);
    expect(mixed).toBeLessThan(250);
  });

  it('centrality: a candidate tied to several set members sums their scores', () => {
    // Set {s, m} after step 1 (only m is reachable first). Then: x joins both s and m (0.3 + 0.3),
    // y joins only m (0.3). With epsilon 0, x must come out about twice as often as y.
    const g = lake()
      .table('s', ['id', 'v'])
      .table('m', ['id', 's_id', 'v'])
      .table('x', ['id', 's_id', 'm_id', 'v'])
      .table('y', ['id', 'm_id', 'v'])
      .join('m.s_id', 's.id', 1)
      .join('x.s_id', 's.id', 0.3)
      .join('x.m_id', 'm.id', 0.3)
      .join('y.m_id', 'm.id', 0.3)
      .build();
    let x = 0;
    let runs = 0;
    for (let s = 0; s < 1500; s++) {
      const sub = expandFromSeed(g, 's', { size: 3, epsilon: 0 }, mulberry32(s));
      if (sub.tables[1] !== 'm') continue;
      runs++;
      if (sub.tables[2] === 'x') x++;
    }
    expect(x / runs).toBeGreaterThan(0.6);
    expect(x / runs).toBeLessThan(0.73);
  });

  it('centrality: join and union scores between the same two tables add up', () => {
    // u both joins (0.3) and unions (0.3) with the seed; j only joins it (0.3): u about 2/3 of the time.
    const g = lake()
      .table('s', ['id', 'v'])
      .table('u', ['id', 's_id', 'v'])
      .table('j', ['id', 's_id', 'w'])
      .join('u.s_id', 's.id', 0.3)
      .union('s', 'u', 0.3)
      .join('j.s_id', 's.id', 0.3)
      .build();
    let u = 0;
    for (let s = 0; s < 1000; s++) if (expandFromSeed(g, 's', { size: 2, epsilon: 0 }, mulberry32(s)).tables[1] === 'u') u++;
    expect(u / 1000).toBeGreaterThan(0.6);
    expect(u / 1000).toBeLessThan(0.73);
  });
});

describe('column keeping', () => {
  const g = lake()
    .table('author', ['author_id', 'name', 'country', { name: 'born', type: 'integer', values: ['1900'] }])
    .table('book', ['book_id', 'author_id', 'title', { name: 'pages', type: 'integer', values: ['100'] }])
    .table('book_2', ['book_id', 'author_id', 'title', { name: 'pages', type: 'integer', values: ['100'] }, 'isbn'])
    .table('keys', ['book_id'])
    .join('book.author_id', 'author.author_id')
    .join('keys.book_id', 'book.book_id')
    .union('book', 'book_2')
    .build();
  const all = ['author', 'book', 'book_2', 'keys'];
  const expandAll = (beta: number, seed: number, valueProbability?: number): SampledSubgraph => {
    const sub = expandFromSeed(g, 'book', { size: 10, beta, valueProbability }, mulberry32(seed));
    expect([...sub.tables].sort()).toEqual(all);
    return sub;
  };
  const roles = (sub: SampledSubgraph, t: string) =>
    Object.fromEntries(sub.keptColumns.get(t)!.map((c) => [c.columnId.split('.')[1], c.role]));

  it('keeps join ends and union-aligned columns as keys; a column aligned with a join key is a join key', () => {
    const sub = expandAll(1, 1);
    expect(roles(sub, 'author')).toEqual({ author_id: 'join', name: 'sampled', country: 'sampled', born: 'sampled' });
    expect(roles(sub, 'book')).toEqual({ book_id: 'join', author_id: 'join', title: 'union', pages: 'union' });
    expect(roles(sub, 'book_2')).toEqual({ book_id: 'join', author_id: 'join', title: 'union', pages: 'union', isbn: 'sampled' });
    expect(roles(sub, 'keys')).toEqual({ book_id: 'join' });
    for (const cols of sub.keptColumns.values()) for (const c of cols) expect(c.key).toBe(c.role !== 'sampled');
  });

  it('with beta 0 keeps exactly one attribute per table that has one (a union-aligned column counts)', () => {
    // Attributes: sampled non-key columns and union-aligned (not join) columns.
    const attributes = (sub: ReturnType<typeof expandAll>, t: string) => sub.keptColumns.get(t)!.filter((c) => c.role !== 'join');
    for (let s = 0; s < 20; s++) {
      const sub = expandAll(0, s);
      expect(attributes(sub, 'author')).toHaveLength(1);
      expect(attributes(sub, 'book')).toHaveLength(1);
      expect(attributes(sub, 'book_2').length).toBeGreaterThanOrEqual(1);
      expect(attributes(sub, 'book_2').length).toBeLessThanOrEqual(2);
      expect(sub.keptColumns.get('keys')!.map((c) => c.columnId)).toEqual(['keys.book_id']);
    }
  });

  it('keeps a union-aligned attribute in all shards or in none (one draw per alignment group)', () => {
    let both = 0;
    for (let s = 0; s < 100; s++) {
      const sub = expandAll(0.5, s);
      const aligned = (t: string) => sub.keptColumns.get(t)!.filter((c) => c.role === 'union').length;
      if (aligned('book') > 0 && aligned('book_2') > 0) both++;
      else expect(aligned('book') + aligned('book_2')).toBe(0);
    }
    expect(both).toBeGreaterThan(20);
  });

  it('beta sets the share of kept non-key columns', () => {
    let kept = 0;
    for (let s = 0; s < 300; s++) kept += expandAll(0.5, s).keptColumns.get('author')!.filter((c) => !c.key).length;
    // 3 candidates at 0.5, at least one: mean 1.5 + 0.125 ≈ 1.625 per sample.
    expect(kept / 300).toBeGreaterThan(1.45);
    expect(kept / 300).toBeLessThan(1.8);
  });

  it('records values only for kept non-key text columns, drawn from their values', () => {
    const sub = expandAll(1, 3, 1);
    expect([...sub.values.keys()].sort()).toEqual(['author.country', 'author.name', 'book_2.isbn']);
    expect(['name 1', 'name 2']).toContain(sub.values.get('author.name'));
    let withValue = 0;
    for (let s = 0; s < 300; s++) withValue += expandAll(1, s).values.size;
    // 3 eligible columns at the default 0.3.
    expect(withValue / 300).toBeGreaterThan(0.7);
    expect(withValue / 300).toBeLessThan(1.1);
  });
});
