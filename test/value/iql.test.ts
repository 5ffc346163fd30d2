import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  AdamW,
  clipByGlobalNorm,
  ensureBackend,
  expectileLoss,
  heldOutMape,
  lrAt,
  tdTargets,
  trainIql,
  type IqlConfig,
  type TransitionData,
} from '../../src/value/iql.js';
import { createMlp, denseMatMul, deserializeMlp, predictTf, serializeMlp, type MlpWeights } from '../../src/value/mlp.js';
import { BadInputError } from '../../src/util/errors.js';

beforeAll(async () => {
  expect(await ensureBackend('wasm')).toBe('wasm');
});

const close = (a: ArrayLike<number>, b: ArrayLike<number>, tol = 1e-6) => {
  expect(a.length).toBe(b.length);
  for (let i = 0; i < a.length; i++) expect(Math.abs(a[i] - b[i])).toBeLessThan(tol);
};

describe('loss functions', () => {
  it('expectileLoss matches hand-worked values', () => {
    const at = (u: number[], tau: number) => tf.tidy(() => expectileLoss(tf.tensor1d(u), tau).dataSync()[0]);
    // (0.7·1² + 0.3·1²) / 2
    expect(at([1, -1], 0.7)).toBeCloseTo(0.5, 6);
    // tau = 0.5 is half the mean squared error.
    const u = [2, -3, 0.5, 0];
    const mse = u.reduce((s, x) => s + x * x, 0) / u.length;
    expect(at(u, 0.5)).toBeCloseTo(mse / 2, 6);
    // Asymmetric: positive residuals weigh tau, negative 1 - tau.
    expect(at([2], 0.9)).toBeCloseTo(0.9 * 4, 5);
    expect(at([-2], 0.9)).toBeCloseTo(0.1 * 4, 5);
  });

  it('expectileLoss has the expectile as its minimiser (gradient check)', () => {
    // For values {0, 1} equally often, d/de of the loss vanishes at e = tau.
    const grad = (e: number, tau: number) =>
      tf.tidy(() => {
        const ev = tf.scalar(e);
        const g = tf.grad((x: tf.Tensor) => expectileLoss(tf.sub(tf.tensor1d([0, 1]), x), tau))(ev);
        return g.dataSync()[0];
      });
    expect(Math.abs(grad(0.7, 0.7))).toBeLessThan(1e-6);
    expect(grad(0.6, 0.7)).toBeLessThan(0);
    expect(grad(0.8, 0.7)).toBeGreaterThan(0);
  });

  it('tdTargets bootstraps only where not done', () => {
    const out = tf.tidy(() => tdTargets(tf.tensor1d([1, 2, -1]), tf.tensor1d([0, 1, 0]), tf.tensor1d([10, 10, 5]), 0.8).dataSync());
    close(out, [1 + 8, 2, -1 + 4], 1e-5);
  });
});

