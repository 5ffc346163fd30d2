/**
 * Implicit Q-learning (Kostrikov, Nair & Levine, 2021) on tfjs: offline value learning from
 * logged transitions, without ever evaluating Q on actions outside the data.
 *
 *   V loss:  mean(|tau - 1(u < 0)| · u²),  u = Q_target(s, a) - V(s)       (expectile regression)
 *   Q loss:  mean((r + gamma·(1 - done)·V(s') - Q(s, a))²)                  (V(s') held constant)
 *   Q_target ← (1 - rho)·Q_target + rho·Q                                    (Polyak, every step)
 *
 * One Q network (the paper uses twin Qs with a min; one suffices for our deterministic-ish
 * rewards and halves the cost). Per step: V update first, then Q using the updated V, then the
 * target — the order of the reference implementation.
 *
 * Optimiser: AdamW written out with tf ops (Adam moments, bias correction, then decoupled weight
 * decay w ← w·(1 - lr·wd) on weight matrices only), global-norm gradient clipping, cosine LR
 * schedule with linear warm-up. Gradients come from tf.variableGrads (tfjs autodiff).
 */
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { BadInputError, ErrorCode, GraftError } from '../util/errors.js';
import { mulberry32 } from '../util/prng.js';
import { createMlp, fitNormalisation, mlpForward, predictTf, toTfVariables, fromTfVariables, type MlpWeights } from './mlp.js';

export interface TransitionData {
  n: number;
  qDim: number;
  vDim: number;
  /** n × qDim: features of (s, a). */
  qInputs: Float32Array;
  /** n × vDim: features of s. */
  vInputs: Float32Array;
  /** n × vDim: features of s' (ignored where done = 1, but must be finite). */
  nextVInputs: Float32Array;
  rewards: Float32Array;
  /** 1 where s' is terminal (no bootstrap), else 0. */
  dones: Float32Array;
}

export type TfBackendName = 'wasm' | 'cpu';

export interface IqlConfig {
  /**
   * Hidden widths of Q and V. The paper's width is 512. Ours is 128: the Q network runs inside
   * the beam search on CPU for every admissible action (≈170 rows per question at L = 10), and at
   * [256, 256] onnxruntime alone added ~20% to a 30 ms question on the 2-core machine (inference
   * is compute-bound: ~70k multiply-adds per row). [128, 128] is 4x cheaper. Measured on the
   * Spider lake (1500 sampled sets, 2000 steps): held-out MAPE 0.58 at [128, 128], 0.49 at
   * [256, 256]; more data and steps matter more (3000 sets, 8000 steps at [128, 128]: 0.27, in
   * under 3 minutes). Training costs ~34 ms/step at [256, 256] on wasm, ~83 ms at [512, 512].
   * Raise it (`graft value train --hidden 512,512`) where hardware allows.
   */
  hidden: number[];
  gamma: number;
  /** Expectile for V (0.5 = mean, → 1 = max over the data's actions). */
  tau: number;
  /** Polyak rate of the target Q network per step. */
  rho: number;
  lr: number;
  /** Decoupled (AdamW) weight decay, applied to weight matrices, not biases. */
  weightDecay: number;
  /** Global-norm gradient clipping threshold (per network). */
  clipNorm: number;
  /** Fraction of steps with linear LR warm-up before the cosine decay. */
  warmupFraction: number;
  steps: number;
  batchSize: number;
  seed: number;
  /** tfjs backend; 'wasm' falls back to 'cpu' with one warning. */
  backend: TfBackendName;
  /** Record history / call onProgress every this many steps (default: steps/100), and at the last step. */
  logEvery?: number;
  /** Adam moments. */
  beta1: number;
  beta2: number;
  adamEps: number;
}

export const DEFAULT_IQL_CONFIG: Readonly<IqlConfig> = Object.freeze({
  hidden: [128, 128],
  gamma: 0.8,
  tau: 0.7,
  rho: 5e-3,
  lr: 3e-4,
  weightDecay: 1e-2,
  clipNorm: 1.0,
  warmupFraction: 0.05,
  steps: 8000,
  batchSize: 256,
  seed: 7,
  backend: 'wasm' as TfBackendName,
  beta1: 0.9,
  beta2: 0.999,
  adamEps: 1e-8,
});

