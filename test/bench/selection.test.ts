import { describe, expect, it } from 'vitest';
import { selectionLp, solveSelection, type SelectionModel } from '../../src/bench/methods.js';
import { selectionValue, solveSelectionExact } from '../../src/bench/selection.js';
import { mulberry32 } from '../../src/util/prng.js';

/** A seeded stream, so the random models are the same on every run. */
const rng = mulberry32;

/** A model shaped like jar's: relevance falling with rank, sparse pair weights in (0, 2]. */
function randomModel(seed: number, n: number, budget: number, density: number): SelectionModel {
  const r = rng(seed);
  const rel = Array.from({ length: n }, (_, i) => Math.max(1e-4, (1 - i / n) * r()));
  rel.sort((a, b) => b - a);
  const pairs: SelectionModel['pairs'] = [];
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (r() < density) pairs.push({ i, j, w: 0.2 + 1.8 * r() });
  return { rel, pairs, budget, lambda: 0.5 / Math.max(1, budget - 1) };
}

/** Every subset of exactly `k` of `n` indices (small n only). */
function* subsets(n: number, k: number, start = 0, acc: number[] = []): Generator<number[]> {
  if (acc.length === k) {
    yield [...acc];
    return;
  }
  for (let i = start; i <= n - (k - acc.length); i++) {
    acc.push(i);
    yield* subsets(n, k, i + 1, acc);
    acc.pop();
  }
}

describe('solveSelectionExact', () => {
  it('prefers a joinable pair over a slightly more relevant loner, like the MIP', () => {
    const m = { rel: [0.9, 0.8, 0.7], pairs: [{ i: 1, j: 2, w: 1 }], budget: 2, lambda: 0.5 };
    expect(solveSelectionExact(m)).toMatchObject({ chosen: [1, 2], value: 2.0, exhausted: false });
    expect(solveSelectionExact({ ...m, lambda: 0.1 }).chosen).toEqual([0, 1]);
  });

  it('finds the brute-force optimum on small random models', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const n = 8 + (seed % 5);
      const m = randomModel(seed, n, 2 + (seed % 4), 0.15 + (seed % 3) * 0.2);
      let best = -Infinity;
      for (const s of subsets(n, m.budget)) best = Math.max(best, selectionValue(m, s));
      const got = solveSelectionExact(m);
      expect(got.chosen).toHaveLength(m.budget);
      expect(got.value).toBeCloseTo(best, 12);
      expect(selectionValue(m, got.chosen)).toBeCloseTo(got.value, 12);
    }
  });

  it('reaches the same optimum as the HiGHS MIP on jar-sized models (30 and 45 candidates)', async () => {
    for (const [seed, n, budget, density] of [[101, 30, 10, 0.15], [102, 30, 10, 0.35], [103, 30, 5, 0.3], [104, 45, 15, 0.1], [105, 30, 10, 0.05]] as const) {
      const m = randomModel(seed, n, budget, density);
      const mip = await solveSelection(m, 60);
      expect(mip.fallback).toBe(false);
      const got = solveSelectionExact(m);
      // HiGHS stops at a 1e-4 relative gap; the exact optimum is never below its answer.
      expect(got.value).toBeGreaterThanOrEqual(selectionValue(m, mip.chosen) - 1e-9);
      expect(got.value).toBeLessThanOrEqual(selectionValue(m, mip.chosen) * (1 + 1e-4) + 1e-9);
      expect(got.exhausted).toBe(false);
    }
  }, 120_000);

  it('breaks ties towards better-ranked candidates and returns everything when n <= L', () => {
    // Candidates 1..4 tie at the floor relevance and have no links: ranks 1 and 2 are taken.
    const tie = { rel: [0.5, 1e-4, 1e-4, 1e-4, 1e-4], pairs: [], budget: 3, lambda: 0.25 };
    expect(solveSelectionExact(tie).chosen).toEqual([0, 1, 2]);
    const few = { rel: [0.2, 0.6], pairs: [{ i: 0, j: 1, w: 1 }], budget: 5, lambda: 0.25 };
    expect(solveSelectionExact(few)).toMatchObject({ chosen: [1, 0], value: 1.05, nodes: 0 });
    expect(solveSelectionExact({ ...few, budget: 0 }).chosen).toEqual([]);
  });

  it('stops at the node cap with a full, valid set and says so', () => {
    const m = randomModel(7, 40, 12, 0.5);
    const capped = solveSelectionExact(m, 5);
    expect(capped.exhausted).toBe(true);
    expect(capped.chosen).toHaveLength(12);
    expect(new Set(capped.chosen).size).toBe(12);
    expect(capped.value).toBeCloseTo(selectionValue(m, capped.chosen), 12);
    const full = solveSelectionExact(m);
    expect(full.exhausted).toBe(false);
    expect(full.value).toBeGreaterThanOrEqual(capped.value);
  });

  it('solves the model selectionLp writes (one model, two encodings)', () => {
    const m = { rel: [0.5, 0.4, 0.3, 0.2], pairs: [{ i: 0, j: 1, w: 1 }, { i: 2, j: 3, w: 2 }], budget: 2, lambda: 1 };
    expect(selectionLp(m)).toContain('card: x0 + x1 + x2 + x3 <= 2');
    expect(solveSelectionExact(m).chosen).toEqual([2, 3]); // 0.5 + 2 = 2.5 > 0.9 + 1
  });
});
