import { lakeFingerprint, latestValueModel, listValueModels, type CatalogDatabase, type ValueModelRecord } from '../catalog/index.js';
import { FEATURE_DIM, FEATURE_VERSION } from './features.js';
import { LearnedValueFunction } from './learnedValueFunction.js';
import { OnnxQScorer } from './onnxScorer.js';

export type ExecutionProvider = 'cpu' | 'cuda';

export type LoadedValueModel =
  | { fn: LearnedValueFunction; record: ValueModelRecord; provider: ExecutionProvider }
  | { fn: null; reason: string };

/**
 * The newest stored value model trained on this very lake state (same lake fingerprint) for this
 * feature version, as a value function scoring through onnxruntime. Models of another lake state
 * or feature version are never used: the reason says why none was loaded.
 */
export async function loadLearnedValueFunction(
  db: CatalogDatabase,
  opts: { provider?: ExecutionProvider; log?: (msg: string) => void } = {},
): Promise<LoadedValueModel> {
  const fingerprint = await lakeFingerprint(db);
  const stored = await latestValueModel(db, fingerprint, FEATURE_VERSION);
  if (!stored) {
    const all = await listValueModels(db);
    if (all.length === 0) return { fn: null, reason: 'no value model trained yet (graft value train)' };
    const sameLake = all.filter((m) => m.lakeFingerprint === fingerprint);
    return {
      fn: null,
      reason:
        sameLake.length > 0
          ? `the stored value models read feature version ${sameLake[0].featureVersion}, this build computes version ${FEATURE_VERSION}: retrain (graft value train)`
          : `the lake changed since the newest value model was trained (lake fingerprint ${fingerprint.slice(0, 12)} vs ${all[0].lakeFingerprint.slice(0, 12)}): retrain (graft value train)`,
    };
  }
  if (stored.inputDim !== FEATURE_DIM) {
    return { fn: null, reason: `value model ${stored.id} takes ${stored.inputDim} features, this build computes ${FEATURE_DIM}` };
  }
  const scorer = await OnnxQScorer.create(stored.onnx, { provider: opts.provider ?? 'cpu' }, opts.log);
  const { onnx: _bytes, ...record } = stored;
  return { fn: new LearnedValueFunction(scorer), record, provider: scorer.provider as ExecutionProvider };
}
