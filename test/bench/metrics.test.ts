import { describe, expect, it } from 'vitest';
import { latencySummary, macroAverage, percentile, questionMetrics } from '../../src/bench/metrics.js';

describe('questionMetrics', () => {
  it('scores a partial answer by hand', () => {
    // gold {a, b, c}; retrieved a, x, b, y: 2 hits -> R 2/3, P 2/4, F1 = 2*(2/3*1/2)/(2/3+1/2) = 4/7
    const m = questionMetrics(['a', 'x', 'b', 'y'], ['a', 'b', 'c']);
    expect(m.recall).toBeCloseTo(2 / 3, 12);
    expect(m.precision).toBeCloseTo(0.5, 12);
    expect(m.f1).toBeCloseTo(4 / 7, 12);
    expect(m.sufficiency).toBe(0);
    expect(m.returned).toBe(4);
  });

  it('is sufficient only when every gold table is returned', () => {
    const m = questionMetrics(['s1', 's2', 'other'], ['s1', 's2']);
    expect(m).toMatchObject({ recall: 1, sufficiency: 1, returned: 3 });
    expect(m.precision).toBeCloseTo(2 / 3, 12);
    expect(m.f1).toBeCloseTo(0.8, 12);
  });

  it('handles empty answers, misses and duplicates', () => {
    expect(questionMetrics([], ['a'])).toEqual({ recall: 0, precision: 0, f1: 0, sufficiency: 0, returned: 0 });
    expect(questionMetrics(['x', 'y'], ['a'])).toEqual({ recall: 0, precision: 0, f1: 0, sufficiency: 0, returned: 2 });
    // a duplicate counts once: {a} of {a} -> perfect
    expect(questionMetrics(['a', 'a'], ['a'])).toEqual({ recall: 1, precision: 1, f1: 1, sufficiency: 1, returned: 1 });
  });
});

describe('macroAverage', () => {
  it('averages per question, not per table', () => {
    const rows = [questionMetrics(['a'], ['a']), questionMetrics(['x'], ['a', 'b', 'c', 'd'])];
    const m = macroAverage(rows);
    expect(m.questions).toBe(2);
    expect(m.recall).toBeCloseTo(0.5, 12);
    expect(m.precision).toBeCloseTo(0.5, 12);
    expect(m.f1).toBeCloseTo(0.5, 12);
    expect(m.sufficiency).toBeCloseTo(0.5, 12);
    expect(m.avgReturned).toBe(1);
    expect(macroAverage([])).toMatchObject({ questions: 0, f1: 0 });
  });
});

describe('percentiles', () => {
  it('uses the nearest rank', () => {
    const xs = [5, 1, 4, 2, 3, 6, 7, 8, 9, 10];
    expect(percentile(xs, 50)).toBe(5);
    expect(percentile(xs, 95)).toBe(10);
    expect(percentile(xs, 10)).toBe(1);
    expect(percentile([], 50)).toBe(0);
    expect(latencySummary([1, 2, 3, 100])).toEqual({ p50: 2, p95: 100, mean: 26.5 });
  });
});
