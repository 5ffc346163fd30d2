import type { Embedder } from '../embed/index.js';
import type { ValueFunction } from '../search/index.js';
import type { View } from './snapshotCache.js';
import { extractStage } from './stages/extract.js';
import { fuseStage } from './stages/fuse.js';
import { modelStage } from './stages/model.js';
import { previewStage } from './stages/preview.js';
import { searchStage } from './stages/search.js';
import type { AskOptions, SynthesisResult } from './types.js';

/** The names of the synthesis stages, in the order `runSynthesis` runs them. */
export const SYNTHESIS_STAGES = ['extract', 'model', 'search', 'fuse', 'preview'] as const;
export type SynthesisStage = (typeof SYNTHESIS_STAGES)[number];

export interface SynthesisRequest {
  question: string;
  options: AskOptions;
  view: View;
  embedder: Embedder;
  /** Validated by the caller. */
  budget: number;
  beamWidth: number;
  valueFunction: ValueFunction;
}

/**
 * extract -> model -> search -> fuse -> preview. Each stage checks the signal as it starts
 * (search also inside, and after), so an aborted call stops at the next stage boundary.
 */
export async function runSynthesis(req: SynthesisRequest): Promise<SynthesisResult> {
  const { question, options: opts, view } = req;
  const signal = opts.signal;
  const intent = await extractStage({ question, view, extractor: opts.extractor, intent: opts.intent, signal });
  const { model, atoms } = await modelStage({ graph: intent.graph, snapshot: view.snapshot, embedder: req.embedder, signal });
  const strategy = opts.strategy ?? 'beam';
  const outcome = await searchStage({
    model,
    question,
    budget: req.budget,
    beamWidth: req.beamWidth,
    valueFunction: req.valueFunction,
    strategy,
    minGain: opts.minGain,
    minAlternateConfidence: opts.minAlternateConfidence,
    signal,
  });
  const { result, plan } = await fuseStage({
    question,
    intent,
    snapshot: view.snapshot,
    model,
    atoms,
    outcome,
    valueFunctionName: opts.strategy === 'exact' ? 'none (exact)' : req.valueFunction.name,
    signal,
  });
  return previewStage({ result, plan, rows: opts.preview, signal });
}
