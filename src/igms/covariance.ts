/**
 * Unit-level noise covariances for the general Gaussian form (igms.ts): diagonal 1 + s0²,
 * off-diagonals = content redundancy. Both constructions guarantee C is PD; neither makes U
 * submodular (correlated unit noise never does — use pieceModel.ts for that guarantee).
 */
import { IgmsInputError, NotPositiveDefiniteError } from './errors.js';
import { cholesky, Matrix } from './linalg.js';

function checkNoiseScale(s0: number): void {
  if (!(s0 > 0) || !Number.isFinite(s0)) throw new IgmsInputError('noiseScale', `must be finite and > 0 (${s0})`);
}

/**
 * C = s0² I + G Gᵀ with G the unit content vectors normalised to unit length (an all-zero
 * vector is private content: ρ = 0 with everyone). So C_ii = 1 + s0² and C_ik = cos(g_i, g_k).
 * PD for every input because s0² I is PD and G Gᵀ is PSD; C_S is a principal submatrix of
 * this one global matrix.
 */
export function covarianceFromContent(vectors: ReadonlyArray<ArrayLike<number>>, noiseScale = 1): number[][] {
  checkNoiseScale(noiseScale);
  const G = Matrix.fromRows(vectors, 'vectors');
  const n = G.rows;
  const r = G.cols;
  const unit: Float64Array[] = [];
  for (let i = 0; i < n; i++) {
    const row = G.data.slice(i * r, (i + 1) * r);
    let norm = 0;
    for (let k = 0; k < r; k++) norm += row[k] * row[k];
    norm = Math.sqrt(norm);
    if (norm > 0) for (let k = 0; k < r; k++) row[k] /= norm;
    unit.push(row);
  }
  const s2 = noiseScale * noiseScale;
  return unit.map((gi, i) =>
    unit.map((gk, k) => {
      if (i === k) return 1 + s2;
      let dot = 0;
      for (let t = 0; t < r; t++) dot += gi[t] * gk[t];
      return dot;
    }),
  );
}

/**
 * C = (1 + s0²) I + t R from a pairwise redundancy matrix (off-diagonals symmetrised and
 * clamped to [−1, 1]; the diagonal of `rho` is ignored). t = 1 when that is PD; otherwise the
 * off-diagonals are shrunk by the largest t in [0,1) that keeps C PD (bisection on Cholesky,
 * 50 steps; t = 0 gives the PD diagonal). Returns C and the shrink factor used.
 */
export function covarianceFromRedundancy(
  rho: ReadonlyArray<ArrayLike<number>>,
  noiseScale = 1,
): { C: number[][]; shrink: number } {
  checkNoiseScale(noiseScale);
  const R = Matrix.fromRows(rho, 'rho');
  if (R.rows !== R.cols) throw new IgmsInputError('rho', `expected a square matrix, got ${R.rows}x${R.cols}`);
  const n = R.rows;
  const diag = 1 + noiseScale * noiseScale;
  const off = new Matrix(n, n);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < n; k++) {
      if (i === k) continue;
      const v = (R.get(i, k) + R.get(k, i)) / 2;
      off.set(i, k, Math.max(-1, Math.min(1, v)));
    }
  }
  const build = (t: number): Matrix => {
    const C = new Matrix(n, n);
    for (let i = 0; i < n * n; i++) C.data[i] = t * off.data[i];
    for (let i = 0; i < n; i++) C.data[i * n + i] = diag;
    return C;
  };
  const isPD = (t: number): boolean => {
    try {
      cholesky(build(t), 'C');
      return true;
    } catch (e) {
      if (e instanceof NotPositiveDefiniteError) return false;
      throw e;
    }
  };
  let t = 1;
  if (!isPD(1)) {
    let lo = 0;
    let hi = 1;
    for (let it = 0; it < 50; it++) {
      const mid = (lo + hi) / 2;
      if (isPD(mid)) lo = mid;
      else hi = mid;
    }
    t = lo;
  }
  return { C: build(t).toRows(), shrink: t };
}
