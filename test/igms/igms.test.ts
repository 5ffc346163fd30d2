import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cholesky,
  covarianceFromContent,
  covarianceFromRedundancy,
  igmsUtility,
  IgmsInputError,
  IgmsState,
  intentLaplacian,
  Matrix,
  NotPositiveDefiniteError,
  unitOf,
} from '../../src/igms/index.js';
import { allValues, gaussianInstanceArb, monotonicityViolation, principal, submodularityViolation } from './generators.js';

const U = (M: number[][], C: number[][], prior?: { laplacian: number[][]; kappa: number }) =>
  igmsUtility({ M, C, prior, numAtoms: M.length ? undefined : 1 });

describe('igmsUtility: hand cases', () => {
  it('one unit, one atom: U = log(1 + m²/(1 + s0²))', () => {
    for (const m of [0, 0.3, 0.7, 1]) {
      for (const s0 of [0.5, 1, 2]) {
        expect(U([[m]], [[1 + s0 * s0]])).toBeCloseTo(Math.log(1 + (m * m) / (1 + s0 * s0)), 12);
      }
    }
  });

  it('empty selection has utility 0', () => {
    expect(igmsUtility({ M: [], C: [], numAtoms: 3 })).toBe(0);
    expect(() => igmsUtility({ M: [], C: [] })).toThrow(IgmsInputError);
  });

  it('two identical units with (near) perfect redundancy are worth one unit', () => {
    const c = 2; // 1 + s0², s0 = 1
    const one = U([[1, 0.5]], [[c]]);
    const rho = c * (1 - 1e-9);
    const two = U(
      [
        [1, 0.5],
        [1, 0.5],
      ],
      [
        [c, rho],
        [rho, c],
      ],
    );
    expect(two).toBeCloseTo(one, 6);
    // and independent copies are worth strictly more
    const indep = U(
      [
        [1, 0.5],
        [1, 0.5],
      ],
      [
        [c, 0],
        [0, c],
      ],
    );
    expect(indep - one).toBeGreaterThan(0.05);
  });

  it('two complementary units supporting different atoms add up', () => {
    const c = 2;
    const M = [
      [0.9, 0],
      [0, 0.6],
    ];
    const C = [
      [c, 0],
      [0, c],
    ];
    const both = U(M, C);
    const first = U([M[0]], [[c]]);
    const second = U([M[1]], [[c]]);
    expect(both).toBeCloseTo(first + second, 12);
    expect(both).toBeCloseTo(0.5 * (Math.log(1 + 0.81 / c) + Math.log(1 + 0.36 / c)), 12);
  });

  it('a disjoint row shard (independent noise) adds its precision: log(1 + 2m²/c)', () => {
    const m = 0.8;
    const c = 2;
    expect(
      U(
        [[m], [m]],
        [
          [c, 0],
          [0, c],
        ],
      ),
    ).toBeCloseTo(Math.log(1 + (2 * m * m) / c), 12);
  });

  it('a duplicate with correlated noise gains much less than an independent unit with the same loading', () => {
    const c = 2;
    const m = [1, 0.7];
    const base = U([m], [[c]]);
    const dup = U([m, m], [
      [c, 1],
      [1, c],
    ]) - base;
    const indep = U([m, m], [
      [c, 0],
      [0, c],
    ]) - base;
    expect(dup).toBeLessThan(0.5 * indep);
  });

  it('GMRF prior: kappa = 0 is the plain formula; kappa > 0 changes U; bad priors are rejected', () => {
    const M = [[0.9, 0, 0.4]];
    const C = [[2]];
    const laplacian = intentLaplacian(3, [
      [2, 0],
      [2, 1],
    ]);
    expect(igmsUtility({ M, C, prior: { laplacian, kappa: 0 } })).toBeCloseTo(U(M, C), 14);
    expect(Math.abs(igmsUtility({ M, C, prior: { laplacian, kappa: 2 } }) - U(M, C))).toBeGreaterThan(1e-3);
    expect(() => igmsUtility({ M, C, prior: { laplacian, kappa: -1 } })).toThrow(/prior.kappa/);
    expect(() => igmsUtility({ M, C, prior: { laplacian: [[0]], kappa: 1 } })).toThrow(/prior.laplacian/);
  });

  it('rejects non-PD or asymmetric C and mismatched shapes, naming the field', () => {
    expect(() => U([[1], [1]], [
      [1, 2],
      [2, 1],
    ])).toThrow(NotPositiveDefiniteError);
    expect(() => U([[1], [1]], [
      [1, 0.5],
      [0.2, 1],
    ])).toThrow(/^C\[1\]\[0\]: not symmetric/);
    expect(() => U([[1], [1]], [[1, 0]])).toThrow(/^C: expected 2 rows/);
    expect(() => U([[1, 0], [1]], [
      [1, 0],
      [0, 1],
    ])).toThrow(/^M\[1\]/);
  });
});

