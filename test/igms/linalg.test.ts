import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cholesky,
  choleskyExtend,
  choleskyRankOneUpdate,
  GrowingCholesky,
  IgmsInputError,
  inverseFromCholesky,
  logDetPD,
  Matrix,
  NotPositiveDefiniteError,
  solveCholesky,
  solveLower,
  solveLowerTranspose,
} from '../../src/igms/index.js';
import { ErrorCode, GraftError } from '../../src/util/errors.js';

/** B Bᵀ + ridge I for a random B: symmetric PD. */
const spdArb = (maxN = 6) =>
  fc.integer({ min: 1, max: maxN }).chain((n) =>
    fc
      .array(fc.double({ min: -2, max: 2, noNaN: true }), { minLength: n * n, maxLength: n * n })
      .map((b) => {
        const A = new Matrix(n, n);
        for (let i = 0; i < n; i++)
          for (let j = 0; j < n; j++) {
            let s = i === j ? 0.5 : 0;
            for (let k = 0; k < n; k++) s += b[i * n + k] * b[j * n + k];
            A.set(i, j, s);
          }
        return A;
      }),
  );

function multiplyLLt(L: Matrix): Matrix {
  const n = L.rows;
  const out = new Matrix(n, n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let k = 0; k < n; k++) s += L.get(i, k) * L.get(j, k);
      out.set(i, j, s);
    }
  return out;
}

function maxAbsDiff(a: Matrix, b: Matrix): number {
  let m = 0;
  for (let i = 0; i < a.data.length; i++) m = Math.max(m, Math.abs(a.data[i] - b.data[i]));
  return m;
}

describe('cholesky', () => {
  it('reconstructs random SPD matrices and is lower triangular', () => {
    fc.assert(
      fc.property(spdArb(), (A) => {
        const L = cholesky(A);
        for (let i = 0; i < A.rows; i++) for (let j = i + 1; j < A.rows; j++) expect(L.get(i, j)).toBe(0);
        expect(maxAbsDiff(multiplyLLt(L), A)).toBeLessThan(1e-9);
      }),
    );
  });

  it('throws a typed, GraftError-coded error naming the field when not PD', () => {
    const A = Matrix.fromRows([
      [1, 2],
      [2, 1],
    ]);
    let err: unknown;
    try {
      cholesky(A, 'C');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(NotPositiveDefiniteError);
    expect(err).toBeInstanceOf(GraftError);
    const e = err as NotPositiveDefiniteError;
    expect(e.code).toBe(ErrorCode.BAD_USER_INPUT);
    expect(e.field).toBe('C');
    expect(e.pivot).toBe(1);
    expect(e.message).toMatch(/^C: /);
    // singular (rank-deficient) is rejected too
    expect(() => cholesky(Matrix.fromRows([[1, 1], [1, 1]]))).toThrow(NotPositiveDefiniteError);
  });

  it('log det matches the 2x2 determinant', () => {
    const A = Matrix.fromRows([
      [4, 1],
      [1, 3],
    ]);
    expect(logDetPD(A)).toBeCloseTo(Math.log(11), 12);
  });
});

describe('triangular solves and inverse', () => {
  it('solveLower, solveLowerTranspose, solveCholesky and inverse satisfy their equations', () => {
    fc.assert(
      fc.property(spdArb(), fc.array(fc.double({ min: -3, max: 3, noNaN: true }), { minLength: 6, maxLength: 6 }), (A, bFull) => {
        const n = A.rows;
        const b = bFull.slice(0, n);
        const L = cholesky(A);
        const x1 = solveLower(L, b);
        const x2 = solveLowerTranspose(L, b);
        const x3 = solveCholesky(L, b);
        for (let i = 0; i < n; i++) {
          let s1 = 0;
          let s2 = 0;
          let s3 = 0;
          for (let k = 0; k < n; k++) {
            s1 += L.get(i, k) * x1[k];
            s2 += L.get(k, i) * x2[k];
            s3 += A.get(i, k) * x3[k];
          }
          expect(s1).toBeCloseTo(b[i], 8);
          expect(s2).toBeCloseTo(b[i], 8);
          expect(s3).toBeCloseTo(b[i], 7);
        }
        const inv = inverseFromCholesky(L);
        for (let i = 0; i < n; i++)
          for (let j = 0; j < n; j++) {
            let s = 0;
            for (let k = 0; k < n; k++) s += A.get(i, k) * inv.get(k, j);
            expect(s).toBeCloseTo(i === j ? 1 : 0, 7);
          }
      }),
    );
  });
});

describe('rank-one update and extension', () => {
  it('choleskyRankOneUpdate gives the factor of A + x xᵀ', () => {
    fc.assert(
      fc.property(spdArb(), fc.array(fc.double({ min: -2, max: 2, noNaN: true }), { minLength: 6, maxLength: 6 }), (A, xFull) => {
        const n = A.rows;
        const x = Float64Array.from(xFull.slice(0, n));
        const updated = A.clone();
        for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) updated.set(i, j, A.get(i, j) + x[i] * x[j]);
        const L = cholesky(A);
        choleskyRankOneUpdate(L, x.slice());
        expect(maxAbsDiff(L, cholesky(updated))).toBeLessThan(1e-9);
      }),
    );
  });

  it('choleskyExtend and GrowingCholesky match a fresh factorisation of the bordered matrix', () => {
    fc.assert(
      fc.property(spdArb(7), (A) => {
        const n = A.rows;
        if (n < 2) return;
        const inner = new Matrix(n - 1, n - 1);
        for (let i = 0; i < n - 1; i++) for (let j = 0; j < n - 1; j++) inner.set(i, j, A.get(i, j));
        const c = Array.from({ length: n - 1 }, (_, i) => A.get(n - 1, i));
        const ext = choleskyExtend(cholesky(inner), c, A.get(n - 1, n - 1));
        const full = cholesky(A);
        expect(maxAbsDiff(ext, full)).toBeLessThan(1e-9);

        const g = new GrowingCholesky();
        for (let k = 0; k < n; k++) g.extend(Array.from({ length: k }, (_, i) => A.get(k, i)), A.get(k, k));
        expect(maxAbsDiff(g.toMatrix(), full)).toBeLessThan(1e-9);
        expect(g.logDet()).toBeCloseTo(logDetPD(A), 9);
      }),
    );
  });

  it('extension rejects a column that makes the matrix singular, without mutating', () => {
    const g = new GrowingCholesky();
    g.extend([], 2);
    expect(() => g.condition([2], 2, 'unit.covWithSelected')).toThrow(/unit.covWithSelected: matrix is not positive definite/);
    expect(() => g.extend([3], 2)).toThrow(NotPositiveDefiniteError);
    expect(g.size).toBe(1);
    expect(() => g.condition([1, 2], 2)).toThrow(IgmsInputError);
  });
});

describe('Matrix.fromRows', () => {
  it('names the offending entry', () => {
    expect(() => Matrix.fromRows([[1, 2], [3]], 'M')).toThrow(/^M\[1\]: expected 2 entries/);
    expect(() => Matrix.fromRows([[1, Number.NaN]], 'M')).toThrow(/^M\[0\]\[1\]: not a finite number/);
  });
});
