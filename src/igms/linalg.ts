/**
 * Small dense linear algebra on Float64Array, just enough for IGMS: Cholesky, log-det,
 * triangular solves, rank-one updates and row/column extension of a factor.
 *
 * Matrices are row-major. All factors are lower triangular (A = L Lᵀ).
 */
import { IgmsInputError, NotPositiveDefiniteError } from './errors.js';

/**
 * Relative pivot floor: a pivot d_j <= PIVOT_RTOL * max(|A_jj|, tiny) is treated as "not PD".
 * Loose enough to accept near-duplicates (pivot ~1e-9 relative), tight enough to reject
 * rank-deficient input whose pivots are rounding noise.
 */
export const PIVOT_RTOL = 1e-13;
const TINY = 1e-300;

export class Matrix {
  readonly data: Float64Array;

  constructor(
    readonly rows: number,
    readonly cols: number,
    data?: Float64Array,
  ) {
    if (data && data.length !== rows * cols) {
      throw new IgmsInputError('matrix', `data length ${data.length} != ${rows}x${cols}`);
    }
    this.data = data ?? new Float64Array(rows * cols);
  }

  static identity(n: number): Matrix {
    const m = new Matrix(n, n);
    for (let i = 0; i < n; i++) m.data[i * n + i] = 1;
    return m;
  }

  /**
   * Copy of a rectangular array of finite numbers. `cols` is required when there are no rows.
   * Throws IgmsInputError naming `field[i][j]` for ragged rows or non-finite entries.
   */
  static fromRows(a: ArrayLike<ArrayLike<number>>, field = 'matrix', cols?: number): Matrix {
    const rows = a.length;
    const c = cols ?? (rows > 0 ? a[0].length : 0);
    const m = new Matrix(rows, c);
    for (let i = 0; i < rows; i++) {
      const row = a[i];
      if (!row || row.length !== c) {
        throw new IgmsInputError(`${field}[${i}]`, `expected ${c} entries, got ${row ? row.length : 'none'}`);
      }
      for (let j = 0; j < c; j++) {
        const v = row[j];
        if (typeof v !== 'number' || !Number.isFinite(v)) {
          throw new IgmsInputError(`${field}[${i}][${j}]`, `not a finite number (${String(v)})`);
        }
        m.data[i * c + j] = v;
      }
    }
    return m;
  }

  get(i: number, j: number): number {
    return this.data[i * this.cols + j];
  }

  set(i: number, j: number, v: number): void {
    this.data[i * this.cols + j] = v;
  }

  clone(): Matrix {
    return new Matrix(this.rows, this.cols, this.data.slice());
  }

  toRows(): number[][] {
    const out: number[][] = [];
    for (let i = 0; i < this.rows; i++) out.push(Array.from(this.data.subarray(i * this.cols, (i + 1) * this.cols)));
    return out;
  }
}

/** Throws IgmsInputError unless A is square and symmetric to `tol` (relative to the entry size). */
export function assertSymmetric(A: Matrix, field = 'matrix', tol = 1e-10): void {
  if (A.rows !== A.cols) throw new IgmsInputError(field, `expected a square matrix, got ${A.rows}x${A.cols}`);
  const n = A.rows;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < i; j++) {
      const a = A.data[i * n + j];
      const b = A.data[j * n + i];
      if (Math.abs(a - b) > tol * Math.max(1, Math.abs(a), Math.abs(b))) {
        throw new IgmsInputError(`${field}[${i}][${j}]`, `not symmetric (${a} vs ${b})`);
      }
    }
  }
}

/**
 * Lower Cholesky factor L with A = L Lᵀ (reads the lower triangle of A). O(n³/3).
 * Throws NotPositiveDefiniteError(field, pivot, value) when A is not (numerically) PD.
 */
