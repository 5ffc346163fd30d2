/**
 * IGMS reward in its general Gaussian form.
 *
 * Atoms x ~ N(0, Λ⁻¹) (Λ = I + κ L_G, see prior.ts); each evidence unit i yields one scalar
 * observation y_i = m_iᵀ x + e_i with noise e ~ N(0, C). The reward of a set S is the
 * information the observations carry about the atoms, per atom:
 *
 *   U(S) = (1/a) [ log det(Λ + M_Sᵀ C_S⁻¹ M_S) − log det Λ ]
 *
 * (Λ = I: U(S) = (1/a) log det(I_a + M_Sᵀ C_S⁻¹ M_S)). U is monotone for every PD C.
 * It is submodular when C is diagonal, or when C has the content-piece structure built by
 * pieceModel.ts; for a general C with correlated noise it is NOT (see README.md).
 */
import { IgmsInputError } from './errors.js';
import {
  cholesky,
  assertSymmetric,
  choleskyRankOneUpdate,
  GrowingCholesky,
  logDetFromCholesky,
  Matrix,
  solveLower,
} from './linalg.js';
import { factorPrior, type IgmsPrior } from './prior.js';

export interface IgmsInput {
  /** units x atoms support matrix (typically in [0,1]). */
  M: ArrayLike<ArrayLike<number>>;
  /** units x units noise covariance, symmetric PD. */
  C: ArrayLike<ArrayLike<number>>;
  /** Optional GMRF prior; absent or kappa = 0 gives the plain formula. */
  prior?: IgmsPrior;
  /** Number of atoms; required only when M has no rows. */
  numAtoms?: number;
}

/** The data information matrix Mᵀ C⁻¹ M and its pieces, for a validated (M, C). */
export function dataInformation(M: Matrix, C: Matrix): Matrix {
  const n = M.rows;
  const a = M.cols;
  const info = new Matrix(a, a);
  if (n === 0) return info;
  const Lc = cholesky(C, 'C');
  // W = Lc⁻¹ M column by column; info = Wᵀ W.
  const W = new Matrix(n, a);
  const col = new Float64Array(n);
  for (let j = 0; j < a; j++) {
    for (let i = 0; i < n; i++) col[i] = M.data[i * a + j];
    const w = solveLower(Lc, col);
    for (let i = 0; i < n; i++) W.data[i * a + j] = w[i];
  }
  for (let p = 0; p < a; p++) {
    for (let q = 0; q <= p; q++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += W.data[i * a + p] * W.data[i * a + q];
      info.data[p * a + q] = s;
      info.data[q * a + p] = s;
    }
  }
  return info;
}

/** Validates and converts an IgmsInput; returns (M, C) as matrices and the atom count. */
export function parseIgmsInput(input: IgmsInput): { M: Matrix; C: Matrix; numAtoms: number } {
  const n = input.M.length;
  const numAtoms = n > 0 ? input.M[0].length : input.numAtoms;
  if (numAtoms === undefined) throw new IgmsInputError('numAtoms', 'required when M has no rows');
  if (input.numAtoms !== undefined && input.numAtoms !== numAtoms) {
    throw new IgmsInputError('M', `has ${numAtoms} columns but numAtoms is ${input.numAtoms}`);
  }
  const M = Matrix.fromRows(input.M, 'M', numAtoms);
  if (input.C.length !== n) throw new IgmsInputError('C', `expected ${n} rows (one per unit), got ${input.C.length}`);
  const C = Matrix.fromRows(input.C, 'C', n);
  assertSymmetric(C, 'C');
  return { M, C, numAtoms };
}

/**
 * Batch IGMS utility U(S) for the units given as the rows of M. O(n³ + n²a + a³).
 * Throws NotPositiveDefiniteError('C' | 'prior') and IgmsInputError for bad shapes.
 * Defined as 0 when there are no atoms.
 */
export function igmsUtility(input: IgmsInput): number {
  const { M, C, numAtoms: a } = parseIgmsInput(input);
  if (a === 0) return 0;
  const { lambda, logDet: logDetPrior } = factorPrior(a, input.prior);
  const J = dataInformation(M, C);
  for (let i = 0; i < a * a; i++) J.data[i] += lambda.data[i];
  return (logDetFromCholesky(cholesky(J, 'posterior')) - logDetPrior) / a;
}

/**
 * One candidate evidence unit relative to the units already selected in an IgmsState.
 * `covWithSelected[k]` is its noise covariance with the k-th selected unit, in selection order.
 */
export interface IgmsUnit {
  /** Support of each atom, length a. */
  m: ArrayLike<number>;
  /** Noise covariance with each selected unit, in the order they were added. */
  covWithSelected: ArrayLike<number>;
  /** Its own noise variance C_uu (1 + s0² in the default construction). */
  variance: number;
  /** Optional caller key, kept in `selectedIds`. */
  id?: string | number;
}

/** The result of conditioning a unit on the selected set (no mutation). */
interface Conditioned {
  z: Float64Array;
  conditionalVariance: number;
  /** Whitened conditional loading v / σ, so that J' = J + w wᵀ. */
  w: Float64Array;
}

