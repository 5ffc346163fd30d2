import { lakeFingerprint, saveValueModel, type CatalogDatabase, type ValueModelRecord } from '../catalog/index.js';
import type { Embedder } from '../embed/index.js';
import { createEngine } from '../engine/index.js';
import { BadInputError } from '../util/errors.js';
import { trainValueModel, type TrainValueOptions, type TrainedValueModel } from './train.js';

export interface CatalogTrainingResult {
  record: ValueModelRecord;
  model: TrainedValueModel;
}

/**
 * Trains a value model on the lake held in the catalog and stores it there, tagged with the
 * lake fingerprint it was trained on (what `graft serve` / `graft ask` match against).
 */
export async function trainAndStoreValueModel(db: CatalogDatabase, embedder: Embedder, opts: TrainValueOptions = {}): Promise<CatalogTrainingResult> {
  const fingerprint = await lakeFingerprint(db);
  // Trajectories are replayed with the heuristic engine's own model builder: no learned model is loaded.
  const engine = createEngine(db, embedder, { valueModel: 'off' });
  const snapshot = await engine.snapshot();
  if (snapshot.tables.length === 0) throw new BadInputError('the catalog holds no tables: ingest a lake before training a value model');
  const model = await trainValueModel(snapshot, (intent) => engine.modelForIntent(intent), opts);
  const { q: _weights, ...stored } = model;
  const record = await saveValueModel(db, {
    ...stored,
    lakeFingerprint: fingerprint,
    heldOutMape: Number.isFinite(model.heldOutMape) ? model.heldOutMape : -1,
  });
  return { record, model };
}
