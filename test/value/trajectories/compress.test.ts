import { describe, expect, it } from 'vitest';
import { parseIntentGraph } from '../../../src/intent/index.js';
import type { LakeSnapshot } from '../../../src/search/snapshot.js';
import { mulberry32 } from '../../../src/util/prng.js';
import {
  compressToIntent,
  entityLabel,
  expandFromSeed,
  keepColumns,
  type PseudoIntent,
  type SampledSubgraph,
} from '../../../src/value/trajectories/index.js';
import { lake, randomLake } from './lake.js';

/** A sampled sub-graph over `tables` with every column kept (beta 1) and the given values. */
function sampleAll(snapshot: LakeSnapshot, tables: string[], values: Record<string, string> = {}): SampledSubgraph {
  const { keptColumns } = keepColumns(snapshot, tables, { beta: 1, valueProbability: 0 }, mulberry32(1));
  return { seed: tables[0], tables, steps: [], keptColumns, values: new Map(Object.entries(values)) };
}

function compress(snapshot: LakeSnapshot, tables: string[], values: Record<string, string> = {}): PseudoIntent {
  const out = compressToIntent(snapshot, sampleAll(snapshot, tables, values));
  expect(out).not.toBeNull();
  return out!;
}

const labels = (p: PseudoIntent) => p.intent.trees.map((t) => t.entity.label);
const attrLabels = (p: PseudoIntent, i: number) => p.intent.trees[i].attributes.map((a) => a.label);