/**
 * Incremental IGMS over a growing selected set S.
 *
 * Holds the Cholesky factor of C_S (grown one row per unit), the whitened loadings
 * W = L_C⁻¹ M_S, and the Cholesky factor of the information matrix J = Λ + WᵀW.
 * Adding unit u: z = L_C⁻¹ c_u, σ² = C_uu − zᵀz (conditional noise variance given S),
 * w = (m_u − Wᵀz) / σ (whitened conditional loading), then J' = J + w wᵀ and the gain is
 * (1/a) log(1 + wᵀ J⁻¹ w). gain: O(|S|² + |S|a + a²), no mutation; add: the same plus
 * an O(a²) rank-one update of J's factor.
 */
export class IgmsState {
  readonly numAtoms: number;
  readonly logDetPrior: number;
  private noise: GrowingCholesky;
  private whitened: Float64Array[];
  private infoFactor: Matrix;
  private ids: Array<string | number | undefined>;

  constructor(numAtoms: number, options: { prior?: IgmsPrior } = {}) {
    if (!Number.isInteger(numAtoms) || numAtoms < 0) throw new IgmsInputError('numAtoms', `must be an integer >= 0 (${numAtoms})`);
    this.numAtoms = numAtoms;
    const { factor, logDet } = factorPrior(numAtoms, options.prior);
    this.logDetPrior = logDet;
    this.infoFactor = factor;
    this.noise = new GrowingCholesky();
    this.whitened = [];
    this.ids = [];
  }

  /** Number of selected units. */
  get size(): number {
    return this.whitened.length;
  }

  /** The `id` of each selected unit, in selection order (undefined where none was given). */
  get selectedIds(): ReadonlyArray<string | number | undefined> {
    return this.ids;
  }

  private condition(unit: IgmsUnit): Conditioned {
    const a = this.numAtoms;
    if (unit.m.length !== a) throw new IgmsInputError('unit.m', `expected ${a} atom supports, got ${unit.m.length}`);
    for (let j = 0; j < a; j++) {
      if (!Number.isFinite(unit.m[j])) throw new IgmsInputError(`unit.m[${j}]`, `not a finite number (${unit.m[j]})`);
    }
    const { z, conditionalVariance } = this.noise.condition(unit.covWithSelected, unit.variance, 'unit.covWithSelected');
    const v = Float64Array.from(unit.m as ArrayLike<number>);
    for (let k = 0; k < z.length; k++) {
      const zk = z[k];
      if (zk === 0) continue;
      const wk = this.whitened[k];
      for (let j = 0; j < a; j++) v[j] -= zk * wk[j];
    }
    const sigma = Math.sqrt(conditionalVariance);
    for (let j = 0; j < a; j++) v[j] /= sigma;
    return { z, conditionalVariance, w: v };
  }

  private gainOf(w: Float64Array): number {
    if (this.numAtoms === 0) return 0;
    const t = solveLower(this.infoFactor, w);
    let q = 0;
    for (let j = 0; j < t.length; j++) q += t[j] * t[j];
    return Math.log1p(q) / this.numAtoms;
  }

  /** Marginal gain U(S ∪ {u}) − U(S), without changing the state. */
  gain(unit: IgmsUnit): number {
    return this.gainOf(this.condition(unit).w);
  }

  /** Adds the unit to S; returns its realised marginal gain. */
  add(unit: IgmsUnit): number {
    const c = this.condition(unit);
    const g = this.gainOf(c.w);
    this.noise.push(c.z, c.conditionalVariance);
    this.whitened.push(c.w);
    choleskyRankOneUpdate(this.infoFactor, c.w.slice());
    this.ids.push(unit.id);
    return g;
  }

  /** log det(Λ + M_Sᵀ C_S⁻¹ M_S). */
  logDetPosterior(): number {
    return logDetFromCholesky(this.infoFactor);
  }

  /** Current U(S). O(a). */
  value(): number {
    if (this.numAtoms === 0) return 0;
    return (this.logDetPosterior() - this.logDetPrior) / this.numAtoms;
  }

  /** Independent copy (O(|S|² + |S|a + a²)); e.g. to score a bundle of units by adding them to a copy. */
  clone(): IgmsState {
    const out = Object.create(IgmsState.prototype) as IgmsState;
    const o = out as unknown as {
      numAtoms: number;
      logDetPrior: number;
      noise: GrowingCholesky;
      whitened: Float64Array[];
      infoFactor: Matrix;
      ids: Array<string | number | undefined>;
    };
    o.numAtoms = this.numAtoms;
    o.logDetPrior = this.logDetPrior;
    o.noise = this.noise.clone();
    o.whitened = this.whitened.map((w) => w.slice());
    o.infoFactor = this.infoFactor.clone();
    o.ids = this.ids.slice();
    return out;
  }
}

/**
 * The IgmsUnit for row `i` of a global (M, C), relative to the already selected rows
 * `selected` (in selection order). Use with an IgmsState that was fed the same rows in the
 * same order. O(|S| + a).
 */
export function unitOf(
  M: ArrayLike<ArrayLike<number>>,
  C: ArrayLike<ArrayLike<number>>,
  i: number,
  selected: readonly number[],
): IgmsUnit {
  const row = C[i];
  return {
    id: i,
    m: M[i],
    variance: row[i],
    covWithSelected: selected.map((k) => row[k]),
  };
}
