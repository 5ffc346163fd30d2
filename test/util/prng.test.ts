import { describe, expect, it } from 'vitest';
import { mulberry32, shuffle } from '../../src/util/prng.js';

describe('shuffle', () => {
  it('permutes a copy, the same way for the same seed, and leaves the input alone', () => {
    const xs = Array.from({ length: 20 }, (_, i) => i);
    const a = shuffle(xs, mulberry32(1));
    expect(xs).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect([...a].sort((x, y) => x - y)).toEqual(xs);
    expect(a).not.toEqual(xs);
    expect(shuffle(xs, mulberry32(1))).toEqual(a);
    expect(shuffle(xs, mulberry32(2))).not.toEqual(a);
    expect(shuffle([], mulberry32(1))).toEqual([]);
  });
});
