/**
 * Why a selection scores what it scores: per-atom support, per-unit contribution, redundant
 * pairs, the determinant terms, and atoms left unsupported. Output is plain JSON.
 */
import { IgmsInputError } from './errors.js';
import { cholesky, inverseFromCholesky, logDetFromCholesky } from './linalg.js';
import type { IgmsObjective } from './objective.js';

export interface ExplainOptions {
  /** Display ids of the atoms (default: their indices as text). */
  atomIds?: readonly string[];
  /** Report selected pairs whose redundancy is >= this (default 0.5). */
  redundancyThreshold?: number;
  /** An atom is unsupported when its support (variance reduction) is below this (default 0.1). */
  unsupportedBelow?: number;
}

export interface AtomSupport {
  atom: number;
  atomId: string;
  /** [Λ⁻¹]_jj: prior variance of the atom. */
  priorVariance: number;
  /** [J(S)⁻¹]_jj: posterior variance of the atom given the selection. */
  posteriorVariance: number;
  /** log(priorVariance / posteriorVariance) >= 0: the atom's own information gain (nats). */
  informationGain: number;
  /** 1 − posteriorVariance / priorVariance ∈ [0, 1): share of the atom's uncertainty removed. */
  support: number;
  /** Largest M entry for this atom over the selected units (0 when none). */
  maxUnitSupport: number;
  /** Id of the unit attaining maxUnitSupport (null when it is 0). */
  bestUnit: string | null;
}

export interface UnitContribution {
  unit: number;
  unitId: string;
  /** 0-based position when the selection is re-ordered greedily (largest marginal gain first). */
  greedyRank: number;
  /** Marginal gain at that position; these sum to `value`. */
  greedyGain: number;
  /** U(S) − U(S \ {unit}) >= 0: what is lost by dropping it. */
  leaveOneOutLoss: number;
}

export interface RedundantPair {
  a: string;
  b: string;
  /** The objective's redundancy (noise correlation, or content overlap for the piece model). */
  redundancy: number;
}

export interface IgmsExplanation {
  /** U(S) = (logDetPosterior − logDetPrior) / atoms. */
  value: number;
  /** a, the number of atoms. */
  atoms: number;
  /** log det Λ. */
  logDetPrior: number;
  /** log det J(S) = log det(Λ + data information). */
  logDetPosterior: number;
  /** Ids of the selected units, in the given order. */
  selected: string[];
  atomSupport: AtomSupport[];
  unitContributions: UnitContribution[];
  /** Selected pairs with redundancy >= redundancyThreshold, most redundant first. */
  redundantPairs: RedundantPair[];
  /** Ids of atoms with support < unsupportedBelow. */
  unsupportedAtoms: string[];
}

/**
 * Explains the selection `selected` (indices into the objective's pool).
 * Cost: O(|S|²) objective evaluations for the greedy order plus |S| for leave-one-out,
 * each O(batch U), plus one a x a inverse.
 */
export function explainIgms(objective: IgmsObjective, selected: readonly number[], options: ExplainOptions = {}): IgmsExplanation {
  const a = objective.numAtoms;
  const threshold = options.redundancyThreshold ?? 0.5;
  const unsupportedBelow = options.unsupportedBelow ?? 0.1;
  if (options.atomIds && options.atomIds.length !== a) {
    throw new IgmsInputError('atomIds', `expected ${a} ids, got ${options.atomIds.length}`);
  }
  const atomId = (j: number) => options.atomIds?.[j] ?? String(j);

  const priorFactor = cholesky(objective.priorPrecision(), 'prior');
  const logDetPrior = logDetFromCholesky(priorFactor);
  const logDetOf = (subset: readonly number[]) => logDetFromCholesky(cholesky(objective.posteriorPrecision(subset), 'posterior'));
  const valueOf = (subset: readonly number[]) => (a === 0 ? 0 : (logDetOf(subset) - logDetPrior) / a);

  const postFactor = cholesky(objective.posteriorPrecision(selected), 'posterior');
  const logDetPosterior = logDetFromCholesky(postFactor);
  const value = a === 0 ? 0 : (logDetPosterior - logDetPrior) / a;

  const priorCov = inverseFromCholesky(priorFactor);
  const postCov = inverseFromCholesky(postFactor);
  const atomSupport: AtomSupport[] = [];
  for (let j = 0; j < a; j++) {
    const pv = priorCov.get(j, j);
    const qv = postCov.get(j, j);
    let best = 0;
    let bestUnit: string | null = null;
    for (const i of selected) {
      const s = objective.support(i, j);
      if (s > best) {
        best = s;
        bestUnit = objective.unitId(i);
      }
    }
    atomSupport.push({
      atom: j,
      atomId: atomId(j),
      priorVariance: pv,
      posteriorVariance: qv,
      informationGain: Math.max(0, Math.log(pv / qv)),
      support: Math.max(0, 1 - qv / pv),
      maxUnitSupport: best,
      bestUnit,
    });
  }

  // Greedy re-ordering of the selection (ties: earlier position in `selected`).
  const ranks = new Map<number, { rank: number; gain: number }>();
  const chosen: number[] = [];
  let current = 0;
  const remaining = selected.slice();
  while (remaining.length > 0) {
    let bestPos = 0;
    let bestVal = -Infinity;
    remaining.forEach((i, pos) => {
      const v = valueOf([...chosen, i]);
      if (v > bestVal) {
        bestVal = v;
        bestPos = pos;
      }
    });
    const [i] = remaining.splice(bestPos, 1);
    ranks.set(i, { rank: chosen.length, gain: bestVal - current });
    chosen.push(i);
    current = bestVal;
  }
  const unitContributions: UnitContribution[] = selected.map((i) => {
    const r = ranks.get(i)!;
    return {
      unit: i,
      unitId: objective.unitId(i),
      greedyRank: r.rank,
      greedyGain: r.gain,
      leaveOneOutLoss: value - valueOf(selected.filter((k) => k !== i)),
    };
  });

  const redundantPairs: RedundantPair[] = [];
  for (let x = 0; x < selected.length; x++) {
    for (let y = x + 1; y < selected.length; y++) {
      const rho = objective.redundancy(selected[x], selected[y]);
      if (rho >= threshold) redundantPairs.push({ a: objective.unitId(selected[x]), b: objective.unitId(selected[y]), redundancy: rho });
    }
  }
  redundantPairs.sort((p, q) => q.redundancy - p.redundancy);

  return {
    value,
    atoms: a,
    logDetPrior,
    logDetPosterior,
    selected: selected.map((i) => objective.unitId(i)),
    atomSupport,
    unitContributions,
    redundantPairs,
    unsupportedAtoms: atomSupport.filter((s) => s.support < unsupportedBelow).map((s) => s.atomId),
  };
}
