import { LlmIntentExtractor, llmConfigFromEnv, parseIntentGraph, type IntentGraph } from '../../intent/index.js';
import { checkpoint } from '../../search/index.js';
import { BadInputError } from '../../util/errors.js';
import type { View } from '../snapshotCache.js';
import type { IntentResult } from '../types.js';

export interface ExtractInput {
  question: string;
  view: View;
  extractor?: 'offline' | 'llm';
  /** A given intent graph: grounded by the view's offline extractor instead of extracting. */
  intent?: IntentGraph;
  signal?: AbortSignal;
}

/** Stage 1: the question (or a given intent graph) as an intent graph grounded in the view. */
export async function extractStage(input: ExtractInput): Promise<IntentResult> {
  await checkpoint(input.signal);
  const { question, view: v } = input;
  if (input.intent) return { graph: v.extractor.ground(parseIntentGraph(input.intent)), source: 'given', warnings: [], elapsedMs: 0 };
  const started = performance.now();
  if (input.extractor === 'llm') {
    const config = llmConfigFromEnv();
    if (!config) throw new BadInputError('extractor LLM needs GRAFT_LLM_BASE_URL and GRAFT_LLM_MODEL');
    const llm = new LlmIntentExtractor({ ...config, fallback: v.extractor });
    const r = await llm.extract(question);
    return { graph: r.graph, source: r.source, warnings: r.warnings, elapsedMs: performance.now() - started };
  }
  const r = v.extractor.extract(question);
  return { graph: r.graph, source: 'offline', warnings: r.warnings, elapsedMs: performance.now() - started };
}