describe('IgmsState: incremental == batch', () => {
  it('value after each add equals igmsUtility of the prefix, and gain() predicts add() without mutating', () => {
    fc.assert(
      fc.property(
        gaussianInstanceArb({ maxUnits: 7, maxAtoms: 5 }),
        fc.infiniteStream(fc.nat()),
        ({ M, C, prior, numAtoms, n }, stream) => {
          // a random order of the units
          const order = Array.from({ length: n }, (_, i) => i);
          const it = stream[Symbol.iterator]();
          for (let i = n - 1; i > 0; i--) {
            const j = (it.next().value as number) % (i + 1);
            [order[i], order[j]] = [order[j], order[i]];
          }
          const state = new IgmsState(numAtoms, { prior });
          expect(state.value()).toBe(0);
          const chosen: number[] = [];
          for (const i of order) {
            const unit = unitOf(M, C, i, chosen);
            const before = state.value();
            const g = state.gain(unit);
            expect(state.value()).toBe(before); // gain() does not mutate
            expect(state.gain(unit)).toBe(g);
            const realised = state.add(unit);
            chosen.push(i);
            expect(realised).toBe(g);
            const batch = igmsUtility({ M: chosen.map((k) => M[k]), C: principal(C, chosen), prior });
            expect(Math.abs(state.value() - batch)).toBeLessThan(1e-9);
            expect(Math.abs(state.value() - before - g)).toBeLessThan(1e-9);
          }
          expect(state.selectedIds).toEqual(order);
          expect(state.size).toBe(n);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('clone() is independent of the original', () => {
    const M = [
      [1, 0],
      [0.5, 0.5],
      [0, 1],
    ];
    const C = covarianceFromContent([
      [1, 0],
      [1, 1],
      [0, 1],
    ]);
    const s = new IgmsState(2);
    s.add(unitOf(M, C, 0, []));
    const copy = s.clone();
    copy.add(unitOf(M, C, 1, [0]));
    expect(s.size).toBe(1);
    expect(copy.size).toBe(2);
    expect(s.value()).toBeCloseTo(igmsUtility({ M: [M[0]], C: [[C[0][0]]] }), 12);
    expect(copy.value()).toBeCloseTo(igmsUtility({ M: M.slice(0, 2), C: principal(C, [0, 1]) }), 12);
    expect(s.gain(unitOf(M, C, 2, [0]))).toBeCloseTo(
      igmsUtility({ M: [M[0], M[2]], C: principal(C, [0, 2]) }) - s.value(),
      12,
    );
  });

  it('rejects units whose covariance makes C_S non-PD or whose shape is wrong', () => {
    const s = new IgmsState(1);
    s.add({ m: [1], covWithSelected: [], variance: 2 });
    expect(() => s.gain({ m: [1], covWithSelected: [3], variance: 2 })).toThrow(NotPositiveDefiniteError);
    expect(() => s.gain({ m: [1], covWithSelected: [], variance: 2 })).toThrow(/unit.covWithSelected: expected 1/);
    expect(() => s.gain({ m: [1, 0], covWithSelected: [0], variance: 2 })).toThrow(/unit.m: expected 1/);
    expect(s.size).toBe(1);
  });
});

describe('general Gaussian form: properties', () => {
  it('is monotone for every Gram-matrix noise covariance, with and without the GMRF prior', () => {
    fc.assert(
      fc.property(gaussianInstanceArb(), ({ M, C, prior, numAtoms, n }) => {
        for (const p of [undefined, prior]) {
          const values = allValues(n, (S) => igmsUtility({ M: S.map((i) => M[i]), C: principal(C, S), prior: p, numAtoms }));
          expect(monotonicityViolation(values, n)).toBeLessThanOrEqual(1e-10);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('is submodular when the noise is independent (diagonal C), with and without the prior', () => {
    fc.assert(
      fc.property(gaussianInstanceArb({ diagonal: true }), ({ M, C, prior, numAtoms, n }) => {
        for (const p of [undefined, prior]) {
          const values = allValues(n, (S) => igmsUtility({ M: S.map((i) => M[i]), C: principal(C, S), prior: p, numAtoms }));
          expect(submodularityViolation(values, n)).toBeLessThanOrEqual(1e-10);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('is NOT submodular under correlated unit noise (why pieceModel exists): a zero-support copy acts as a control variate', () => {
    // Unit 1 supports the atom; unit 2 supports nothing but shares content (noise) with unit 1.
    const M = [[1], [0]];
    const C = [
      [2, 0.9],
      [0.9, 2],
    ];
    const gainAlone = igmsUtility({ M: [M[1]], C: [[2]] }) - 0;
    const gainAfter = igmsUtility({ M, C }) - igmsUtility({ M: [M[0]], C: [[2]] });
    expect(gainAlone).toBe(0);
    expect(gainAfter).toBeGreaterThan(0.05);
  });
});

describe('unit-level covariance constructions', () => {
  it('covarianceFromContent: diagonal 1 + s0², cosine off-diagonals, PD even for identical or zero vectors', () => {
    const C = covarianceFromContent(
      [
        [1, 0],
        [2, 0],
        [0, 3],
        [0, 0],
      ],
      0.5,
    );
    expect(C[0][0]).toBeCloseTo(1.25, 14);
    expect(C[0][1]).toBeCloseTo(1, 14);
    expect(C[0][2]).toBe(0);
    expect(C[3][3]).toBeCloseTo(1.25, 14);
    expect(C[3][0]).toBe(0);
    expect(() => cholesky(Matrix.fromRows(C))).not.toThrow();
  });

  it('covarianceFromRedundancy keeps a PD matrix as is and shrinks a non-PD one until it is PD', () => {
    const ok = covarianceFromRedundancy([
      [1, 0.9],
      [0.9, 1],
    ]);
    expect(ok.shrink).toBe(1);
    expect(ok.C).toEqual([
      [2, 0.9],
      [0.9, 2],
    ]);
    // all pairs anti-redundant: eigenvalue 2 − 3·1 < 0 for 4 units
    const rho = Array.from({ length: 4 }, (_, i) => Array.from({ length: 4 }, (_, k) => (i === k ? 1 : -1)));
    const bad = covarianceFromRedundancy(rho);
    expect(bad.shrink).toBeGreaterThan(0.6);
    expect(bad.shrink).toBeLessThan(2 / 3 + 1e-9);
    expect(() => cholesky(Matrix.fromRows(bad.C))).not.toThrow();
  });
});
