import { describe, expect, it } from 'vitest';
import { MinHash, containment, jaccard } from '../../src/sketch/minhash.js';

function signature(values: Iterable<string>): number[] {
  const m = new MinHash();
  for (const v of values) m.add(v);
  return m.toArray();
}

function range(from: number, to: number): string[] {
  return Array.from({ length: to - from }, (_, i) => String(from + i));
}

/** The estimate through the Jaccard similarity and the sizes alone (what `containment` used before). */
function throughJaccard(a: number[], sizeA: number, b: number[], sizeB: number): number {
  const j = jaccard(a, b);
  return Math.min((j * (sizeA + sizeB)) / (1 + j), sizeA, sizeB) / sizeA;
}

describe('containment', () => {
  it('reads a small set inside a larger one as (nearly) contained, where the Jaccard estimate falls short', () => {
    // Foreign keys of a few rows into a key of a few dozen: a row shard of a child table.
    let error = 0;
    let errorThroughJaccard = 0;
    for (let start = 1; start <= 40; start++) {
      const keys = range(1, 41);
      const refs = [String(start), String(((start + 16) % 40) + 1), String(((start + 28) % 40) + 1)];
      const [a, b] = [signature(refs), signature(keys)];
      const estimate = containment(a, 3, b, 40);
      // Never below the Jaccard estimate when A is inside B: no permutation has its minimum in A alone.
      expect(estimate, `refs ${refs.join(',')}`).toBeGreaterThanOrEqual(throughJaccard(a, 3, b, 40) - 1e-12);
      error += 1 - estimate;
      errorThroughJaccard += 1 - throughJaccard(a, 3, b, 40);
    }
    expect(error / 40).toBeLessThan(0.1);
    expect(error).toBeLessThan(errorThroughJaccard / 2);
  });

  it('is 1 for the same set, 0 for disjoint sets, and 0 for an empty one', () => {
    const a = signature(range(0, 300));
    expect(containment(a, 300, a, 300)).toBe(1);
    expect(containment(a, 300, signature(range(1000, 1300)), 300)).toBe(0);
    expect(containment(signature([]), 0, a, 300)).toBe(0);
    expect(containment(a, 300, signature([]), 0)).toBe(0);
  });

  it('estimates a partial containment both ways', () => {
    // A: 0..399, B: 200..999 -> |A ∩ B| = 200: half of A, a quarter of B.
    const [a, b] = [signature(range(0, 400)), signature(range(200, 1000))];
    expect(Math.abs(containment(a, 400, b, 800) - 0.5)).toBeLessThan(0.1);
    expect(Math.abs(containment(b, 800, a, 400) - 0.25)).toBeLessThan(0.1);
  });

  it('refuses signatures of different lengths', () => {
    expect(() => containment([1, 2], 2, [1, 2, 3], 3)).toThrow(/length mismatch/);
  });
});
