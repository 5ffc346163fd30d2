import { explainIgms, pieceObjective } from '../../igms/index.js';
import type { IntentAtom } from '../../intent/index.js';
import type { LakeSnapshot, SynthesisModel } from '../../search/index.js';
import type { ScoreExplanation } from '../types.js';

/** `explain`'s last step: the IGMS decomposition of a given table set under a built model. */
export function explainSet(model: SynthesisModel, atoms: IntentAtom[], tableIds: string[], snapshot: LakeSnapshot, warnings: string[]): ScoreExplanation {
  const units = model.units(tableIds);
  const objective = pieceObjective(units, atoms.length, { prior: model.prior, contentNoise: model.options.contentNoise });
  const ex = explainIgms(objective, units.map((_, i) => i), { atomIds: atoms.map((a) => a.id) });
  const name = (id: string) => snapshot.tableById.get(id)?.name ?? id;
  return {
    tableIds,
    score: ex.value,
    atoms: atoms.map((a, j) => ({
      atomId: a.id,
      kind: a.kind,
      label: a.label,
      support: ex.atomSupport[j]?.maxUnitSupport ?? 0,
      supportedBy: tableIds.filter((_, i) => units[i].support[j] >= model.options.witnessThreshold),
    })),
    tables: ex.unitContributions.map((u, i) => ({
      tableId: tableIds[i],
      name: name(tableIds[i]),
      marginalGain: u.greedyGain,
      leaveOneOutLoss: u.leaveOneOutLoss,
    })),
    redundancy: ex.redundantPairs.map((p) => ({ tableA: p.a, tableB: p.b, rho: p.redundancy })),
    determinant: { atoms: ex.atoms, logDetPrior: ex.logDetPrior, logDetPosterior: ex.logDetPosterior },
    unsupportedAtoms: ex.unsupportedAtoms,
    warnings,
  };
}