export interface IqlHistoryEntry {
  step: number;
  qLoss: number;
  vLoss: number;
  lr: number;
}

export interface IqlResult {
  q: MlpWeights;
  v: MlpWeights;
  history: IqlHistoryEntry[];
  trainMs: number;
  /** trainMs / steps. */
  msPerStep: number;
  /** The tfjs backend actually used. */
  backend: TfBackendName;
}

export type IqlProgress = (step: number, total: number, losses: { qLoss: number; vLoss: number; lr: number }) => void;

// --- backend ---------------------------------------------------------------------------------

let warnedWasmFallback = false;

/** Selects the tfjs backend; 'wasm' falls back to 'cpu' with one warning per process. */
export async function ensureBackend(preferred: TfBackendName = 'wasm', warn: (line: string) => void = console.warn): Promise<TfBackendName> {
  if (tf.getBackend() === preferred) return preferred;
  try {
    if (!(await tf.setBackend(preferred))) throw new Error(`tf.setBackend('${preferred}') returned false`);
    await tf.ready();
    return preferred;
  } catch (err) {
    if (preferred === 'cpu') throw err;
    if (!warnedWasmFallback) {
      warnedWasmFallback = true;
      warn(`graft: tfjs wasm backend unavailable (${String((err as Error).message ?? err).split('\n')[0]}); falling back to cpu`);
    }
    if (tf.getBackend() !== 'cpu') {
      await tf.setBackend('cpu');
      await tf.ready();
    }
    return 'cpu';
  }
}

// --- losses ----------------------------------------------------------------------------------

/**
 * Expectile loss mean(|tau - 1(u < 0)| · u²). The indicator is built from tf.step (whose
 * gradient is zero) rather than tf.less, which has no gradient in tfjs.
 */
export function expectileLoss(u: tf.Tensor, tau: number): tf.Scalar {
  return tf.tidy(() => {
    const negative = tf.step(tf.neg(u)); // 1 where u < 0, 0 where u >= 0
    const weight = tf.add(tau, tf.mul(1 - 2 * tau, negative)); // tau or (1 - tau)
    return tf.mean(tf.mul(weight, tf.square(u))) as tf.Scalar;
  });
}

/** TD targets r + gamma·(1 - done)·vNext (vNext should be a constant w.r.t. the Q variables). */
export function tdTargets(r: tf.Tensor, done: tf.Tensor, vNext: tf.Tensor, gamma: number): tf.Tensor {
  return tf.tidy(() => tf.add(r, tf.mul(tf.mul(tf.sub(1, done), vNext), gamma)));
}

// --- optimiser -------------------------------------------------------------------------------

/** Cosine learning rate with linear warm-up over the first warmupFraction of the steps. */
export function lrAt(step: number, total: number, baseLr: number, warmupFraction: number): number {
  const warm = Math.floor(total * warmupFraction);
  if (step < warm) return (baseLr * (step + 1)) / warm;
  const progress = (step - warm) / Math.max(1, total - warm);
  return baseLr * 0.5 * (1 + Math.cos(Math.PI * Math.min(1, progress)));
}

/** Scales grads so their global L2 norm is at most clipNorm (tfjs has no clipByGlobalNorm). Call inside tidy. */
export function clipByGlobalNorm(grads: tf.Tensor[], clipNorm: number): { grads: tf.Tensor[]; norm: tf.Scalar } {
  const norm = tf.sqrt(tf.addN(grads.map((g) => tf.sum(tf.square(g))))) as tf.Scalar;
  const scale = tf.div(clipNorm, tf.maximum(norm, clipNorm)); // 1 when under the threshold
  return { grads: grads.map((g) => tf.mul(g, scale)), norm };
}

