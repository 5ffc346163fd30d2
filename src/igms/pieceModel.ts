/**
 * The content-piece construction of IGMS: the construction of the noise covariance that
 * makes U provably monotone AND submodular while still suppressing redundant units.
 *
 * Why a construction is needed: with correlated noise between whole units, the Gaussian
 * information gain is not submodular. A unit with no support whose noise is correlated with a
 * selected unit gains 0 alone but > 0 after that unit (it acts as a control variate and
 * cancels the other's noise). That holds for every C with a non-zero off-diagonal, so no choice
 * of C independent of M can fix it (README.md has the numbers).
 *
 * The model. A unit's content is a set of pieces (row shards x column groups, MinHash slot
 * values, ...) with masses ω_c that are the same in every unit holding piece c; Ω_i = Σ ω_c
 * over unit i's pieces. The unit's evidence on atom j is split over its pieces: on the
 * (piece c, atom j) cell it observes z_cj = x_j + η_cj with precision
 *   π_icj = (ω_c / Ω_i) · m_ij² / s0²,
 * where η_cj ~ N(0, ψ/ω_c) is the piece's shared content error (the same for every unit
 * holding the piece: copies share it, disjoint shards do not). Cells are independent given
 * (x, η), so the Gaussian algebra collapses per cell group (Sherman–Morrison):
 *
 *   d_j(S) = Σ_c φ_c(Σ_{i∈S} π_icj),   φ_c(π) = π / (1 + (ψ/ω_c) π)
 *   U(S)   = (1/a) [ log det(Λ + diag d(S)) − log det Λ ]
 *
 * This is exactly igmsUtility on the cell-level (M, C) returned by expandPieceModel, whose C is
 * s0² I plus, for each (piece, atom) group, the rank-one block (ψ/ω_c) a aᵀ (PD by
 * construction). Monotone submodular because each d_j is a sum of concave functions of modular
 * functions (monotone submodular), and f(d) = log det(Λ + diag d) is monotone with
 * ∂²f/∂d_j∂d_k = −[(Λ + D)⁻¹]_jk² <= 0 (DR-submodular), so the composition is submodular.
 *
 * Sanity values: one unit of mass 1 gives d_j = m_ij² / (s0² + ψ m_ij²), i.e. the brief's
 * m²/(1 + s0²) at m = 1, ψ = 1; an exact copy raises it only to 2m²/(s0² + 2ψm²) (no gain as
 * s0 → 0); a disjoint shard with the same support doubles it (complementary evidence adds up).
 */
import { IgmsInputError } from './errors.js';
import { choleskyRankOneUpdate, logDetFromCholesky, Matrix } from './linalg.js';
import { factorPrior, type IgmsPrior } from './prior.js';

export interface ContentPiece {
  /** Piece identifier, shared by every unit that holds this content. */
  piece: string;
  /** Mass ω_c > 0 (default 1). Must be the same in every unit holding the piece. */
  mass?: number;
}

export interface PieceUnit {
  /** Unique unit id (table name, table#columnGroup, ...). */
  id: string;
  /** Support of each atom in [0,1], length a (one row of M). */
  support: ArrayLike<number>;
  /** Content pieces; absent or empty means private content (one piece of mass 1 nobody shares). */
  content?: readonly ContentPiece[];
}

export interface PieceModelOptions {
  /** s0 > 0: per-unit observation noise scale (default 1). */
  noiseScale?: number;
  /** ψ >= 0: shared content-error variance per unit of mass (default 1). 0 = no redundancy discount. */
  contentNoise?: number;
  /** Optional GMRF prior over atoms. */
  prior?: IgmsPrior;
}

/** A unit validated and normalised: pieces with evidence shares w_ic = ω_c / Ω_i. */
export interface NormalisedPieceUnit {
  id: string;
  support: Float64Array;
  pieces: Array<{ piece: string; mass: number; share: number }>;
}

const PRIVATE_PREFIX = '\u0000private:';

