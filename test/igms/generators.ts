/** Random IGMS instances (fast-check) and brute-force set-function checks shared by the tests. */
import fc from 'fast-check';
import { intentLaplacian, type IgmsPrior, type PieceModelOptions, type PieceUnit } from '../../src/igms/index.js';

export const unitDouble = fc.double({ min: 0, max: 1, noNaN: true });
/** Supports with exact zeros mixed in (units that do not touch some atoms). */
export const supportValue = fc.oneof(fc.constant(0), unitDouble, fc.constant(1));

export function priorArb(numAtoms: number): fc.Arbitrary<IgmsPrior | undefined> {
  if (numAtoms < 2) return fc.constant(undefined);
  const edge = fc.tuple(fc.nat(numAtoms - 1), fc.nat(numAtoms - 1), fc.double({ min: 0.1, max: 2, noNaN: true }));
  return fc.option(
    fc.record({ edges: fc.array(edge, { minLength: 1, maxLength: 2 * numAtoms }), kappa: fc.double({ min: 0, max: 3, noNaN: true }) }).map(
      ({ edges, kappa }) => ({ laplacian: intentLaplacian(numAtoms, edges), kappa }),
    ),
    { nil: undefined },
  );
}

export interface PieceInstance {
  numAtoms: number;
  units: PieceUnit[];
  options: PieceModelOptions;
}

/**
 * Random content-piece instance: n units over a atoms, content drawn from a shared pool of
 * pieces with fixed masses (so the Gram matrix of content shares is a random redundancy
 * matrix), some units exact duplicates of others, optional GMRF prior.
 */
export function pieceInstanceArb(opts: { minUnits?: number; maxUnits?: number; maxAtoms?: number; withPrior?: boolean } = {}): fc.Arbitrary<PieceInstance> {
  const minUnits = opts.minUnits ?? 2;
  const maxUnits = opts.maxUnits ?? 6;
  const maxAtoms = opts.maxAtoms ?? 4;
  return fc
    .record({
      n: fc.integer({ min: minUnits, max: maxUnits }),
      a: fc.integer({ min: 1, max: maxAtoms }),
      poolSize: fc.integer({ min: 1, max: 5 }),
    })
    .chain(({ n, a, poolSize }) =>
      fc.record({
        numAtoms: fc.constant(a),
        masses: fc.array(fc.double({ min: 0.2, max: 2, noNaN: true }), { minLength: poolSize, maxLength: poolSize }),
        supports: fc.array(fc.array(supportValue, { minLength: a, maxLength: a }), { minLength: n, maxLength: n }),
        memberships: fc.array(fc.array(fc.boolean(), { minLength: poolSize, maxLength: poolSize }), { minLength: n, maxLength: n }),
        duplicateOf: fc.array(fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, { arbitrary: fc.nat(n - 1), weight: 1 }), { minLength: n, maxLength: n }),
        prior: opts.withPrior === false ? fc.constant(undefined) : priorArb(a),
        s0: fc.double({ min: 0.3, max: 2, noNaN: true }),
        psi: fc.oneof(fc.constant(0), fc.double({ min: 0.1, max: 4, noNaN: true })),
      }),
    )
    .map(({ numAtoms, masses, supports, memberships, duplicateOf, prior, s0, psi }) => {
      const units: PieceUnit[] = supports.map((support, i) => ({
        id: `u${i}`,
        support,
        content: memberships[i].flatMap((on, p) => (on ? [{ piece: `p${p}`, mass: masses[p] }] : [])),
      }));
      duplicateOf.forEach((src, i) => {
        if (src !== undefined && src !== i) units[i] = { ...units[src], id: `u${i}` };
      });
      return { numAtoms, units, options: { noiseScale: s0, contentNoise: psi, prior } };
    });
}

/** Random Gram-matrix noise covariance C = s0² I + G Gᵀ (G rows unit-norm, any sign) and M. */
export function gaussianInstanceArb(opts: { maxUnits?: number; maxAtoms?: number; diagonal?: boolean } = {}) {
  const maxUnits = opts.maxUnits ?? 6;
  const maxAtoms = opts.maxAtoms ?? 4;
  return fc
    .record({ n: fc.integer({ min: 1, max: maxUnits }), a: fc.integer({ min: 1, max: maxAtoms }), r: fc.integer({ min: 1, max: 4 }) })
    .chain(({ n, a, r }) =>
      fc.record({
        M: fc.array(fc.array(supportValue, { minLength: a, maxLength: a }), { minLength: n, maxLength: n }),
        G: fc.array(fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: r, maxLength: r }), { minLength: n, maxLength: n }),
        s0: fc.double({ min: 0.3, max: 2, noNaN: true }),
        prior: priorArb(a),
        numAtoms: fc.constant(a),
      }),
    )
    .map(({ M, G, s0, prior, numAtoms }) => {
      const n = M.length;
      const unit = G.map((g) => {
        const norm = Math.hypot(...g);
        return norm > 1e-6 ? g.map((v) => v / norm) : g.map(() => 0);
      });
      const C = unit.map((gi, i) =>
        unit.map((gk, k) => {
          if (i === k) return 1 + s0 * s0;
          if (opts.diagonal) return 0;
          return gi.reduce((s, v, t) => s + v * gk[t], 0);
        }),
      );
      return { M, C, prior, numAtoms, n };
    });
}

/** Rows/columns of a square matrix restricted to `idx`. */
export function principal(C: number[][], idx: readonly number[]): number[][] {
  return idx.map((i) => idx.map((k) => C[i][k]));
}

/** Indices of the bits set in mask. */
export function maskIndices(mask: number, n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (mask & (1 << i)) out.push(i);
  return out;
}

/** Values of a set function on every subset of {0..n-1} (index = bit mask). */
export function allValues(n: number, f: (subset: number[]) => number): Float64Array {
  const out = new Float64Array(1 << n);
  for (let mask = 0; mask < 1 << n; mask++) out[mask] = f(maskIndices(mask, n));
  return out;
}

/** Largest violation of monotonicity: max over (S, x ∉ S) of U(S) − U(S ∪ {x}). */
export function monotonicityViolation(values: Float64Array, n: number): number {
  let worst = -Infinity;
  for (let mask = 0; mask < 1 << n; mask++) {
    for (let x = 0; x < n; x++) {
      if (mask & (1 << x)) continue;
      worst = Math.max(worst, values[mask] - values[mask | (1 << x)]);
    }
  }
  return worst;
}

/**
 * Largest violation of submodularity: max over T, y ∈ T, x ∉ T of
 * gain(x | T) − gain(x | T \ {y}) (diminishing returns for one-element steps, which is
 * equivalent to gain(x|S) >= gain(x|T) for all S ⊆ T).
 */
export function submodularityViolation(values: Float64Array, n: number): number {
  let worst = -Infinity;
  for (let T = 0; T < 1 << n; T++) {
    for (let x = 0; x < n; x++) {
      if (T & (1 << x)) continue;
      const gainT = values[T | (1 << x)] - values[T];
      for (let y = 0; y < n; y++) {
        if (!(T & (1 << y))) continue;
        const S = T & ~(1 << y);
        const gainS = values[S | (1 << x)] - values[S];
        worst = Math.max(worst, gainT - gainS);
      }
    }
  }
  return worst;
}