export interface AdamWOptions {
  weightDecay: number;
  clipNorm: number;
  beta1?: number;
  beta2?: number;
  eps?: number;
}

/**
 * AdamW with decoupled weight decay and global-norm clipping, on explicit tf.Variables. The
 * decay, w ← w·(1 - lr·wd), is applied after the Adam step and only to `decayed` variables.
 */
export class AdamW {
  private readonly m: tf.Variable[];
  private readonly v: tf.Variable[];
  private readonly decayed: Set<tf.Variable>;
  private readonly beta1: number;
  private readonly beta2: number;
  private readonly eps: number;
  private t = 0;

  constructor(
    private readonly params: tf.Variable[],
    decayed: tf.Variable[],
    private readonly options: AdamWOptions,
  ) {
    this.decayed = new Set(decayed);
    this.beta1 = options.beta1 ?? 0.9;
    this.beta2 = options.beta2 ?? 0.999;
    this.eps = options.eps ?? 1e-8;
    // tidy drops the zerosLike temporaries; the variables keep their (refcounted) data.
    this.m = tf.tidy(() => params.map((p) => tf.variable(tf.zerosLike(p), false)));
    this.v = tf.tidy(() => params.map((p) => tf.variable(tf.zerosLike(p), false)));
  }

  /** One update; grads aligned with params (or keyed by variable name, as tf.variableGrads returns). */
  step(grads: tf.Tensor[] | Record<string, tf.Tensor>, lr: number): void {
    this.t++;
    const t = this.t;
    tf.tidy(() => {
      const list = Array.isArray(grads)
        ? grads
        : this.params.map((p) => {
            const g = grads[p.name];
            if (!g) throw new Error(`AdamW: no gradient for variable ${p.name}`);
            return g;
          });
      const { grads: clipped } = clipByGlobalNorm(list, this.options.clipNorm);
      const { beta1, beta2, eps } = this;
      const c1 = 1 - beta1 ** t;
      const c2 = 1 - beta2 ** t;
      this.params.forEach((p, i) => {
        const g = clipped[i];
        const m = tf.add(tf.mul(this.m[i], beta1), tf.mul(g, 1 - beta1));
        const v = tf.add(tf.mul(this.v[i], beta2), tf.mul(tf.square(g), 1 - beta2));
        this.m[i].assign(m);
        this.v[i].assign(v);
        const update = tf.div(tf.div(m, c1), tf.add(tf.sqrt(tf.div(v, c2)), eps));
        let next = tf.sub(p, tf.mul(update, lr));
        if (this.decayed.has(p) && this.options.weightDecay !== 0) next = tf.mul(next, 1 - lr * this.options.weightDecay);
        p.assign(next);
      });
    });
  }

  dispose(): void {
    for (const x of [...this.m, ...this.v]) x.dispose();
  }
}

// --- training --------------------------------------------------------------------------------

function resolveConfig(cfg: Partial<IqlConfig>): IqlConfig {
  const c: IqlConfig = { ...DEFAULT_IQL_CONFIG, hidden: [...DEFAULT_IQL_CONFIG.hidden], ...cfg };
  const bad = (field: string, why: string) => new BadInputError(`IQL config: ${field} ${why}`, { field });
  if (!Array.isArray(c.hidden) || c.hidden.some((h) => !Number.isInteger(h) || h <= 0)) throw bad('hidden', 'must be positive integers');
  if (!(c.gamma >= 0 && c.gamma <= 1)) throw bad('gamma', 'must be in [0, 1]');
  if (!(c.tau > 0 && c.tau < 1)) throw bad('tau', 'must be in (0, 1)');
  if (!(c.rho > 0 && c.rho <= 1)) throw bad('rho', 'must be in (0, 1]');
  if (!(c.lr > 0)) throw bad('lr', 'must be positive');
  if (!(c.weightDecay >= 0)) throw bad('weightDecay', 'must be >= 0');
  if (!(c.clipNorm > 0)) throw bad('clipNorm', 'must be positive');
  if (!(c.warmupFraction >= 0 && c.warmupFraction < 1)) throw bad('warmupFraction', 'must be in [0, 1)');
  if (!Number.isInteger(c.steps) || c.steps <= 0) throw bad('steps', 'must be a positive integer');
  if (!Number.isInteger(c.batchSize) || c.batchSize <= 0) throw bad('batchSize', 'must be a positive integer');
  if (c.backend !== 'wasm' && c.backend !== 'cpu') throw bad('backend', "must be 'wasm' or 'cpu'");
  if (c.logEvery !== undefined && (!Number.isInteger(c.logEvery) || c.logEvery <= 0)) throw bad('logEvery', 'must be a positive integer');
  return c;
}