function resolveOptions(options: PieceModelOptions): { s0: number; psi: number } {
  const s0 = options.noiseScale ?? 1;
  const psi = options.contentNoise ?? 1;
  if (!(s0 > 0) || !Number.isFinite(s0)) throw new IgmsInputError('noiseScale', `must be finite and > 0 (${s0})`);
  if (!(psi >= 0) || !Number.isFinite(psi)) throw new IgmsInputError('contentNoise', `must be finite and >= 0 (${psi})`);
  return { s0, psi };
}

/** Validates one unit against the atom count; `field` names it in errors. */
export function normalisePieceUnit(unit: PieceUnit, numAtoms: number, field = 'unit'): NormalisedPieceUnit {
  if (typeof unit.id !== 'string' || unit.id === '') throw new IgmsInputError(`${field}.id`, 'must be a non-empty string');
  if (unit.support.length !== numAtoms) {
    throw new IgmsInputError(`${field}.support`, `expected ${numAtoms} atom supports, got ${unit.support.length}`);
  }
  const support = new Float64Array(numAtoms);
  for (let j = 0; j < numAtoms; j++) {
    const v = unit.support[j];
    if (!(v >= 0 && v <= 1)) throw new IgmsInputError(`${field}.support[${j}]`, `must be in [0,1] (${v})`);
    support[j] = v;
  }
  const content = unit.content && unit.content.length > 0 ? unit.content : [{ piece: PRIVATE_PREFIX + unit.id, mass: 1 }];
  const seen = new Set<string>();
  let total = 0;
  const pieces: NormalisedPieceUnit['pieces'] = [];
  content.forEach((p, k) => {
    const mass = p.mass ?? 1;
    if (typeof p.piece !== 'string') throw new IgmsInputError(`${field}.content[${k}].piece`, 'must be a string');
    if (!(mass > 0) || !Number.isFinite(mass)) throw new IgmsInputError(`${field}.content[${k}].mass`, `must be finite and > 0 (${mass})`);
    if (seen.has(p.piece)) throw new IgmsInputError(`${field}.content[${k}]`, `piece "${p.piece}" listed twice`);
    seen.add(p.piece);
    total += mass;
    pieces.push({ piece: p.piece, mass, share: 0 });
  });
  for (const p of pieces) p.share = p.mass / total;
  return { id: unit.id, support, pieces };
}

/** Content redundancy ρ_ik = Σ_c √(w_ic w_kc) ∈ [0,1]: 1 for identical content, 0 for disjoint. */
export function contentRedundancy(a: PieceUnit | NormalisedPieceUnit, b: PieceUnit | NormalisedPieceUnit): number {
  const shares = (u: PieceUnit | NormalisedPieceUnit): Map<string, number> => {
    const nu = 'pieces' in u ? u : normalisePieceUnit(u, u.support.length);
    return new Map(nu.pieces.map((p) => [p.piece, p.share]));
  };
  const sa = shares(a);
  const sb = shares(b);
  let s = 0;
  for (const [piece, wa] of sa) {
    const wb = sb.get(piece);
    if (wb !== undefined) s += Math.sqrt(wa * wb);
  }
  return Math.min(1, s);
}

/**
 * Content pieces from MinHash signatures (one per column of the unit): piece "slot:value" with
 * mass 1/numSlots, so each fully distinct column contributes mass 1 and two units share a
 * fraction of pieces equal to their estimated Jaccard similarity. Values equal to `emptySlot`
 * (MinHash of an empty set) are skipped; repeated pieces across columns are kept once.
 */
export function piecesFromSignatures(
  signatures: ReadonlyArray<ArrayLike<number>>,
  options: { emptySlot?: number; prefix?: string } = {},
): ContentPiece[] {
  const emptySlot = options.emptySlot ?? 2147483647;
  const prefix = options.prefix ?? '';
  const out: ContentPiece[] = [];
  const seen = new Set<string>();
  for (const sig of signatures) {
    const k = sig.length;
    for (let s = 0; s < k; s++) {
      if (sig[s] === emptySlot) continue;
      const piece = `${prefix}${s}:${sig[s]}`;
      if (seen.has(piece)) continue;
      seen.add(piece);
      out.push({ piece, mass: 1 / k });
    }
  }
  return out;
}

