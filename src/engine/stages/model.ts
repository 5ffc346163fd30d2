import type { Embedder } from '../../embed/index.js';
import type { IntentAtom, IntentGraph } from '../../intent/index.js';
import { buildSynthesisModel, checkpoint, type LakeSnapshot, type SynthesisModel } from '../../search/index.js';

export interface ModelInput {
  graph: IntentGraph;
  snapshot: LakeSnapshot;
  embedder: Embedder;
  signal?: AbortSignal;
}

export interface BuiltModel {
  model: SynthesisModel;
  atoms: IntentAtom[];
}

/** Stage 2: the synthesis model (supports of every table for every atom) of a grounded graph. */
export async function modelStage(input: ModelInput): Promise<BuiltModel> {
  await checkpoint(input.signal);
  return buildSynthesisModel(input.graph, input.snapshot, input.embedder);
}
