import { describe, expect, it } from 'vitest';
import { LakeStructure } from '../../src/search/lakeStructure.js';
import { shardedKeyLake } from './fixture.js';

describe('lake structure: joins of a table cut into row shards', () => {
  it('tells the row shards of a table from a copy of it', () => {
    const { snapshot, partA, partB, other } = shardedKeyLake();
    const s = LakeStructure.of(snapshot);
    expect(s.shardClosure(partA.id, 0.7)).toEqual([partA.id, partB.id]);
    expect(s.shardClosure(other.id, 0.7)).toEqual([other.id]);
    expect(s.shardClosure(partA.id, 0.95)).toEqual([partA.id]);
  });

  it("reads a key table's row shards as one table: the referring column is contained in them together", () => {
    const { snapshot, partA, partB, other } = shardedKeyLake();
    const s = LakeStructure.of(snapshot);
    // 0.65 + 0.35 x (1 - 0.5): the containment term scored again on the pieces' union (MinHash estimates).
    const whole = s.wholeTableJoinScore('race', partA.id, 0.7);
    expect(whole).toBeGreaterThan(0.8);
    expect(whole).toBeLessThanOrEqual(0.825 + 1e-9);
    // Either way round, each asked first of its own structure (a structure answers the reverse from its cache).
    const reverse = LakeStructure.of(shardedKeyLake().snapshot);
    expect(reverse.wholeTableJoinScore(partB.id, 'race', 0.7)).toBeCloseTo(s.wholeTableJoinScore('race', partB.id, 0.7), 12);
    // A whole table keeps its edge's score, and so does a piece read without its shards.
    expect(s.wholeTableJoinScore('race', other.id, 0.7)).toBe(0.7);
    expect(s.wholeTableJoinScore('race', partA.id, 0.95)).toBe(0.65);
    // No join edge, no join.
    expect(s.wholeTableJoinScore(partA.id, other.id, 0.7)).toBe(0);
  });

  it('reads a piece that the shard closure reaches only through another piece', () => {
    const { snapshot, partA, partB, partC } = shardedKeyLake({ thirdPiece: true });
    const s = LakeStructure.of(snapshot);
    expect(s.shardClosure(partA.id, 0.7)).toEqual([partA.id, partB.id, partC!.id]);
    // 0.65 + 0.35 x (1 - 1/3) with all three pieces read; without the third, about 0.77.
    expect(s.wholeTableJoinScore('race', partA.id, 0.7)).toBeGreaterThan(0.85);
  });
});