/** Increment φ_c(π + Δ) − φ_c(π) for φ_c(π) = π/(1 + r π), in a cancellation-free form. */
function phiIncrement(pi: number, delta: number, r: number): number {
  return delta / ((1 + r * pi) * (1 + r * (pi + delta)));
}

/**
 * Incremental IGMS under the content-piece construction.
 *
 * State: accumulated raw precision per (piece, atom) cell, the per-atom data information d,
 * and (with a prior) the Cholesky factor of Λ + diag d.
 * gain(u): O(p_u a) to get the per-atom increments δ (p_u = pieces of u), then O(a) without a
 * prior, or O(a² + k a²) with one (copy of the factor plus k rank-one updates, k = atoms u
 * supports). add(u): the same, updating in place. value(): O(a).
 *
 * Units may be given already normalised (`normalisePieceUnit`), which skips re-validating the
 * same content on every call when a caller evaluates many sets of the same units; such a unit's
 * pieces array must not be mutated afterwards (the state caches its piece ids by that array).
 */
export class PieceIgmsState {
  readonly numAtoms: number;
  readonly logDetPrior: number;
  private readonly s0sq: number;
  private readonly psi: number;
  /** With Λ = I the factor is diagonal and log det is Σ log(1 + d_j): no factor kept. */
  private readonly diagonalPrior: boolean;
  /** Cholesky factor of Λ (never mutated; shared by clones). */
  private readonly priorFactor: Matrix;
  private factor: Matrix;
  private d: Float64Array;
  /**
   * Dense id of every piece this state (or a clone of it) has met, and the ids of the pieces of
   * each pre-normalised unit (immutable: cached by its pieces array). Only ever grows, so it is
   * shared by clones and kept by `reset`: scoring many sets of the same units then costs one
   * lookup per unit.
   */
  private readonly interned: { ids: Map<string, number>; ofPieces: WeakMap<NormalisedPieceUnit['pieces'], Int32Array> };
  /** Slot + 1 of each piece id held by a selected unit (0: not held). */
  private slotOfPiece: Int32Array;
  /** Piece id of each slot. */
  private slotPiece: number[];
  /** Mass of the piece in each slot. */
  private slotMass: number[];
  /** Accumulated raw precision of each (piece, atom) cell, slot-major: cells[slot · a + j]. */
  private cells: Float64Array;
  private selected: string[];
  private selectedSet: Set<string>;
  /** Scratch for the per-atom increments δ of the unit being scored or added. */
  private delta: Float64Array;
  /** Scratch: slot of each piece of that unit (−1: no selected unit holds it). */
  private unitSlots: number[] = [];

  constructor(numAtoms: number, options: PieceModelOptions = {}) {
    if (!Number.isInteger(numAtoms) || numAtoms < 0) throw new IgmsInputError('numAtoms', `must be an integer >= 0 (${numAtoms})`);
    const { s0, psi } = resolveOptions(options);
    this.numAtoms = numAtoms;
    this.s0sq = s0 * s0;
    this.psi = psi;
    this.diagonalPrior = !options.prior || options.prior.kappa === 0;
    const { factor, logDet } = factorPrior(numAtoms, options.prior);
    this.priorFactor = factor;
    this.factor = factor.clone();
    this.logDetPrior = logDet;
    this.d = new Float64Array(numAtoms);
    this.interned = { ids: new Map(), ofPieces: new WeakMap() };
    this.slotOfPiece = new Int32Array(0);
    this.slotPiece = [];
    this.slotMass = [];
    this.cells = new Float64Array(0);
    this.selected = [];
    this.selectedSet = new Set();
    this.delta = new Float64Array(numAtoms);
  }

