import type { NewValueModel } from '../catalog/index.js';
import { BadInputError } from '../util/errors.js';
import type { LakeSnapshot } from '../search/index.js';
import { FEATURE_NAMES, FEATURE_VERSION, FEATURE_DIM } from './features.js';
import { heldOutMape, trainIql, type IqlConfig, type TransitionData } from './iql.js';
import type { MlpWeights } from './mlp.js';
import { exportMlpToOnnx } from './onnxExport.js';
import { DEFAULT_TRANSITION_OPTIONS, generateTransitions, type ModelForIntent, type TransitionOptions } from './transitions.js';

export interface TrainValueOptions {
  transitions?: Partial<TransitionOptions>;
  iql?: Partial<IqlConfig>;
  /** Share of sampled subgraphs held out to measure the value MAPE (never trained on). */
  heldOutFraction?: number;
  onProgress?: (phase: 'trajectories' | 'training', done: number, total: number, detail?: string) => void;
}

/** A trained model: the catalog record's fields (all but the lake it is stored for) plus the weights. */
export interface TrainedValueModel extends Omit<NewValueModel, 'lakeFingerprint'> {
  q: MlpWeights;
}

/** Whether a sampled subgraph is in the held-out split: a fixed hash of its index, not a random draw. */
const isHeldOut = (group: number, fraction: number) => ((Math.imul(group + 1, 2654435761) >>> 0) % 1000) / 1000 < fraction;

/**
 * The whole offline pipeline: self-generated trajectories -> IQL -> Q exported to ONNX, with
 * the held-out MAPE of Q against the Monte-Carlo returns of held-out episodes.
 */
export async function trainValueModel(snapshot: LakeSnapshot, modelForIntent: ModelForIntent, opts: TrainValueOptions = {}): Promise<TrainedValueModel> {
  const started = performance.now();
  const tOpts = { ...DEFAULT_TRANSITION_OPTIONS, ...opts.transitions };
  const gamma = opts.iql?.gamma ?? tOpts.gamma;
  const set = await generateTransitions(snapshot, modelForIntent, { ...tOpts, gamma }, (d, t) => opts.onProgress?.('trajectories', d, t));
  if (set.data.n === 0) throw new BadInputError('no trajectory could be generated from this lake: it has no join or union edges to sample connected table sets from');
  const fraction = opts.heldOutFraction ?? 0.1;
  const trainIdx: number[] = [];
  const heldIdx: number[] = [];
  for (let i = 0; i < set.data.n; i++) (isHeldOut(set.group[i], fraction) ? heldIdx : trainIdx).push(i);
  const trainData = subsetTransitions(set.data, trainIdx);
  const generationMs = performance.now() - started;
  const result = await trainIql(trainData, { ...opts.iql, gamma }, (step, total, losses) =>
    opts.onProgress?.('training', step, total, `q ${losses.qLoss.toFixed(4)} v ${losses.vLoss.toFixed(4)}`),
  );
  const held = subsetTransitions(set.data, heldIdx);
  const heldReturns = Float32Array.from(heldIdx, (i) => set.returns[i]);
  const mape = held.n > 0 ? await heldOutMape(result.q, held.qInputs, heldReturns) : Number.NaN;
  const last = result.history[result.history.length - 1];
  return {
    featureVersion: FEATURE_VERSION,
    inputDim: FEATURE_DIM,
    sampler: tOpts.sampler,
    gamma,
    trajectories: set.subgraphs,
    transitions: set.data.n,
    heldOutMape: mape,
    trainMs: Math.round(performance.now() - started),
    q: result.q,
    onnx: exportMlpToOnnx(result.q, { name: 'graft-q' }),
    metadata: {
      featureNames: FEATURE_NAMES,
      transitionOptions: { ...tOpts, gamma },
      iql: { ...opts.iql, gamma },
      episodes: set.episodes,
      skippedSubgraphs: set.skipped,
      heldOutTransitions: held.n,
      generationMs: Math.round(generationMs),
      iqlMs: Math.round(result.trainMs),
      iqlMsPerStep: result.msPerStep,
      backend: result.backend,
      finalLosses: last ? { q: last.qLoss, v: last.vLoss } : null,
      meanReturn: mean(set.returns),
    },
  };
}

export function subsetTransitions(d: TransitionData, idx: number[]): TransitionData {
  const pick = (src: Float32Array, dim: number) => {
    const out = new Float32Array(idx.length * dim);
    idx.forEach((i, k) => out.set(src.subarray(i * dim, (i + 1) * dim), k * dim));
    return out;
  };
  return {
    n: idx.length,
    qDim: d.qDim,
    vDim: d.vDim,
    qInputs: pick(d.qInputs, d.qDim),
    vInputs: pick(d.vInputs, d.vDim),
    nextVInputs: pick(d.nextVInputs, d.vDim),
    rewards: pick(d.rewards, 1),
    dones: pick(d.dones, 1),
  };
}

function mean(a: Float32Array): number {
  let s = 0;
  for (const x of a) s += x;
  return a.length ? s / a.length : 0;
}