function validateData(d: TransitionData): void {
  const bad = (msg: string) => new BadInputError(`IQL data: ${msg}`);
  if (!Number.isInteger(d.n) || d.n <= 0) throw bad(`n must be a positive integer, not ${d.n}`);
  if (!Number.isInteger(d.qDim) || d.qDim <= 0 || !Number.isInteger(d.vDim) || d.vDim <= 0) throw bad('qDim and vDim must be positive integers');
  const sizes: [string, Float32Array, number][] = [
    ['qInputs', d.qInputs, d.n * d.qDim],
    ['vInputs', d.vInputs, d.n * d.vDim],
    ['nextVInputs', d.nextVInputs, d.n * d.vDim],
    ['rewards', d.rewards, d.n],
    ['dones', d.dones, d.n],
  ];
  for (const [name, arr, expected] of sizes) {
    if (!arr || arr.length !== expected) throw bad(`${name} has ${arr?.length ?? 0} values, expected ${expected}`);
    for (let i = 0; i < arr.length; i++) {
      if (!Number.isFinite(arr[i])) throw bad(`${name}[${i}] is not finite`);
    }
  }
}

/** Copies the rows `idx` of an n×dim matrix into out (batch×dim). */
function gatherRows(src: Float32Array, dim: number, idx: Int32Array, out: Float32Array): void {
  for (let b = 0; b < idx.length; b++) out.set(src.subarray(idx[b] * dim, idx[b] * dim + dim), b * dim);
}

/**
 * Trains Q and V with IQL on the transitions. Mini-batches are drawn uniformly with replacement
 * (seeded). Input normalisation is fitted on qInputs (Q) and vInputs (V) and baked into the
 * returned networks. Leaves the chosen tfjs backend active; leaks no tensors.
 */