  /** Ids of the selected units, in selection order. */
  get selectedIds(): readonly string[] {
    return this.selected;
  }

  get size(): number {
    return this.selected.length;
  }

  has(id: string): boolean {
    return this.selectedSet.has(id);
  }

  private normalised(unit: PieceUnit | NormalisedPieceUnit): NormalisedPieceUnit {
    return 'pieces' in unit ? unit : normalisePieceUnit(unit, this.numAtoms);
  }

  /** Dense ids of a unit's pieces (cached when the caller normalised the unit and may pass it again). */
  private pieceIdsOf(nu: NormalisedPieceUnit, reused: boolean): Int32Array {
    let ids = reused ? this.interned.ofPieces.get(nu.pieces) : undefined;
    if (!ids) {
      ids = new Int32Array(nu.pieces.length);
      nu.pieces.forEach((p, k) => {
        let id = this.interned.ids.get(p.piece);
        if (id === undefined) this.interned.ids.set(p.piece, (id = this.interned.ids.size));
        ids![k] = id;
      });
      if (reused) this.interned.ofPieces.set(nu.pieces, ids);
    }
    return ids;
  }

  /** Atoms the unit supports (m_j ≠ 0): the only cells it touches. */
  private supported(nu: NormalisedPieceUnit): number[] {
    const out: number[] = [];
    for (let j = 0; j < this.numAtoms; j++) if (nu.support[j] !== 0) out.push(j);
    return out;
  }

  /** Per-atom increments δ of d if `nu` were added, into `this.delta`; returns the atoms with δ > 0. */
  private increments(nu: NormalisedPieceUnit, pieceIds: Int32Array, supported: number[]): number[] {
    const a = this.numAtoms;
    const delta = this.delta;
    delta.fill(0);
    this.unitSlots.length = 0;
    for (let k = 0; k < nu.pieces.length; k++) {
      const p = nu.pieces[k];
      const id = pieceIds[k];
      const slot = id < this.slotOfPiece.length ? this.slotOfPiece[id] - 1 : -1;
      this.unitSlots.push(slot);
      if (slot >= 0 && this.slotMass[slot] !== p.mass) {
        throw new IgmsInputError(`unit ${nu.id}: piece "${p.piece}"`, `mass ${p.mass} differs from ${this.slotMass[slot]} used by a selected unit`);
      }
      const r = this.psi / p.mass;
      const base = slot < 0 ? -1 : slot * a;
      for (const j of supported) {
        const m = nu.support[j];
        const dp = (p.share * m * m) / this.s0sq;
        delta[j] += phiIncrement(base < 0 ? 0 : this.cells[base + j], dp, r);
      }
    }
    const atoms: number[] = [];
    for (let j = 0; j < a; j++) if (delta[j] > 0) atoms.push(j);
    return atoms;
  }

  /** Rank-one updates of `factor` by √δ_j e_j for each atom (nothing to do with a diagonal prior). */
  private updateFactor(atoms: number[], factor: Matrix): void {
    if (this.diagonalPrior) return;
    const x = new Float64Array(this.numAtoms);
    for (const j of atoms) {
      x.fill(0);
      x[j] = Math.sqrt(this.delta[j]);
      choleskyRankOneUpdate(factor, x);
    }
  }

  /** log det gain of the increments in `this.delta`; updates `factor` in place when there is a prior. */
  private logDetGain(atoms: number[], factor: Matrix): number {
    if (this.diagonalPrior) {
      let s = 0;
      for (const j of atoms) s += Math.log1p(this.delta[j] / (1 + this.d[j]));
      return s;
    }
    const before = logDetFromCholesky(factor);
    this.updateFactor(atoms, factor);
    return logDetFromCholesky(factor) - before;
  }

