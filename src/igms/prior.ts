/**
 * The optional GMRF prior over intent atoms: precision Λ = I + κ L_G, with L_G the Laplacian
 * of the intent graph (each relation atom linked to its endpoint atoms). κ = 0, or no prior,
 * gives Λ = I and the plain IGMS formula. Λ is PD for every κ >= 0 because L_G is PSD.
 */
import { IgmsInputError } from './errors.js';
import { assertSymmetric, cholesky, logDetFromCholesky, Matrix } from './linalg.js';

export interface IgmsPrior {
  /** a x a graph Laplacian (symmetric, PSD: degree on the diagonal, −weight off it). */
  laplacian: ArrayLike<ArrayLike<number>>;
  /** Coupling strength κ >= 0; 0 disables the coupling. */
  kappa: number;
}

/** An edge of the intent graph between atom indices, with an optional weight (default 1). */
export type AtomEdge = readonly [number, number] | readonly [number, number, number];

/** Laplacian of the intent graph on `numAtoms` atoms from an edge list (weights >= 0). */
export function intentLaplacian(numAtoms: number, edges: readonly AtomEdge[]): number[][] {
  const L: number[][] = Array.from({ length: numAtoms }, () => new Array<number>(numAtoms).fill(0));
  edges.forEach((e, idx) => {
    const [i, j] = e;
    const w = e.length === 3 ? e[2] : 1;
    for (const v of [i, j]) {
      if (!Number.isInteger(v) || v < 0 || v >= numAtoms) {
        throw new IgmsInputError(`edges[${idx}]`, `atom index ${v} outside 0..${numAtoms - 1}`);
      }
    }
    if (!(w >= 0) || !Number.isFinite(w)) throw new IgmsInputError(`edges[${idx}]`, `weight must be finite and >= 0 (${w})`);
    if (i === j) return; // self-loops do not change a Laplacian
    L[i][i] += w;
    L[j][j] += w;
    L[i][j] -= w;
    L[j][i] -= w;
  });
  return L;
}

/** Λ = I + κ L_G (or I without a prior), validated. */
export function priorPrecision(numAtoms: number, prior?: IgmsPrior): Matrix {
  const lambda = Matrix.identity(numAtoms);
  if (!prior) return lambda;
  const { kappa } = prior;
  if (!Number.isFinite(kappa) || kappa < 0) throw new IgmsInputError('prior.kappa', `must be finite and >= 0 (${kappa})`);
  if (prior.laplacian.length !== numAtoms) {
    throw new IgmsInputError('prior.laplacian', `expected ${numAtoms} rows (one per atom), got ${prior.laplacian.length}`);
  }
  const Lg = Matrix.fromRows(prior.laplacian, 'prior.laplacian', numAtoms);
  assertSymmetric(Lg, 'prior.laplacian');
  for (let i = 0; i < numAtoms * numAtoms; i++) lambda.data[i] += kappa * Lg.data[i];
  return lambda;
}

/** Λ with its Cholesky factor and log det (throws NotPositiveDefiniteError('prior') if Λ is not PD). */
export function factorPrior(numAtoms: number, prior?: IgmsPrior): { lambda: Matrix; factor: Matrix; logDet: number } {
  const lambda = priorPrecision(numAtoms, prior);
  const factor = cholesky(lambda, 'prior');
  return { lambda, factor, logDet: logDetFromCholesky(factor) };
}
