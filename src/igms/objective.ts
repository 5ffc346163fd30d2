/**
 * A uniform, batch view of an IGMS instance over a fixed pool of units, used by explainIgms:
 * both the general Gaussian form (M, C) and the content-piece construction reduce to a prior
 * precision Λ and a posterior precision J(S) = Λ + (data information of S).
 */
import { IgmsInputError } from './errors.js';
import { cholesky, logDetFromCholesky, Matrix } from './linalg.js';
import { dataInformation, parseIgmsInput, type IgmsInput } from './igms.js';
import {
  contentRedundancy,
  normalisePieceUnits,
  pieceAtomInformation,
  type PieceModelOptions,
  type PieceUnit,
} from './pieceModel.js';
import { priorPrecision } from './prior.js';

export interface IgmsObjective {
  readonly numUnits: number;
  readonly numAtoms: number;
  /** Display id of unit i. */
  unitId(i: number): string;
  /** Λ (a x a). */
  priorPrecision(): Matrix;
  /** J(S) = Λ + data information of the units in `subset` (indices into the pool). */
  posteriorPrecision(subset: readonly number[]): Matrix;
  /** How strongly unit i supports atom j (the M entry). */
  support(unit: number, atom: number): number;
  /** Redundancy between units i and k, in [−1, 1] (1 = same content). */
  redundancy(i: number, k: number): number;
}

/** U(S) = (log det J(S) − log det Λ) / a for an objective (0 when a = 0). */
export function objectiveValue(objective: IgmsObjective, subset: readonly number[]): number {
  const a = objective.numAtoms;
  if (a === 0) return 0;
  const post = logDetFromCholesky(cholesky(objective.posteriorPrecision(subset), 'posterior'));
  const prior = logDetFromCholesky(cholesky(objective.priorPrecision(), 'prior'));
  return (post - prior) / a;
}

function checkSubset(subset: readonly number[], n: number): void {
  const seen = new Set<number>();
  for (const i of subset) {
    if (!Number.isInteger(i) || i < 0 || i >= n) throw new IgmsInputError('subset', `unit index ${i} outside 0..${n - 1}`);
    if (seen.has(i)) throw new IgmsInputError('subset', `unit index ${i} listed twice`);
    seen.add(i);
  }
}

/** Objective for the general Gaussian form; redundancy = noise correlation C_ik / √(C_ii C_kk). */
export function gaussianObjective(input: IgmsInput & { unitIds?: readonly string[] }): IgmsObjective {
  const { M, C, numAtoms } = parseIgmsInput(input);
  const n = M.rows;
  const lambda = priorPrecision(numAtoms, input.prior);
  if (input.unitIds && input.unitIds.length !== n) throw new IgmsInputError('unitIds', `expected ${n} ids, got ${input.unitIds.length}`);
  return {
    numUnits: n,
    numAtoms,
    unitId: (i) => input.unitIds?.[i] ?? String(i),
    priorPrecision: () => lambda.clone(),
    posteriorPrecision(subset) {
      checkSubset(subset, n);
      const Ms = new Matrix(subset.length, numAtoms);
      const Cs = new Matrix(subset.length, subset.length);
      subset.forEach((i, r) => {
        Ms.data.set(M.data.subarray(i * numAtoms, (i + 1) * numAtoms), r * numAtoms);
        subset.forEach((k, c) => Cs.set(r, c, C.get(i, k)));
      });
      const J = dataInformation(Ms, Cs);
      for (let t = 0; t < J.data.length; t++) J.data[t] += lambda.data[t];
      return J;
    },
    support: (i, j) => M.get(i, j),
    redundancy: (i, k) => C.get(i, k) / Math.sqrt(C.get(i, i) * C.get(k, k)),
  };
}

/** Objective for the content-piece construction; redundancy = content overlap Σ_c √(w_ic w_kc). */
export function pieceObjective(units: readonly PieceUnit[], numAtoms: number, options: PieceModelOptions = {}): IgmsObjective {
  const normalised = normalisePieceUnits(units, numAtoms);
  const lambda = priorPrecision(numAtoms, options.prior);
  return {
    numUnits: units.length,
    numAtoms,
    unitId: (i) => normalised[i].id,
    priorPrecision: () => lambda.clone(),
    posteriorPrecision(subset) {
      checkSubset(subset, units.length);
      const d = pieceAtomInformation(
        subset.map((i) => units[i]),
        numAtoms,
        options,
      );
      const J = lambda.clone();
      for (let j = 0; j < numAtoms; j++) J.data[j * numAtoms + j] += d[j];
      return J;
    },
    support: (i, j) => normalised[i].support[j],
    redundancy: (i, k) => (i === k ? 1 : contentRedundancy(normalised[i], normalised[k])),
  };
}
