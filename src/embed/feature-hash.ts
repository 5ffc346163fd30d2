/**
 * 32-bit MurmurHash3-style hash over UTF-16 code units. Pure integer arithmetic (Math.imul),
 * so the same string hashes to the same value on every platform and in every process.
 */
export function hashString(text: string, seed: number): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    let k = Math.imul(text.charCodeAt(i), 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  h ^= text.length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const INDEX_SEED = 0x9747b28c;
const SIGN_SEED = 0x5bd1e995;
/** Each feature is spread over this many signed slots (see README: fewer heavy collisions). */
export const SLOTS_PER_FEATURE = 4;
const SLOT_SCALE = 1 / Math.sqrt(SLOTS_PER_FEATURE);

/**
 * Adds `weight` times the feature's pseudo-random sparse ±1 pattern to `acc` (length must be a
 * power of two). Two hash functions: one picks the slots (double hashing with an odd step, so
 * the slots of one feature are distinct), the other picks their signs, so collisions between
 * different features cancel in expectation instead of piling up.
 */
export function addHashedFeature(acc: Float64Array, feature: string, weight: number): void {
  const mask = acc.length - 1;
  const h1 = hashString(feature, INDEX_SEED);
  const h2 = hashString(feature, SIGN_SEED);
  const step = ((h2 >>> 24) << 1) | 1;
  const w = weight * SLOT_SCALE;
  for (let j = 0; j < SLOTS_PER_FEATURE; j++) {
    const index = (h1 + j * step) & mask;
    acc[index] += (h2 >>> j) & 1 ? w : -w;
  }
}
