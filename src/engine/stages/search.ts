import { checkpoint, searchSynthesis, type SynthesisModel, type ValueFunction } from '../../search/index.js';
import type { AskOptions } from '../types.js';

export interface SearchInput {
  model: SynthesisModel;
  question: string;
  budget: number;
  beamWidth: number;
  valueFunction: ValueFunction;
  strategy: NonNullable<AskOptions['strategy']>;
  minGain?: number;
  minAlternateConfidence?: number;
  /** Also checked inside the search: between beam depths, before each rerank and exact start. */
  signal?: AbortSignal;
}

export type SearchOutcome = Awaited<ReturnType<typeof searchSynthesis>>;

/** Stage 3: the table set the search picks within the budget. */
export async function searchStage(input: SearchInput): Promise<SearchOutcome> {
  await checkpoint(input.signal);
  const outcome = await searchSynthesis(input.model, {
    budget: input.budget,
    beamWidth: input.beamWidth,
    valueFunction: input.valueFunction,
    question: input.question,
    strategy: input.strategy,
    signal: input.signal,
    ...(input.minGain !== undefined ? { minGain: input.minGain } : {}),
    ...(input.minAlternateConfidence !== undefined ? { minAlternateConfidence: input.minAlternateConfidence } : {}),
  });
  await checkpoint(input.signal);
  return outcome;
}