  /** Marginal gain U(S ∪ {u}) − U(S) without changing the state; 0 if u is already selected. */
  gain(unit: PieceUnit | NormalisedPieceUnit): number {
    if (this.numAtoms === 0 || this.selectedSet.has(unit.id)) return 0;
    const nu = this.normalised(unit);
    const atoms = this.increments(nu, this.pieceIdsOf(nu, nu === unit), this.supported(nu));
    if (atoms.length === 0) return 0;
    return this.logDetGain(atoms, this.diagonalPrior ? this.factor : this.factor.clone()) / this.numAtoms;
  }

  /** Adds the unit; returns its realised gain. Throws if its id is already selected. */
  add(unit: PieceUnit | NormalisedPieceUnit): number {
    return this.include(unit, true);
  }

  /** Adds the units in order, without computing each one's gain (when only U of the set is wanted). */
  addAll(units: Iterable<PieceUnit | NormalisedPieceUnit>): void {
    for (const u of units) this.include(u, false);
  }

  private include(unit: PieceUnit | NormalisedPieceUnit, withGain: boolean): number {
    if (this.selectedSet.has(unit.id)) throw new IgmsInputError(`unit ${unit.id}`, 'already selected');
    const nu = this.normalised(unit);
    const a = this.numAtoms;
    const supported = this.supported(nu);
    const pieceIds = this.pieceIdsOf(nu, nu === unit);
    const atoms = this.increments(nu, pieceIds, supported);
    let g = 0;
    if (a > 0) {
      if (withGain) g = this.logDetGain(atoms, this.factor) / a;
      else this.updateFactor(atoms, this.factor);
    }
    nu.pieces.forEach((p, k) => {
      let slot = this.unitSlots[k];
      if (slot < 0) slot = this.newSlot(pieceIds[k], p.mass);
      const base = slot * a;
      for (const j of supported) {
        const m = nu.support[j];
        this.cells[base + j] += (p.share * m * m) / this.s0sq;
      }
    });
    for (const j of atoms) this.d[j] += this.delta[j];
    this.selected.push(nu.id);
    this.selectedSet.add(nu.id);
    return g;
  }

  private newSlot(pieceId: number, mass: number): number {
    const slot = this.slotMass.length;
    if (pieceId >= this.slotOfPiece.length) {
      const grown = new Int32Array(Math.max(pieceId + 1, 2 * this.slotOfPiece.length, 256));
      grown.set(this.slotOfPiece);
      this.slotOfPiece = grown;
    }
    this.slotOfPiece[pieceId] = slot + 1;
    this.slotPiece.push(pieceId);
    this.slotMass.push(mass);
    const needed = (slot + 1) * this.numAtoms;
    if (needed > this.cells.length) {
      const grown = new Float64Array(Math.max(needed, 2 * this.cells.length, 64 * this.numAtoms));
      grown.set(this.cells);
      this.cells = grown;
    }
    return slot;
  }

  /** Back to the empty set, keeping the storage: cheaper than a fresh state or a clone when many sets are scored in turn. */
  reset(): void {
    this.factor.data.set(this.priorFactor.data);
    this.d.fill(0);
    this.cells.fill(0, 0, this.slotMass.length * this.numAtoms);
    for (const id of this.slotPiece) this.slotOfPiece[id] = 0;
    this.slotPiece = [];
    this.slotMass = [];
    this.selected = [];
    this.selectedSet = new Set();
  }

  /** Per-atom data information d_j (the diagonal added to Λ). */
  atomInformation(): Float64Array {
    return this.d.slice();
  }

  /** log det(Λ + diag d). */
  logDetPosterior(): number {
    if (this.diagonalPrior) {
      let s = 0;
      for (let j = 0; j < this.numAtoms; j++) s += Math.log1p(this.d[j]);
      return s;
    }
    return logDetFromCholesky(this.factor);
  }

  /** Current U(S). O(a). */
  value(): number {
    if (this.numAtoms === 0) return 0;
    return (this.logDetPosterior() - this.logDetPrior) / this.numAtoms;
  }

