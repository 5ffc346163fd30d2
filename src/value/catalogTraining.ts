import { lakeFingerprint, saveValueModel, type CatalogDatabase, type ValueModelRecord } from '../catalog/index.js';
import type { Embedder } from '../embed/index.js';
import { OfflineExtractor, parseIntentGraph } from '../intent/index.js';
import { buildSynthesisModel, loadLakeSnapshot } from '../search/index.js';
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
  // Trajectories are replayed with the engine's own model builder (search's buildSynthesisModel)
  // over the whole lake, grounded by the offline extractor as the engine grounds them.
  const snapshot = await loadLakeSnapshot(db, embedder);
  if (snapshot.tables.length === 0) throw new BadInputError('the catalog holds no tables: ingest a lake before training a value model');
  const extractor = new OfflineExtractor(snapshot.vocabulary());
  const model = await trainValueModel(snapshot, (intent) => buildSynthesisModel(extractor.ground(parseIntentGraph(intent)), snapshot, embedder), opts);
  const { q: _weights, ...stored } = model;
  const record = await saveValueModel(db, {
    ...stored,
    lakeFingerprint: fingerprint,
    heldOutMape: Number.isFinite(model.heldOutMape) ? model.heldOutMape : -1,
  });
  return { record, model };
}
