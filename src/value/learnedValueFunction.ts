import type { SearchAction, SearchState, ValueContext, ValueFunction } from '../search/index.js';
import { stateActionFeatures } from './features.js';

/** Anything that scores a batch of feature rows with Q (the ONNX session, or tfjs in tests). */
export interface QScorer {
  score(features: Float32Array, n: number): Promise<Float32Array>;
}

/**
 * Q(s, a) learned offline (src/value): the engine computes the feature rows of every admissible
 * action of a beam state and scores them in ONE batched call.
 *
 * Beam search ranks a candidate by U(s) + score(s, a). The learned Q already estimates the
 * (discounted) utility the synthesis ends with, so this hands back Q - U(s): the beam then ranks
 * by Q itself.
 */
export class LearnedValueFunction implements ValueFunction {
  readonly name: string;

  constructor(
    private readonly scorer: QScorer,
    name = 'learned',
  ) {
    this.name = name;
  }

  async score(state: SearchState, actions: SearchAction[], ctx: ValueContext): Promise<Float64Array> {
    if (actions.length === 0) return new Float64Array(0);
    const q = await this.scorer.score(stateActionFeatures(state, actions, ctx), actions.length);
    const out = new Float64Array(actions.length);
    for (let i = 0; i < actions.length; i++) out[i] = q[i] - state.utility;
    return out;
  }
}