  clone(): PieceIgmsState {
    const out = Object.create(PieceIgmsState.prototype) as PieceIgmsState;
    Object.assign(out, this, {
      factor: this.factor.clone(),
      d: this.d.slice(),
      slotOfPiece: this.slotOfPiece.slice(),
      slotPiece: this.slotPiece.slice(),
      slotMass: this.slotMass.slice(),
      cells: this.cells.slice(0, this.slotMass.length * this.numAtoms),
      selected: this.selected.slice(),
      selectedSet: new Set(this.selectedSet),
      delta: new Float64Array(this.numAtoms),
      unitSlots: [],
    });
    return out;
  }
}

/** Validates a unit list: unique ids and one mass per piece across units. */
export function normalisePieceUnits(units: readonly PieceUnit[], numAtoms: number): NormalisedPieceUnit[] {
  const ids = new Set<string>();
  const masses = new Map<string, number>();
  return units.map((u, i) => {
    const nu = normalisePieceUnit(u, numAtoms, `units[${i}]`);
    if (ids.has(nu.id)) throw new IgmsInputError(`units[${i}].id`, `duplicate id "${nu.id}"`);
    ids.add(nu.id);
    for (const p of nu.pieces) {
      const known = masses.get(p.piece);
      if (known !== undefined && known !== p.mass) {
        throw new IgmsInputError(`units[${i}]: piece "${p.piece}"`, `mass ${p.mass} differs from ${known} in an earlier unit`);
      }
      masses.set(p.piece, p.mass);
    }
    return nu;
  });
}

/** Batch U(S) of the content-piece model for the given units. O(Σ p_i a + a³). */
export function igmsPieceUtility(units: readonly PieceUnit[], numAtoms: number, options: PieceModelOptions = {}): number {
  const state = new PieceIgmsState(numAtoms, options);
  state.addAll(normalisePieceUnits(units, numAtoms));
  return state.value();
}

/** Per-atom data information d(S) of the content-piece model (the diagonal added to Λ). */
export function pieceAtomInformation(units: readonly PieceUnit[], numAtoms: number, options: PieceModelOptions = {}): Float64Array {
  const state = new PieceIgmsState(numAtoms, { ...options, prior: undefined });
  for (const u of units) state.add(u);
  return state.atomInformation();
}

export interface PieceCell {
  unit: string;
  piece: string;
  atom: number;
}

/**
 * The cell-level Gaussian (M, C) of the content-piece model: one row per (unit, piece, atom)
 * with m_ij > 0, loading a e_j with a = √(w_ic) m_ij, and
 * C = s0² I + Σ over (piece, atom) groups of (ψ/ω_c) a aᵀ (block rank-one, so PD).
 * igmsUtility({ M, C, prior }) equals igmsPieceUtility(units) — the construction argument.
 */
export function expandPieceModel(
  units: readonly PieceUnit[],
  numAtoms: number,
  options: PieceModelOptions = {},
): { M: number[][]; C: number[][]; cells: PieceCell[] } {
  const { s0, psi } = resolveOptions(options);
  const normalised = normalisePieceUnits(units, numAtoms);
  const cells: PieceCell[] = [];
  const loads: number[] = [];
  const rates: number[] = [];
  for (const nu of normalised) {
    for (const p of nu.pieces) {
      for (let j = 0; j < numAtoms; j++) {
        const m = nu.support[j];
        if (m === 0) continue;
        cells.push({ unit: nu.id, piece: p.piece, atom: j });
        loads.push(Math.sqrt(p.share) * m);
        rates.push(psi / p.mass);
      }
    }
  }
  const M = cells.map((c, r) => {
    const row = new Array<number>(numAtoms).fill(0);
    row[c.atom] = loads[r];
    return row;
  });
  const C = cells.map((c, r) =>
    cells.map((c2, r2) => {
      let v = r === r2 ? s0 * s0 : 0;
      if (c.piece === c2.piece && c.atom === c2.atom) v += rates[r] * loads[r] * loads[r2];
      return v;
    }),
  );
  return { M, C, cells };
}