export async function trainIql(data: TransitionData, cfg: Partial<IqlConfig> = {}, onProgress?: IqlProgress): Promise<IqlResult> {
  const c = resolveConfig(cfg);
  validateData(data);
  const backend = await ensureBackend(c.backend);
  const start = performance.now();
  const { n, qDim, vDim } = data;

  const qNorm = fitNormalisation(data.qInputs, n, qDim);
  const vNorm = fitNormalisation(data.vInputs, n, vDim);
  const q0 = createMlp(qDim, c.hidden, c.seed, { inputMean: qNorm.mean, inputStd: qNorm.std });
  const v0 = createMlp(vDim, c.hidden, c.seed + 1, { inputMean: vNorm.mean, inputStd: vNorm.std });
  const q = toTfVariables(q0);
  const qTarget = toTfVariables(q0, false);
  const v = toTfVariables(v0);
  const adam = { weightDecay: c.weightDecay, clipNorm: c.clipNorm, beta1: c.beta1, beta2: c.beta2, eps: c.adamEps };
  const qOpt = new AdamW(q.trainable, q.matrices, adam);
  const vOpt = new AdamW(v.trainable, v.matrices, adam);

  const rand = mulberry32((c.seed ^ 0x9e3779b9) >>> 0);
  const B = c.batchSize;
  const idx = new Int32Array(B);
  const bq = new Float32Array(B * qDim);
  const bv = new Float32Array(B * vDim);
  const bnext = new Float32Array(B * vDim);
  const br = new Float32Array(B);
  const bd = new Float32Array(B);
  const logEvery = c.logEvery ?? Math.max(1, Math.round(c.steps / 100));
  const history: IqlHistoryEntry[] = [];
  const { tau, gamma, rho } = c;

  try {
    for (let step = 0; step < c.steps; step++) {
      for (let b = 0; b < B; b++) idx[b] = Math.floor(rand() * n);
      gatherRows(data.qInputs, qDim, idx, bq);
      gatherRows(data.vInputs, vDim, idx, bv);
      gatherRows(data.nextVInputs, vDim, idx, bnext);
      for (let b = 0; b < B; b++) {
        br[b] = data.rewards[idx[b]];
        bd[b] = data.dones[idx[b]];
      }
      const lr = lrAt(step, c.steps, c.lr, c.warmupFraction);

      const losses = tf.tidy(() => {
        const xq = tf.tensor2d(bq, [B, qDim]);
        const xv = tf.tensor2d(bv, [B, vDim]);
        const xnext = tf.tensor2d(bnext, [B, vDim]);
        const r = tf.tensor1d(br);
        const d = tf.tensor1d(bd);

        // V: expectile regression towards the target Q (target variables are not trainable).
        const qt = mlpForward(qTarget, xq);
        const vStep = tf.variableGrads(() => expectileLoss(tf.sub(qt, mlpForward(v, xv)), tau), v.trainable);
        vOpt.step(vStep.grads, lr);

        // Q: TD regression on r + gamma (1 - done) V(s'), V(s') a constant here.
        const target = tdTargets(r, d, mlpForward(v, xnext), gamma);
        const qStep = tf.variableGrads(() => tf.mean(tf.square(tf.sub(target, mlpForward(q, xq)))) as tf.Scalar, q.trainable);
        qOpt.step(qStep.grads, lr);

        // Polyak-averaged target.
        q.trainable.forEach((p, i) => {
          const t = qTarget.trainable[i];
          t.assign(tf.add(tf.mul(t, 1 - rho), tf.mul(p, rho)));
        });
        return tf.stack([qStep.value, vStep.value]);
      });

      if ((step + 1) % logEvery === 0 || step === c.steps - 1) {
        const [qLoss, vLoss] = Array.from(losses.dataSync());
        losses.dispose();
        if (!Number.isFinite(qLoss) || !Number.isFinite(vLoss)) {
          throw new GraftError(ErrorCode.INTERNAL, `IQL diverged at step ${step + 1}: qLoss ${qLoss}, vLoss ${vLoss}`, { step: step + 1 });
        }
        history.push({ step: step + 1, qLoss, vLoss, lr });
        onProgress?.(step + 1, c.steps, { qLoss, vLoss, lr });
        // Let timers and progress output run between chunks of synchronous tfjs work.
        await new Promise((resolve) => setImmediate(resolve));
      } else {
        losses.dispose();
      }
    }
    const trainMs = performance.now() - start;
    return { q: fromTfVariables(q), v: fromTfVariables(v), history, trainMs, msPerStep: trainMs / c.steps, backend };
  } finally {
    qOpt.dispose();
    vOpt.dispose();
    q.dispose();
    qTarget.dispose();
    v.dispose();
  }
}

// --- evaluation ------------------------------------------------------------------------------

/** Floor on |y| in heldOutMape, so near-zero returns do not blow the percentage up. */
export const MAPE_EPS = 0.05;

/**
 * Mean absolute percentage error of Q's predictions against Monte-Carlo returns, robust to
 * near-zero targets: mean(|pred - y| / max(|y|, eps)), eps = 0.05 by default. For |y| ≥ eps
 * this is the ordinary MAPE (as a fraction, not ×100); below it, the absolute error / eps.
 */
export function heldOutMape(weights: MlpWeights, qInputs: Float32Array, targets: Float32Array, eps = MAPE_EPS): number {
  const n = targets.length;
  if (n === 0) return 0;
  const pred = predictTf(weights, qInputs, n);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += Math.abs(pred[i] - targets[i]) / Math.max(Math.abs(targets[i]), eps);
  return sum / n;
}
