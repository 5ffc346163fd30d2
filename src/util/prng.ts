/**
 * Seeded PRNG shared by the lake builder, the demo-lake generator and test fixtures: mulberry32 (32-bit state, period 2^32), the seed taken as
 * an unsigned 32-bit integer. Not cryptographic; chosen because it is tiny, fast and gives
 * bit-identical streams on every platform (pure 32-bit integer arithmetic), which is all the
 * benchmark's "same seed, same lake" promise needs.
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Integer in [lo, hi] (inclusive) from a uniform draw in [0, 1). */
export function drawInt(rand: () => number, lo: number, hi: number): number {
  return lo + Math.floor(rand() * (hi - lo + 1));
}

/** A shuffled copy of `xs` (Fisher-Yates from the end, one draw per position): the same for the same generator state. */
export function shuffle<T>(xs: readonly T[], rand: () => number): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = drawInt(rand, 0, i);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
