import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maxWeightAssignment } from '../../src/graph/index.js';

/** Best total over all injective assignments of the smaller side (brute force). */
function bruteForce(w: number[][]): number {
  const n = w.length;
  const m = w[0]?.length ?? 0;
  let best = 0;
  const usedCols = new Array<boolean>(m).fill(false);
  const rec = (i: number, total: number) => {
    if (i === n) {
      best = Math.max(best, total);
      return;
    }
    rec(i + 1, total); // row i unassigned (weights are >= 0, so this never beats a full one)
    for (let j = 0; j < m; j++) {
      if (usedCols[j]) continue;
      usedCols[j] = true;
      rec(i + 1, total + w[i][j]);
      usedCols[j] = false;
    }
  };
  rec(0, 0);
  return best;
}

function total(w: number[][], assignment: number[]): number {
  return assignment.reduce((s, j, i) => s + (j >= 0 ? w[i][j] : 0), 0);
}

describe('maxWeightAssignment', () => {
  it('solves a known case', () => {
    const w = [
      [0.9, 0.1, 0.0],
      [0.8, 0.7, 0.0],
      [0.0, 0.6, 0.5],
    ];
    expect(maxWeightAssignment(w)).toEqual([0, 1, 2]);
    const tricky = [
      [1.0, 0.9],
      [0.9, 0.0],
    ];
    // Greedy (0,0) gives 1.0; the optimum is (0,1) + (1,0) = 1.8.
    expect(maxWeightAssignment(tricky)).toEqual([1, 0]);
  });

  it('handles empty and rectangular inputs', () => {
    expect(maxWeightAssignment([])).toEqual([]);
    expect(maxWeightAssignment([[], []])).toEqual([-1, -1]);
    const wide = maxWeightAssignment([[0.1, 0.9, 0.3]]);
    expect(wide).toEqual([1]);
    const tall = maxWeightAssignment([[0.1], [0.9], [0.3]]);
    expect(tall).toEqual([-1, 0, -1]);
  });

  it('matches brute force and is a one-to-one assignment', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 25, maxLength: 25 }),
        (n, m, flat) => {
          const w = Array.from({ length: n }, (_, i) => flat.slice(i * 5, i * 5 + m));
          const a = maxWeightAssignment(w);
          expect(a).toHaveLength(n);
          const cols = a.filter((j) => j >= 0);
          expect(new Set(cols).size).toBe(cols.length);
          expect(cols.length).toBe(Math.min(n, m));
          expect(total(w, a)).toBeCloseTo(bruteForce(w), 9);
        },
      ),
      { numRuns: 300 },
    );
  });
});