describe('optimiser pieces', () => {
  it('AdamW with zero gradient shrinks weight matrices by (1 - lr·wd) and leaves biases alone', () => {
    const w = tf.variable(tf.tensor2d([[1, 2], [3, 4]]));
    const b = tf.variable(tf.tensor1d([1, -1]));
    const opt = new AdamW([w, b], [w], { weightDecay: 0.01, clipNorm: 1 });
    const lr = 0.1;
    tf.tidy(() => opt.step([tf.zerosLike(w), tf.zerosLike(b)], lr));
    close(w.dataSync(), [1, 2, 3, 4].map((x) => x * (1 - lr * 0.01)), 1e-6);
    expect(Array.from(b.dataSync())).toEqual([1, -1]);
    tf.tidy(() => opt.step([tf.zerosLike(w), tf.zerosLike(b)], lr));
    close(w.dataSync(), [1, 2, 3, 4].map((x) => x * (1 - lr * 0.01) ** 2), 1e-6);
    opt.dispose();
    w.dispose();
    b.dispose();
  });

  it('AdamW first step moves each weight by lr against the gradient sign, then decays', () => {
    const w = tf.variable(tf.tensor1d([1, 1]));
    const opt = new AdamW([w], [w], { weightDecay: 0.5, clipNorm: 100 });
    tf.tidy(() => opt.step([tf.tensor1d([0.3, -2])], 0.1));
    close(w.dataSync(), [(1 - 0.1) * (1 - 0.05), (1 + 0.1) * (1 - 0.05)], 1e-5);
    opt.dispose();
    w.dispose();
  });

  it('clipByGlobalNorm scales down only above the threshold', () => {
    const [big, small, norm] = tf.tidy(() => {
      const a = clipByGlobalNorm([tf.tensor1d([3]), tf.tensor1d([4])], 1);
      const b = clipByGlobalNorm([tf.tensor1d([0.3, 0.4])], 1);
      return [a.grads.map((g) => g.dataSync()[0]), Array.from(b.grads[0].dataSync()), a.norm.dataSync()[0]];
    });
    close(big as number[], [0.6, 0.8], 1e-6);
    close(small as number[], [0.3, 0.4], 1e-6);
    expect(norm).toBeCloseTo(5, 5);
  });

  it('lrAt: linear warm-up then cosine decay', () => {
    expect(lrAt(0, 100, 1, 0.05)).toBeCloseTo(0.2);
    expect(lrAt(4, 100, 1, 0.05)).toBeCloseTo(1);
    expect(lrAt(5, 100, 1, 0.05)).toBeCloseTo(1);
    expect(lrAt(5 + 95 / 2, 100, 1, 0.05)).toBeCloseTo(0.5);
    expect(lrAt(99, 100, 1, 0.05)).toBeLessThan(0.01);
    expect(lrAt(10, 100, 1, 0)).toBeCloseTo(0.5 * (1 + Math.cos((Math.PI * 10) / 100)));
    for (let s = 6; s < 100; s++) expect(lrAt(s, 100, 1, 0.05)).toBeLessThanOrEqual(lrAt(s - 1, 100, 1, 0.05));
  });

  it("denseMatMul's gradient equals tf.matMul's", () => {
    const [ours, theirs] = tf.tidy(() => {
      const h = tf.tensor2d([[1, 2, 3], [-1, 0.5, 2]]);
      const w = tf.tensor2d([[0.1, 0.2], [0.3, -0.4], [0.5, 0.6]]);
      const up = tf.tensor2d([[1, -2], [3, 0.5]]);
      const g1 = tf.grads((a: tf.Tensor, b: tf.Tensor) => tf.sum(tf.mul(denseMatMul(a, b), up)))([h, w]);
      const g2 = tf.grads((a: tf.Tensor, b: tf.Tensor) => tf.sum(tf.mul(tf.matMul(a as tf.Tensor2D, b as tf.Tensor2D), up)))([h, w]);
      return [g1.map((g) => Array.from(g.dataSync())), g2.map((g) => Array.from(g.dataSync()))];
    });
    close(ours[0], theirs[0], 1e-6);
    close(ours[1], theirs[1], 1e-6);
  });
});

describe('MLP helpers', () => {
  it('serializeMlp/deserializeMlp round-trips exactly through JSON', () => {
    const w = createMlp(5, [4, 3], 11, { inputMean: Float32Array.from([1, 2, 3, 4, 5]), inputStd: Float32Array.from([1, 0.5, 2, 1e-6, 3]) });
    const back = deserializeMlp(JSON.parse(JSON.stringify(serializeMlp(w))));
    expect(back.hidden).toEqual([4, 3]);
    back.layers.forEach((l, i) => {
      expect(Array.from(l.w)).toEqual(Array.from(w.layers[i].w));
      expect(Array.from(l.b)).toEqual(Array.from(w.layers[i].b));
    });
    expect(Array.from(back.inputStd)).toEqual(Array.from(w.inputStd));
    expect(() => deserializeMlp({ ...serializeMlp(w), inputMean: 'AAAA' })).toThrow(BadInputError);
  });

  it('createMlp is deterministic per seed', () => {
    expect(Array.from(createMlp(3, [4], 5).layers[0].w)).toEqual(Array.from(createMlp(3, [4], 5).layers[0].w));
    expect(Array.from(createMlp(3, [4], 5).layers[0].w)).not.toEqual(Array.from(createMlp(3, [4], 6).layers[0].w));
  });

  it('heldOutMape = mean(|pred - y| / max(|y|, 0.05))', () => {
    // Linear model q = x (identity on one feature, no hidden layers).
    const linear: MlpWeights = {
      inputDim: 1,
      hidden: [],
      layers: [{ w: Float32Array.from([1]), b: Float32Array.from([0]), in: 1, out: 1 }],
      inputMean: Float32Array.from([0]),
      inputStd: Float32Array.from([1]),
    };
    const preds = Float32Array.from([1.1, 0.01, -2]);
    const ys = Float32Array.from([1, 0, -2]);
    // (0.1 / 1 + 0.01 / 0.05 + 0) / 3
    expect(heldOutMape(linear, preds, ys)).toBeCloseTo((0.1 + 0.2) / 3, 5);
  });
});

// --- training on tiny problems with known answers ------------------------------------------

function oneHot(i: number, k: number): number[] {
  return Array.from({ length: k }, (_, j) => (j === i ? 1 : 0));
}

