import { describe, expect, it } from 'vitest';
import { memoInto } from '../../src/util/boundedMemo.js';

describe('memoInto', () => {
  it('computes a key once while the map holds it, undefined values included', () => {
    const map = new Map<string, number | undefined>();
    let calls = 0;
    const get = (k: string, v: number | undefined) => memoInto(map, k, 10, () => (calls++, v));
    expect(get('a', 1)).toBe(1);
    expect(get('a', 2)).toBe(1);
    expect(get('none', undefined)).toBeUndefined();
    expect(get('none', 3)).toBeUndefined();
    expect(calls).toBe(2);
  });

  it('never holds more than max entries: a full map is emptied before the next key', () => {
    const map = new Map<number, number>();
    for (let k = 0; k < 25; k++) memoInto(map, k, 10, () => k * k);
    expect(map.size).toBeLessThanOrEqual(10);
    // The newest key is kept, an early one was let go and is computed again.
    expect(map.get(24)).toBe(576);
    expect(map.has(0)).toBe(false);
    let again = 0;
    expect(memoInto(map, 0, 10, () => (again++, 0))).toBe(0);
    expect(again).toBe(1);
  });
});