export function cholesky(A: Matrix, field = 'matrix'): Matrix {
  if (A.rows !== A.cols) throw new IgmsInputError(field, `expected a square matrix, got ${A.rows}x${A.cols}`);
  const n = A.rows;
  const a = A.data;
  const L = new Matrix(n, n);
  const l = L.data;
  for (let j = 0; j < n; j++) {
    let d = a[j * n + j];
    for (let k = 0; k < j; k++) d -= l[j * n + k] * l[j * n + k];
    if (!(d > PIVOT_RTOL * Math.max(Math.abs(a[j * n + j]), TINY))) {
      throw new NotPositiveDefiniteError(field, j, d);
    }
    const ljj = Math.sqrt(d);
    l[j * n + j] = ljj;
    for (let i = j + 1; i < n; i++) {
      let s = a[i * n + j];
      for (let k = 0; k < j; k++) s -= l[i * n + k] * l[j * n + k];
      l[i * n + j] = s / ljj;
    }
  }
  return L;
}

/** log det A from its Cholesky factor: 2 Σ log L_jj. O(n). */
export function logDetFromCholesky(L: Matrix): number {
  let s = 0;
  for (let j = 0; j < L.rows; j++) s += Math.log(L.data[j * L.cols + j]);
  return 2 * s;
}

/** log det of a symmetric PD matrix (throws NotPositiveDefiniteError otherwise). O(n³/3). */
export function logDetPD(A: Matrix, field = 'matrix'): number {
  return logDetFromCholesky(cholesky(A, field));
}

/** Solves L x = b (forward substitution) for lower-triangular L. O(n²). */
export function solveLower(L: Matrix, b: ArrayLike<number>): Float64Array {
  const n = L.rows;
  const l = L.data;
  const x = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = b[i];
    for (let k = 0; k < i; k++) s -= l[i * n + k] * x[k];
    x[i] = s / l[i * n + i];
  }
  return x;
}

/** Solves Lᵀ x = b (back substitution) for lower-triangular L. O(n²). */
export function solveLowerTranspose(L: Matrix, b: ArrayLike<number>): Float64Array {
  const n = L.rows;
  const l = L.data;
  const x = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let s = b[i];
    for (let k = i + 1; k < n; k++) s -= l[k * n + i] * x[k];
    x[i] = s / l[i * n + i];
  }
  return x;
}

/** Solves A x = b given A's Cholesky factor L. O(n²). */
export function solveCholesky(L: Matrix, b: ArrayLike<number>): Float64Array {
  return solveLowerTranspose(L, solveLower(L, b));
}

/** A⁻¹ from the Cholesky factor of A. O(n³). */
export function inverseFromCholesky(L: Matrix): Matrix {
  const n = L.rows;
  const inv = new Matrix(n, n);
  const e = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    e.fill(0);
    e[j] = 1;
    const col = solveCholesky(L, e);
    for (let i = 0; i < n; i++) inv.data[i * n + j] = col[i];
  }
  return inv;
}

/**
 * In-place rank-one update: afterwards L Lᵀ = (old L Lᵀ) + x xᵀ. `x` is used as scratch and
 * overwritten. O(n²). Always succeeds for a valid factor (adding a PSD term keeps PD).
 */
export function choleskyRankOneUpdate(L: Matrix, x: Float64Array): void {
  const n = L.rows;
  const l = L.data;
  for (let k = 0; k < n; k++) {
    const xk = x[k];
    if (xk === 0) continue; // rotation is the identity
    const lkk = l[k * n + k];
    const r = Math.hypot(lkk, xk);
    const c = r / lkk;
    const s = xk / lkk;
    l[k * n + k] = r;
    for (let i = k + 1; i < n; i++) {
      const lik = (l[i * n + k] + s * x[i]) / c;
      x[i] = c * x[i] - s * lik;
      l[i * n + k] = lik;
    }
  }
}

/**
 * The Schur step for extending a factor: for A' = [[A, c], [cᵀ, v]] with A = L Lᵀ, returns
 * z = L⁻¹ c and the squared new pivot v − zᵀz (the conditional variance of the new variable
 * given the old ones). O(n²). Does not check the pivot.
 */
export function schurStep(L: Matrix, c: ArrayLike<number>, v: number): { z: Float64Array; pivotSq: number } {
  const z = solveLower(L, c);
  let s = v;
  for (let i = 0; i < z.length; i++) s -= z[i] * z[i];
  return { z, pivotSq: s };
}

