import type { SearchAction, SearchState, ValueContext, ValueFunction } from '../search/index.js';
import { FEATURE_DIM, stateActionFeatures } from './features.js';

/** Anything that scores a batch of feature rows with Q (the ONNX session, or tfjs in tests). */
export interface QScorer {
  score(features: Float32Array, n: number): Promise<Float32Array>;
}

/**
 * Q(s, a) learned offline (src/value): the engine computes the feature rows of every admissible
 * action of every state of a beam step and scores them in ONE batched call.
 *
 * Beam search ranks a candidate by U(s) + score(s, a). The learned Q already estimates the
 * (discounted) utility the synthesis ends with, so this hands back Q - U(s): the beam then ranks
 * by Q itself.
 */
export class LearnedValueFunction implements ValueFunction {
  readonly name: string;
  /** Cumulative cost, split into feature computation and inference (what the benchmark reports). */
  readonly stats = { calls: 0, rows: 0, featureMs: 0, inferenceMs: 0 };

  constructor(
    private readonly scorer: QScorer,
    name = 'learned',
  ) {
    this.name = name;
  }

  async score(state: SearchState, actions: SearchAction[], ctx: ValueContext): Promise<Float64Array> {
    return (await this.scoreFrontier([{ state, actions }], ctx))[0];
  }

  /** Every admissible action of a beam step in one batched inference call. */
  async scoreFrontier(frontier: { state: SearchState; actions: SearchAction[] }[], ctx: ValueContext): Promise<Float64Array[]> {
    const rows = frontier.reduce((n, f) => n + f.actions.length, 0);
    if (rows === 0) return frontier.map(() => new Float64Array(0));
    const t0 = performance.now();
    const x = new Float32Array(rows * FEATURE_DIM);
    let offset = 0;
    for (const f of frontier) {
      x.set(stateActionFeatures(f.state, f.actions, ctx), offset * FEATURE_DIM);
      offset += f.actions.length;
    }
    const t1 = performance.now();
    const q = await this.scorer.score(x, rows);
    this.stats.featureMs += t1 - t0;
    this.stats.inferenceMs += performance.now() - t1;
    this.stats.calls++;
    this.stats.rows += rows;
    offset = 0;
    return frontier.map(({ state, actions }) => {
      const out = new Float64Array(actions.length);
      for (let i = 0; i < actions.length; i++) out[i] = q[offset + i] - state.utility;
      offset += actions.length;
      return out;
    });
  }
}
