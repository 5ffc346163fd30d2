import { describe, expect, it } from 'vitest';
import { HyperLogLog, hllEstimate } from '../../src/sketch/hll.js';
import { cellKey } from '../../src/sketch/minhash.js';

function sketchOf(values: Iterable<string>, precision?: number): HyperLogLog {
  const h = new HyperLogLog(precision);
  for (const v of values) h.add(v);
  return h;
}

function* range(from: number, to: number, prefix = ''): Generator<string> {
  for (let i = from; i < to; i++) yield `${prefix}${i}`;
}

describe('HyperLogLog', () => {
  it('estimates 100k distinct values within 5%', () => {
    const est = sketchOf(range(0, 100_000)).count();
    expect(Math.abs(est - 100_000) / 100_000).toBeLessThan(0.05);
  });

  it('stays within 5% for other value shapes and sizes', () => {
    for (const [n, prefix] of [
      [1_000, 'user-'],
      [25_000, 'k'],
      [250_000, ''],
    ] as const) {
      const est = sketchOf(range(0, n, prefix)).count();
      expect(Math.abs(est - n) / n, `n=${n}`).toBeLessThan(0.05);
    }
  });

  it('is near exact for small sets (linear counting) and ignores duplicates', () => {
    const h = new HyperLogLog();
    for (let rep = 0; rep < 5; rep++) for (const v of range(0, 50)) h.add(v);
    expect(Math.round(h.count())).toBe(50);
    expect(new HyperLogLog().count()).toBe(0);
  });

  it('counts normalised values, so 12 and "12.0" are one value', () => {
    const h = new HyperLogLog();
    for (const v of [12, '12.0', ' 12 ']) h.add(cellKey(v)!);
    expect(Math.round(h.count())).toBe(1);
  });

  it('merges as a set union', () => {
    const a = sketchOf(range(0, 60_000));
    const b = sketchOf(range(40_000, 100_000));
    a.merge(b);
    expect(Math.abs(a.count() - 100_000) / 100_000).toBeLessThan(0.05);
    expect(() => a.merge(new HyperLogLog(12))).toThrow(/precision mismatch/);
  });

  it('supports lower precision with the expected, larger error', () => {
    const est = sketchOf(range(0, 100_000), 12).count();
    expect(Math.abs(est - 100_000) / 100_000).toBeLessThan(0.08);
    expect(() => new HyperLogLog(3)).toThrow(RangeError);
  });

  it('hllEstimate reproduces count() from register sums', () => {
    const h = sketchOf(range(0, 30_000));
    let sum = 0;
    let zeros = 0;
    for (const r of h.registers) {
      sum += 2 ** -r;
      if (r === 0) zeros++;
    }
    expect(hllEstimate(h.registers.length, sum, zeros)).toBeCloseTo(h.count(), 6);
  });
});