/**
 * Cholesky factor of [[A, c], [cᵀ, v]] from the factor L of A, in O(n²): the old factor is
 * copied and one row [zᵀ, √(v − zᵀz)] is appended. Throws NotPositiveDefiniteError when the
 * extended matrix is not PD.
 */
export function choleskyExtend(L: Matrix, c: ArrayLike<number>, v: number, field = 'matrix'): Matrix {
  const n = L.rows;
  if (c.length !== n) throw new IgmsInputError(field, `expected ${n} covariances, got ${c.length}`);
  const { z, pivotSq } = schurStep(L, c, v);
  if (!(pivotSq > PIVOT_RTOL * Math.max(Math.abs(v), TINY))) throw new NotPositiveDefiniteError(field, n, pivotSq);
  const out = new Matrix(n + 1, n + 1);
  for (let i = 0; i < n; i++) out.data.set(L.data.subarray(i * n, i * n + i + 1), i * (n + 1));
  out.data.set(z, n * (n + 1));
  out.data[n * (n + 1) + n] = Math.sqrt(pivotSq);
  return out;
}

/**
 * A Cholesky factor that grows one row/column at a time without copying: rows are stored
 * ragged (row i holds i+1 entries), so `extend` costs O(n²) for the forward solve and nothing
 * for storage. This is the factor of C_S (noise covariance of the selected units) in IgmsState.
 */
export class GrowingCholesky {
  private readonly rowsData: Float64Array[] = [];

  get size(): number {
    return this.rowsData.length;
  }

  /** Row i of L (length i+1). */
  row(i: number): Float64Array {
    return this.rowsData[i];
  }

  /** z = L⁻¹ c. O(n²). */
  forwardSolve(c: ArrayLike<number>): Float64Array {
    const n = this.rowsData.length;
    const z = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const r = this.rowsData[i];
      let s = c[i];
      for (let k = 0; k < i; k++) s -= r[k] * z[k];
      z[i] = s / r[i];
    }
    return z;
  }

  /**
   * Conditioning without mutation: z = L⁻¹ c and the conditional variance v − zᵀz.
   * Throws NotPositiveDefiniteError(field) when the extended matrix would not be PD.
   */
  condition(c: ArrayLike<number>, v: number, field = 'covariance'): { z: Float64Array; conditionalVariance: number } {
    const n = this.rowsData.length;
    if (c.length !== n) throw new IgmsInputError(field, `expected ${n} covariances with the selected units, got ${c.length}`);
    if (!Number.isFinite(v)) throw new IgmsInputError(field, `variance is not finite (${v})`);
    const z = this.forwardSolve(c);
    let s = v;
    for (let i = 0; i < n; i++) s -= z[i] * z[i];
    if (!(s > PIVOT_RTOL * Math.max(Math.abs(v), TINY))) throw new NotPositiveDefiniteError(field, n, s);
    return { z, conditionalVariance: s };
  }

  /** Appends the row [zᵀ, √conditionalVariance] computed by `condition`. O(n). */
  push(z: Float64Array, conditionalVariance: number): void {
    const r = new Float64Array(z.length + 1);
    r.set(z);
    r[z.length] = Math.sqrt(conditionalVariance);
    this.rowsData.push(r);
  }

  /** Extends the factor with a new variable of covariance c with the old ones and variance v. O(n²). */
  extend(c: ArrayLike<number>, v: number, field = 'covariance'): void {
    const { z, conditionalVariance } = this.condition(c, v, field);
    this.push(z, conditionalVariance);
  }

  logDet(): number {
    let s = 0;
    for (let i = 0; i < this.rowsData.length; i++) s += Math.log(this.rowsData[i][i]);
    return 2 * s;
  }

  toMatrix(): Matrix {
    const n = this.rowsData.length;
    const m = new Matrix(n, n);
    for (let i = 0; i < n; i++) m.data.set(this.rowsData[i], i * n);
    return m;
  }

  clone(): GrowingCholesky {
    const out = new GrowingCholesky();
    for (const r of this.rowsData) out.rowsData.push(r.slice());
    return out;
  }
}