describe('compressToIntent', () => {
  it('removes a keys-only bridge and links its neighbours through it', () => {
    // singer <- performs(singer_id, concert_id) -> concert
    const snap = lake()
      .table('singer_48d1c03c', ['singer_id', 'name', 'country'])
      .table('performs_0a1b2c3d', ['singer_id', 'concert_id'])
      .table('concert_9f8e7d6c', ['concert_id', 'title'])
      .join('performs_0a1b2c3d.singer_id', 'singer_48d1c03c.singer_id')
      .join('performs_0a1b2c3d.concert_id', 'concert_9f8e7d6c.concert_id')
      .build();
    const p = compress(snap, ['singer_48d1c03c', 'performs_0a1b2c3d', 'concert_9f8e7d6c']);
    expect(labels(p)).toEqual(['singer', 'concert']);
    expect(attrLabels(p, 0)).toEqual(['name', 'country']);
    expect(attrLabels(p, 1)).toEqual(['title']);
    expect(p.bridges).toEqual(['performs_0a1b2c3d']);
    expect(p.crossEdges).toEqual([{ from: 'e0', to: 'e1', via: ['performs_0a1b2c3d'] }]);
    expect(p.intent.edges).toEqual([{ id: 'x0', from: 'e0', to: 'e1' }]);
    expect(p.clusters.map((c) => c.entityId)).toEqual(['e0', null, 'e1']);
    expect(() => parseIntentGraph(p.intent)).not.toThrow();
  });

  it('merges union-connected shards into one tree with attributes deduplicated by name', () => {
    const snap = lake()
      .table('singer_11111111', ['singer_id', 'name', 'country'])
      .table('singer_22222222', ['singer_id', 'name', 'country', 'age'])
      .union('singer_11111111', 'singer_22222222')
      .build();
    const p = compress(snap, ['singer_11111111', 'singer_22222222']);
    expect(p.intent.trees).toHaveLength(1);
    expect(labels(p)).toEqual(['singer']);
    expect(attrLabels(p, 0)).toEqual(['singer_id', 'name', 'country', 'age']);
    expect(p.clusters).toHaveLength(1);
    expect(p.clusters[0].tables).toEqual(['singer_11111111', 'singer_22222222']);
    expect(p.clusters[0].attributes.find((a) => a.label === 'name')!.columnIds).toEqual([
      'singer_11111111.name',
      'singer_22222222.name',
    ]);
    expect(p.intent.edges).toEqual([]);
    expect(p.bridges).toEqual([]);
  });

  it('treats a column aligned with a join key as a join key of the merged entity', () => {
    const snap = lake()
      .table('singer_a', ['singer_id', 'name'])
      .table('singer_b', ['singer_id', 'name'])
      .table('song', ['song_id', 'singer_id', 'title'])
      .union('singer_a', 'singer_b')
      .join('song.singer_id', 'singer_a.singer_id')
      .build();
    const p = compress(snap, ['singer_a', 'singer_b', 'song']);
    expect(labels(p)).toEqual(['singer_a', 'song']);
    expect(attrLabels(p, 0)).toEqual(['name']);
    expect(attrLabels(p, 1)).toEqual(['song_id', 'title']);
    expect(p.crossEdges).toEqual([{ from: 'e0', to: 'e1', via: [] }]);
  });

  it('turns a direct join into a cross-tree edge without bridges', () => {
    const snap = lake()
      .table('author', ['author_id', 'name'])
      .table('book', ['book_id', 'author_id', 'title'])
      .join('book.author_id', 'author.author_id')
      .build();
    const p = compress(snap, ['book', 'author']);
    expect(labels(p)).toEqual(['book', 'author']);
    expect(p.crossEdges).toEqual([{ from: 'e0', to: 'e1', via: [] }]);
    expect(p.bridges).toEqual([]);
  });

  it('follows a chain of two bridges and lists both on the edge', () => {
    const snap = lake()
      .table('a', ['a_id', 'name'])
      .table('b1', ['a_id', 'k'])
      .table('b2', ['k', 'c_id'])
      .table('c', ['c_id', 'title'])
      .join('b1.a_id', 'a.a_id')
      .join('b1.k', 'b2.k')
      .join('b2.c_id', 'c.c_id')
      .build();
    const p = compress(snap, ['a', 'b1', 'b2', 'c']);
    expect(labels(p)).toEqual(['a', 'c']);
    expect(p.bridges).toEqual(['b1', 'b2']);
    expect(p.crossEdges).toEqual([{ from: 'e0', to: 'e1', via: ['b1', 'b2'] }]);
  });

  it('keeps one edge per entity pair, on the shortest path', () => {
    // a - c directly and a - b - c through a bridge: one edge, no via.
    const snap = lake()
      .table('a', ['a_id', 'c_ref', 'name'])
      .table('b', ['a_id', 'c_id'])
      .table('c', ['c_id', 'title'])
      .join('b.a_id', 'a.a_id')
      .join('b.c_id', 'c.c_id')
      .join('a.c_ref', 'c.c_id')
      .build();
    const p = compress(snap, ['a', 'b', 'c']);
    expect(p.crossEdges).toEqual([{ from: 'e0', to: 'e1', via: [] }]);
    expect(p.intent.edges).toHaveLength(1);
  });

  it('links every pair of entities around a shared bridge, but not through an entity', () => {
    // Star bridge hub(a_id, b_id, c_id) to a, b, c; plus d hanging off c only.
    const snap = lake()
      .table('a', ['a_id', 'x'])
      .table('b', ['b_id', 'y'])
      .table('c', ['c_id', 'd_ref', 'z'])
      .table('d', ['d_id', 'w'])
      .table('hub', ['a_id', 'b_id', 'c_id'])
      .join('hub.a_id', 'a.a_id')
      .join('hub.b_id', 'b.b_id')
      .join('hub.c_id', 'c.c_id')
      .join('c.d_ref', 'd.d_id')
      .build();
    const p = compress(snap, ['hub', 'a', 'b', 'c', 'd']);
    expect(labels(p)).toEqual(['a', 'b', 'c', 'd']);
    expect(p.crossEdges).toEqual([
      { from: 'e0', to: 'e1', via: ['hub'] },
      { from: 'e0', to: 'e2', via: ['hub'] },
      { from: 'e1', to: 'e2', via: ['hub'] },
      { from: 'e2', to: 'e3', via: [] },
    ]);
  });

  it('returns null when every cluster is a bridge', () => {
    const snap = lake().table('p', ['k']).table('q', ['k']).join('p.k', 'q.k').build();
    expect(compressToIntent(snap, sampleAll(snap, ['p', 'q']))).toBeNull();
  });

  it('puts recorded values on value leaves with deterministic ids', () => {
    const snap = lake()
      .table('author', ['author_id', 'name', 'country'])
      .table('book', ['book_id', 'author_id', 'title'])
      .join('book.author_id', 'author.author_id')
      .build();
    const p = compress(snap, ['author', 'book'], { 'author.country': 'France' });
    expect(p.intent).toEqual({
      version: 1,
      trees: [
        {
          entity: { id: 'e0', label: 'author' },
          attributes: [
            { id: 'e0.a0', label: 'name' },
            { id: 'e0.a1', label: 'country', value: { id: 'e0.a1.v', operator: '=', literal: 'France' } },
          ],
        },
        {
          entity: { id: 'e1', label: 'book' },
          attributes: [
            { id: 'e1.a0', label: 'book_id' },
            { id: 'e1.a1', label: 'title' },
          ],
        },
      ],
      edges: [{ id: 'x0', from: 'e0', to: 'e1' }],
    });
  });

  it('produces valid, connected pseudo intents for random samples', () => {
    const snap = randomLake(40, 7, { isolated: 3 });
    let produced = 0;
    for (let s = 0; s < 60; s++) {
      const rand = mulberry32(1000 + s);
      const seed = snap.tables[s % 37].id;
      const sub = expandFromSeed(snap, seed, { size: 2 + (s % 6), sampler: (['centrality', 'anchor', 'uniform'] as const)[s % 3] }, rand);
      const p = compressToIntent(snap, sub);
      if (!p) continue;
      produced++;
      expect(() => parseIntentGraph(p.intent)).not.toThrow();
      // Surviving entities are connected through the cross-tree edges.
      const reach = new Set(['e0']);
      for (let grown = true; grown; ) {
        grown = false;
        for (const e of p.intent.edges) {
          if (reach.has(e.from) !== reach.has(e.to)) {
            reach.add(e.from);
            reach.add(e.to);
            grown = true;
          }
        }
      }
      expect(reach.size).toBe(p.intent.trees.length);
      // Every sampled table is in exactly one cluster.
      expect(p.clusters.flatMap((c) => c.tables).sort()).toEqual([...sub.tables].sort());
    }
    expect(produced).toBeGreaterThan(40);
  });
});

describe('entityLabel', () => {
  it('strips hash suffixes and file extensions', () => {
    expect(entityLabel('singer_48d1c03c')).toBe('singer');
    expect(entityLabel('singer_48d1c03c.csv')).toBe('singer');
    expect(entityLabel('orders.parquet')).toBe('orders');
    expect(entityLabel('concert_in_stadium')).toBe('concert_in_stadium');
    expect(entityLabel('stadium_capacity')).toBe('stadium_capacity');
    expect(entityLabel('_48d1c03c')).toBe('_48d1c03c');
  });
});
