import { describe, expect, it } from 'vitest';
import { FastMinHash, createMinHash, fastMinHashAgrees } from '../../src/lake/fast-minhash.js';
import { MinHash, cellKey } from '../../src/sketch/minhash.js';

describe('FastMinHash', () => {
  it('produces bit-identical signatures to the reference MinHash', () => {
    let seed = 12345;
    const rnd = () => ((seed = (Math.imul(seed, 48271) + 11) >>> 0) / 2 ** 32);
    const values: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const kind = i % 4;
      if (kind === 0) values.push(String(Math.floor(rnd() * 1e9)));
      else if (kind === 1) values.push(cellKey(`Name ${Math.floor(rnd() * 1e6)}`)!);
      else if (kind === 2) values.push(String.fromCharCode(...Array.from({ length: 1 + Math.floor(rnd() * 20) }, () => Math.floor(rnd() * 0xffff))));
      else values.push((rnd() * 1000).toFixed(3));
    }
    // Value by value (each slot's min) and accumulated.
    for (const v of values.slice(0, 300)) {
      const r = new MinHash();
      const f = new FastMinHash();
      r.add(v);
      f.add(v);
      expect(f.toArray()).toEqual(r.toArray());
    }
    const ref = new MinHash();
    const fast = new FastMinHash();
    for (const v of values) {
      ref.add(v);
      fast.add(v);
    }
    expect(fast.toArray()).toEqual(ref.toArray());
  });

  it('is what profiling uses, after its self-check passes', () => {
    expect(fastMinHashAgrees()).toBe(true);
    expect(createMinHash()).toBeInstanceOf(FastMinHash);
  });
});
