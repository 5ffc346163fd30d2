/**
 * Locality-sensitive bucketing: each item is filed under a few numeric keys, and only items
 * sharing a key are ever compared. Keys are pure functions of one item, so candidate sets do
 * not depend on ingest order.
 */

/** key -> item handles, with removal (swap-remove; posting order is irrelevant). */
export class PostingIndex<K> {
  private readonly map = new Map<K, number[]>();

  add(key: K, handle: number): void {
    const list = this.map.get(key);
    if (list) list.push(handle);
    else this.map.set(key, [handle]);
  }

  remove(key: K, handle: number): void {
    const list = this.map.get(key);
    if (!list) return;
    const i = list.indexOf(handle);
    if (i < 0) return;
    list[i] = list[list.length - 1];
    list.pop();
    if (list.length === 0) this.map.delete(key);
  }

  get(key: K): readonly number[] | undefined {
    return this.map.get(key);
  }

  get keyCount(): number {
    return this.map.size;
  }
}

/**
 * Keys are 30-bit integers (fast Map keys): a mix of the band's content, the band number and
 * the block. A rare hash collision only adds a candidate pair, which verification rejects.
 */
function mix(h: number, x: number): number {
  h ^= x >>> 0;
  h = Math.imul(h, 0x01000193);
  h ^= h >>> 15;
  return h >>> 0;
}

function finishKey(content: number, band: number, block: number): number {
  let h = mix(0x811c9dc5, content);
  h = mix(h, band * 8 + block);
  h = Math.imul(h ^ (h >>> 13), 0x5bd1e995);
  return (h ^ (h >>> 16)) & 0x3fffffff;
}

/**
 * MinHash banding keys: band b covers slots [b*rows, (b+1)*rows). `block` (a type family)
 * keeps families in separate buckets.
 */
export function minhashBandKeys(sig: ArrayLike<number>, bands: number, rows: number, block = 0): number[] {
  const usable = Math.min(bands, Math.floor(sig.length / rows));
  const keys = new Array<number>(usable);
  for (let b = 0; b < usable; b++) {
    let content = 0x9747b28c;
    for (let i = b * rows; i < (b + 1) * rows; i++) content = mix(content, sig[i]);
    keys[b] = finishKey(content, b, block);
  }
  return keys;
}

const planeCache = new Map<string, Int8Array[]>();

/** Deterministic ±1 random hyperplanes (sign random projections preserve angles). */
function hyperplanes(dim: number, count: number): Int8Array[] {
  const cacheKey = `${dim}x${count}`;
  let planes = planeCache.get(cacheKey);
  if (planes) return planes;
  let state = 0x9e3779b9;
  planes = [];
  for (let p = 0; p < count; p++) {
    const plane = new Int8Array(dim);
    for (let i = 0; i < dim; i++) {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      plane[i] = state & 0x10000 ? 1 : -1;
    }
    planes.push(plane);
  }
  planeCache.set(cacheKey, planes);
  return planes;
}

/**
 * SimHash banding keys for a unit vector: `bands` bands of `bits` hyperplane signs. Two
 * vectors at angle θ agree on a bit with probability 1 - θ/π; with 16 x 8 a pair at cosine
 * 0.85 shares a band with probability ~0.98, at cosine 0.5 ~0.47.
 */
export function simhashBandKeys(vec: Float64Array, bands: number, bits: number, block = 0): number[] {
  const usableBands = bands;
  const usableBits = Math.min(bits, 30);
  const planes = hyperplanes(vec.length, usableBands * usableBits);
  const keys = new Array<number>(usableBands);
  for (let b = 0; b < usableBands; b++) {
    let code = 0;
    for (let k = 0; k < usableBits; k++) {
      const plane = planes[b * usableBits + k];
      let s = 0;
      for (let i = 0; i < vec.length; i++) s += plane[i] * vec[i];
      code = code * 2 + (s >= 0 ? 1 : 0);
    }
    keys[b] = finishKey(code, b, block);
  }
  return keys;
}
