/**
 * MinHash signatures over normalised value sets.
 *
 * One 32-bit hash per value (FNV-1a of the UTF-8 text), then `numPerm` universal hash
 * permutations h_i(x) = (a_i * x + b_i) mod p with p = 2^31 - 1 and fixed seeded (a_i, b_i),
 * so signatures are comparable across processes and runs. The empty set has every slot at
 * EMPTY_SLOT.
 */

export const DEFAULT_NUM_PERM = 128;
const PRIME = 2147483647; // 2^31 - 1
export const EMPTY_SLOT = PRIME;

/**
 * The key a cell is counted and MinHashed under (distinct counts, MinHash, HyperLogLog): trimmed,
 * lower-cased, integral floats without ".0", so the same values give the same sketches across
 * CSV, Parquet and SQLite. Not the value index's form (`normaliseValue` in src/text), which
 * splits a value into words for matching question n-grams.
 */
export function cellKey(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return String(value);
    return Number.isInteger(value) ? String(value) : String(value);
  }
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.toISOString();
  let s = String(value).trim().toLowerCase();
  if (s === '') return null;
  // "12.0" and "12" are the same key across CSV (text) and Parquet (double) sources.
  if (/^-?\d+\.0+$/.test(s)) s = s.replace(/\.0+$/, '');
  return s;
}

/** 32-bit FNV-1a over the UTF-16 code units of `s` (stable, fast, dependency-free). */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function mulmod(a: number, b: number, m: number): number {
  // a, b < 2^31: split b to stay inside 2^53.
  const bh = Math.floor(b / 65536);
  const bl = b % 65536;
  return ((((a * bh) % m) * 65536) % m + (a * bl) % m) % m;
}

function permutations(numPerm: number): Array<[number, number]> {
  // Deterministic LCG so every process derives the same permutations.
  let state = 0x2545f491;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state;
  };
  const out: Array<[number, number]> = [];
  for (let i = 0; i < numPerm; i++) out.push([(next() % (PRIME - 1)) + 1, next() % PRIME]);
  return out;
}

const permCache = new Map<number, Array<[number, number]>>();

export class MinHash {
  readonly signature: Uint32Array;
  private readonly perms: Array<[number, number]>;

  constructor(readonly numPerm = DEFAULT_NUM_PERM) {
    let perms = permCache.get(numPerm);
    if (!perms) permCache.set(numPerm, (perms = permutations(numPerm)));
    this.perms = perms;
    this.signature = new Uint32Array(numPerm).fill(EMPTY_SLOT);
  }

  /** Add an already-normalised value. */
  add(value: string): void {
    const x = hash32(value) % PRIME;
    const sig = this.signature;
    for (let i = 0; i < this.perms.length; i++) {
      const [a, b] = this.perms[i];
      const h = (mulmod(a, x, PRIME) + b) % PRIME;
      if (h < sig[i]) sig[i] = h;
    }
  }

  toArray(): number[] {
    return Array.from(this.signature);
  }
}

export function isEmptySignature(sig: ArrayLike<number>): boolean {
  for (let i = 0; i < sig.length; i++) if (sig[i] !== EMPTY_SLOT) return false;
  return true;
}

/** Estimated Jaccard similarity of the two value sets. */
export function jaccard(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`MinHash length mismatch: ${a.length} vs ${b.length}`);
  if (isEmptySignature(a) || isEmptySignature(b)) return 0;
  let eq = 0;
  for (let i = 0; i < a.length; i++) if (a[i] === b[i]) eq++;
  return eq / a.length;
}

/**
 * Estimated containment |A ∩ B| / |A|. In each permutation the smallest value of A ∪ B is A's
 * when a[i] <= b[i], and it is in B as well when a[i] === b[i]: of the permutations whose
 * minimum falls in A, the share that is also B's estimates |A ∩ B| / |A| with no set size
 * involved, and for a set contained in the other that share is exactly 1 (no permutation has
 * a[i] < b[i]).
 * The Jaccard estimate through the sizes (|A ∩ B| = J (|A| + |B|) / (1 + J), capped at the
 * smaller set) counts only the permutations whose minimum is in both: for a small A in a large B
 * (two City_IDs in a 13-city key) those are few, and it read 0.83 for a full containment. The
 * Jaccard estimate stays as a prior worth `CONTAINMENT_PRIOR_PERMUTATIONS` permutations, for
 * the pairs where few minima fall in A (a set much smaller than the other).
 */
export function containment(a: ArrayLike<number>, sizeA: number, b: ArrayLike<number>, sizeB: number): number {
  if (sizeA <= 0 || sizeB <= 0) return 0;
  if (a.length !== b.length) throw new Error(`MinHash length mismatch: ${a.length} vs ${b.length}`);
  if (isEmptySignature(a) || isEmptySignature(b)) return 0;
  let inA = 0;
  let inBoth = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] < b[i]) inA++;
    else if (a[i] === b[i]) inBoth++;
  }
  const j = inBoth / a.length;
  const fromJaccard = Math.max(0, Math.min((j * (sizeA + sizeB)) / (1 + j), sizeA, sizeB) / sizeA);
  return (inBoth + CONTAINMENT_PRIOR_PERMUTATIONS * fromJaccard) / (inA + inBoth + CONTAINMENT_PRIOR_PERMUTATIONS);
}

/** How many permutations' worth the Jaccard estimate of containment weighs (see `containment`). */
export const CONTAINMENT_PRIOR_PERMUTATIONS = 4;