function dataset(rows: { q: number[]; v: number[]; next: number[]; r: number; done: number }[]): TransitionData {
  return {
    n: rows.length,
    qDim: rows[0].q.length,
    vDim: rows[0].v.length,
    qInputs: Float32Array.from(rows.flatMap((r) => r.q)),
    vInputs: Float32Array.from(rows.flatMap((r) => r.v)),
    nextVInputs: Float32Array.from(rows.flatMap((r) => r.next)),
    rewards: Float32Array.from(rows.map((r) => r.r)),
    dones: Float32Array.from(rows.map((r) => r.done)),
  };
}

const small: Partial<IqlConfig> = { hidden: [32, 32], lr: 1e-2, rho: 0.05, batchSize: 64, seed: 3 };

function predictRows(w: MlpWeights, rows: number[][]): Float32Array {
  return predictTf(w, Float32Array.from(rows.flat()), rows.length);
}

describe('trainIql', () => {
  it('one-step bandit: Q converges to each action reward; no tensor leaks; progress reported', async () => {
    const rewards = [0.2, 1.0, -0.5, 0.7];
    const rows = Array.from({ length: 64 }, (_, i) => ({ q: oneHot(i % 4, 4), v: [1], next: [0], r: rewards[i % 4], done: 1 }));
    const before = tf.memory().numTensors;
    const seen: number[] = [];
    const res = await trainIql(dataset(rows), { ...small, steps: 300, logEvery: 50 }, (step, total) => {
      expect(total).toBe(300);
      seen.push(step);
    });
    expect(tf.memory().numTensors).toBe(before);
    expect(res.backend).toBe('wasm');
    expect(seen).toEqual([50, 100, 150, 200, 250, 300]);
    expect(res.history.map((h) => h.step)).toEqual(seen);
    expect(res.history.at(-1)!.qLoss).toBeLessThan(1e-3);
    const q = predictRows(res.q, [0, 1, 2, 3].map((a) => oneHot(a, 4)));
    close(q, rewards, 0.05);
  });

  it('V converges to the tau-expectile of Q over the data actions (tau = 0.7 -> 0.7 for {0, 1})', async () => {
    // Expectile e of Bernoulli(0.5) on {0, 1}: tau·(1 - e)·0.5 = (1 - tau)·e·0.5  =>  e = tau.
    const rows = Array.from({ length: 64 }, (_, i) => ({ q: oneHot(i % 2, 2), v: [1], next: [0], r: i % 2, done: 1 }));
    const res = await trainIql(dataset(rows), { ...small, steps: 500, tau: 0.7, batchSize: 128 });
    close(predictRows(res.q, [oneHot(0, 2), oneHot(1, 2)]), [0, 1], 0.05);
    expect(Math.abs(predictRows(res.v, [[1]])[0] - 0.7)).toBeLessThan(0.04);
  });

  it('two-step chain: Q(s0) -> gamma · r, Q(s1) -> r', async () => {
    // s0 --(r = 0)--> s1 --(r = 1)--> terminal.
    const rows = Array.from({ length: 64 }, (_, i) =>
      i % 2 === 0 ? { q: [1, 0], v: [1, 0], next: [0, 1], r: 0, done: 0 } : { q: [0, 1], v: [0, 1], next: [0, 0], r: 1, done: 1 },
    );
    const res = await trainIql(dataset(rows), { ...small, steps: 600, gamma: 0.8 });
    close(predictRows(res.q, [[1, 0], [0, 1]]), [0.8, 1], 0.05);
    close(predictRows(res.v, [[1, 0], [0, 1]]), [0.8, 1], 0.05);
  });

  it('is deterministic for a seed', async () => {
    const rows = Array.from({ length: 16 }, (_, i) => ({ q: [i / 16, 1 - i / 16], v: [i % 3], next: [(i + 1) % 3], r: i % 5, done: i % 4 === 0 ? 1 : 0 }));
    const cfg = { hidden: [8], steps: 20, batchSize: 8 };
    const a = await trainIql(dataset(rows), cfg);
    const b = await trainIql(dataset(rows), cfg);
    expect(Array.from(a.q.layers[0].w)).toEqual(Array.from(b.q.layers[0].w));
    expect(Array.from(a.v.layers[1].w)).toEqual(Array.from(b.v.layers[1].w));
  });

  it('rejects bad config and inconsistent data', async () => {
    const d = dataset([{ q: [1], v: [1], next: [1], r: 0, done: 1 }]);
    await expect(trainIql(d, { gamma: 2 })).rejects.toThrow(BadInputError);
    await expect(trainIql({ ...d, rewards: new Float32Array(2) })).rejects.toThrow(/rewards has 2 values, expected 1/);
    await expect(trainIql({ ...d, qInputs: Float32Array.from([NaN]) })).rejects.toThrow(/not finite/);
  });
});
