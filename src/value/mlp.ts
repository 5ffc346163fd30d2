/**
 * A plain multi-layer perceptron defined by explicit weight arrays, so that the tfjs training
 * graph (iql.ts), the tfjs reference predictor (`predictTf`) and the exported ONNX graph
 * (onnxExport.ts) compute exactly the same function:
 *
 *   h0 = (x - inputMean) / inputStd
 *   h_{i+1} = GELU(h_i W_i + b_i)          for each hidden layer (exact GELU, 0.5·x·(1 + erf(x/√2)))
 *   y = h_L W_L + b_L                       (linear, one output per row)
 *
 * Weight matrices are stored row-major as [in × out] (so `h W` is a plain MatMul, as in ONNX).
 */
import * as tf from '@tensorflow/tfjs';
import { BadInputError } from '../util/errors.js';
import { mulberry32 } from '../util/prng.js';

export interface MlpLayer {
  /** [in × out], row-major. */
  w: Float32Array;
  b: Float32Array;
  in: number;
  out: number;
}

export interface MlpWeights {
  inputDim: number;
  /** Hidden layer widths (may be empty: a linear model). */
  hidden: number[];
  /** hidden.length + 1 layers; the last has out = 1. */
  layers: MlpLayer[];
  /** Per-feature input normalisation, part of the network: (x - inputMean) / inputStd. */
  inputMean: Float32Array;
  inputStd: Float32Array;
}

/** Smallest standard deviation used for input normalisation. */
export const MIN_INPUT_STD = 1e-6;
/**
 * Columns that (almost) never vary in the training data are centred but not scaled: dividing by a
 * tiny std would turn an unseen value at inference time into a huge input.
 */
export const CONSTANT_COLUMN_STD = 1e-3;

const SQRT2 = Math.SQRT2;

/** Exact GELU, 0.5·x·(1 + erf(x/√2)); the ONNX export uses the same Div/Erf/Add/Mul sequence. */
export function gelu(x: tf.Tensor): tf.Tensor {
  return tf.tidy(() => tf.mul(tf.mul(x, tf.add(tf.erf(tf.div(x, SQRT2)), 1)), 0.5));
}

/** Standard-normal draws from a uniform PRNG (Box–Muller). */
function normalSampler(rand: () => number): () => number {
  let spare: number | null = null;
  return () => {
    if (spare !== null) {
      const s = spare;
      spare = null;
      return s;
    }
    let u = 0;
    while (u <= Number.EPSILON) u = rand();
    const v = rand();
    const r = Math.sqrt(-2 * Math.log(u));
    spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  };
}

export interface CreateMlpOptions {
  /** Normalisation statistics (default: mean 0, std 1). */
  inputMean?: Float32Array;
  inputStd?: Float32Array;
}

/**
 * A freshly initialised MLP: hidden layers He-normal (std √(2/fan_in), suited to GELU), output
 * layer Glorot-uniform, biases zero. Deterministic for a given seed (mulberry32, not tf.random).
 */
export function createMlp(inputDim: number, hidden: readonly number[], seed: number, options: CreateMlpOptions = {}): MlpWeights {
  if (!Number.isInteger(inputDim) || inputDim <= 0) throw new BadInputError(`MLP inputDim must be a positive integer, not ${inputDim}`);
  for (const h of hidden) {
    if (!Number.isInteger(h) || h <= 0) throw new BadInputError(`MLP hidden widths must be positive integers, not ${h}`);
  }
  const rand = mulberry32(seed);
  const normal = normalSampler(rand);
  const dims = [inputDim, ...hidden, 1];
  const layers: MlpLayer[] = [];
  for (let i = 0; i + 1 < dims.length; i++) {
    const fanIn = dims[i];
    const fanOut = dims[i + 1];
    const w = new Float32Array(fanIn * fanOut);
    const isOutput = i + 2 === dims.length;
    if (isOutput) {
      const limit = Math.sqrt(6 / (fanIn + fanOut));
      for (let j = 0; j < w.length; j++) w[j] = (2 * rand() - 1) * limit;
    } else {
      const std = Math.sqrt(2 / fanIn);
      for (let j = 0; j < w.length; j++) w[j] = normal() * std;
    }
    layers.push({ w, b: new Float32Array(fanOut), in: fanIn, out: fanOut });
  }
  const inputMean = options.inputMean ? Float32Array.from(options.inputMean) : new Float32Array(inputDim);
  const inputStd = options.inputStd ? Float32Array.from(options.inputStd) : new Float32Array(inputDim).fill(1);
  const weights: MlpWeights = { inputDim, hidden: [...hidden], layers, inputMean, inputStd };
  validateMlp(weights);
  return weights;
}

/** Per-column mean and standard deviation (population; 1 for near-constant columns) of an n×dim matrix. */
export function fitNormalisation(x: Float32Array, n: number, dim: number): { mean: Float32Array; std: Float32Array } {
  if (x.length !== n * dim) throw new BadInputError(`normalisation: ${x.length} values is not ${n} rows × ${dim} columns`);
  const mean = new Float64Array(dim);
  const sq = new Float64Array(dim);
  for (let i = 0; i < n; i++) {
    const off = i * dim;
    for (let j = 0; j < dim; j++) mean[j] += x[off + j];
  }
  for (let j = 0; j < dim; j++) mean[j] /= Math.max(n, 1);
  for (let i = 0; i < n; i++) {
    const off = i * dim;
    for (let j = 0; j < dim; j++) {
      const d = x[off + j] - mean[j];
      sq[j] += d * d;
    }
  }
  const std = new Float32Array(dim);
  for (let j = 0; j < dim; j++) {
    const sd = Math.sqrt(sq[j] / Math.max(n, 1));
    std[j] = sd < CONSTANT_COLUMN_STD ? 1 : Math.max(sd, MIN_INPUT_STD);
  }
  return { mean: Float32Array.from(mean), std };
}

/** Throws BadInputError unless the layer shapes chain from inputDim through hidden to 1. */
export function validateMlp(weights: MlpWeights): void {
  const dims = [weights.inputDim, ...weights.hidden, 1];
  if (weights.layers.length !== dims.length - 1) {
    throw new BadInputError(`MLP has ${weights.layers.length} layers, expected ${dims.length - 1} for hidden [${weights.hidden.join(', ')}]`);
  }
  weights.layers.forEach((layer, i) => {
    if (layer.in !== dims[i] || layer.out !== dims[i + 1]) {
      throw new BadInputError(`MLP layer ${i} is ${layer.in}×${layer.out}, expected ${dims[i]}×${dims[i + 1]}`);
    }
    if (layer.w.length !== layer.in * layer.out || layer.b.length !== layer.out) {
      throw new BadInputError(`MLP layer ${i}: weight/bias array sizes do not match ${layer.in}×${layer.out}`);
    }
  });
  if (weights.inputMean.length !== weights.inputDim || weights.inputStd.length !== weights.inputDim) {
    throw new BadInputError(`MLP normalisation vectors must have inputDim = ${weights.inputDim} entries`);
  }
}

/** The network's tensors: trainable layer variables and constant normalisation tensors. */
export interface MlpTensors<T extends tf.Tensor = tf.Tensor> {
  layers: { w: T; b: T }[];
  mean: tf.Tensor;
  std: tf.Tensor;
}

export interface MlpTfVariables extends MlpTensors<tf.Variable> {
  inputDim: number;
  hidden: number[];
  /** All trainable variables, weights then bias per layer. */
  trainable: tf.Variable[];
  /** The weight matrices (the ones weight decay applies to). */
  matrices: tf.Variable[];
  dispose(): void;
}

/** tf.Variables holding a copy of the weights (variable names are left to tfjs: they must be unique per engine). */
export function toTfVariables(weights: MlpWeights, trainable = true): MlpTfVariables {
  validateMlp(weights);
  // tf.variable shares its initial tensor's data; tidy disposes the temporaries, not the variables.
  const layers = tf.tidy(() =>
    weights.layers.map((l) => ({
      w: tf.variable(tf.tensor2d(l.w, [l.in, l.out]), trainable),
      b: tf.variable(tf.tensor1d(l.b), trainable),
    })),
  );
  const mean = tf.tensor1d(weights.inputMean);
  const std = tf.tensor1d(weights.inputStd);
  const all = layers.flatMap((l) => [l.w, l.b]);
  return {
    inputDim: weights.inputDim,
    hidden: [...weights.hidden],
    layers,
    mean,
    std,
    trainable: all,
    matrices: layers.map((l) => l.w),
    dispose() {
      for (const v of all) v.dispose();
      mean.dispose();
      std.dispose();
    },
  };
}

/** Reads the variables back into plain arrays. */
export function fromTfVariables(vars: MlpTfVariables): MlpWeights {
  const layers = vars.layers.map((l) => {
    const [inDim, outDim] = l.w.shape as [number, number];
    return { w: Float32Array.from(l.w.dataSync() as Float32Array), b: Float32Array.from(l.b.dataSync() as Float32Array), in: inDim, out: outDim };
  });
  return {
    inputDim: vars.inputDim,
    hidden: [...vars.hidden],
    layers,
    inputMean: Float32Array.from(vars.mean.dataSync() as Float32Array),
    inputStd: Float32Array.from(vars.std.dataSync() as Float32Array),
  };
}

/**
 * h·W with the gradient spelled with explicit transposes: dh = dy·transpose(W), dW = transpose(h)·dy.
 * Mathematically the gradient tfjs registers for MatMul, but the wasm backend runs a matMul with
 * transposeA/transposeB about 8× slower than tf.transpose + plain matMul (measured at 256×256),
 * and the backward pass is all transposed products — this roughly halves-to-thirds the IQL step
 * time. Autodiff is still tfjs's (tf.variableGrads walks through this op like any other).
 */
const dense = tf.customGrad((h: tf.Tensor | tf.GradSaveFunc, w: tf.Tensor | tf.GradSaveFunc, save: tf.Tensor | tf.GradSaveFunc) => {
  const x = h as tf.Tensor2D;
  const m = w as tf.Tensor2D;
  (save as tf.GradSaveFunc)([x, m]);
  return {
    value: tf.matMul(x, m),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [xs, ms] = saved as [tf.Tensor2D, tf.Tensor2D];
      const g = dy as tf.Tensor2D;
      return [tf.matMul(g, tf.transpose(ms)), tf.matMul(tf.transpose(xs), g)];
    },
  };
}) as (h: tf.Tensor, w: tf.Tensor) => tf.Tensor2D;

/** h·W (a plain MatMul forward); exported so tests can compare its gradient with tf.matMul's. */
export function denseMatMul(h: tf.Tensor, w: tf.Tensor): tf.Tensor2D {
  return dense(h, w);
}

/** Forward pass on a [n × inputDim] batch; returns [n]. Call inside tf.tidy. */
export function mlpForward(net: MlpTensors, x: tf.Tensor): tf.Tensor1D {
  let h: tf.Tensor = tf.div(tf.sub(x, net.mean), net.std);
  net.layers.forEach((layer, i) => {
    h = tf.add(dense(h, layer.w), layer.b);
    if (i + 1 < net.layers.length) h = gelu(h);
  });
  return tf.reshape(h, [-1]) as tf.Tensor1D;
}

/** Predictions for n rows of features (row-major n × inputDim) on the current tfjs backend. */
export function predictTf(weights: MlpWeights, x: Float32Array, n: number): Float32Array {
  validateMlp(weights);
  if (x.length !== n * weights.inputDim) {
    throw new BadInputError(`predict: ${x.length} feature values is not ${n} rows × inputDim ${weights.inputDim}`);
  }
  if (n === 0) return new Float32Array(0);
  return tf.tidy(() => {
    const net: MlpTensors = {
      layers: weights.layers.map((l) => ({ w: tf.tensor2d(l.w, [l.in, l.out]), b: tf.tensor1d(l.b) })),
      mean: tf.tensor1d(weights.inputMean),
      std: tf.tensor1d(weights.inputStd),
    };
    return Float32Array.from(mlpForward(net, tf.tensor2d(x, [n, weights.inputDim])).dataSync() as Float32Array);
  });
}

// --- serialisation ---------------------------------------------------------------------------

/** JSON-able form: Float32 arrays as base64 of their little-endian bytes. */
export interface SerializedMlp {
  format: 'graft-mlp/1';
  inputDim: number;
  hidden: number[];
  layers: { in: number; out: number; w: string; b: string }[];
  inputMean: string;
  inputStd: string;
}

function f32ToBase64(a: Float32Array): string {
  const buf = Buffer.alloc(a.length * 4);
  for (let i = 0; i < a.length; i++) buf.writeFloatLE(a[i], i * 4);
  return buf.toString('base64');
}

function base64ToF32(s: string, expected: number, what: string): Float32Array {
  const buf = Buffer.from(s, 'base64');
  if (buf.length !== expected * 4) throw new BadInputError(`serialized MLP: ${what} has ${buf.length / 4} floats, expected ${expected}`);
  const out = new Float32Array(expected);
  for (let i = 0; i < expected; i++) out[i] = buf.readFloatLE(i * 4);
  return out;
}

export function serializeMlp(weights: MlpWeights): SerializedMlp {
  validateMlp(weights);
  return {
    format: 'graft-mlp/1',
    inputDim: weights.inputDim,
    hidden: [...weights.hidden],
    layers: weights.layers.map((l) => ({ in: l.in, out: l.out, w: f32ToBase64(l.w), b: f32ToBase64(l.b) })),
    inputMean: f32ToBase64(weights.inputMean),
    inputStd: f32ToBase64(weights.inputStd),
  };
}

export function deserializeMlp(data: SerializedMlp): MlpWeights {
  if (!data || data.format !== 'graft-mlp/1') throw new BadInputError(`serialized MLP: unknown format ${String(data?.format)}`);
  const weights: MlpWeights = {
    inputDim: data.inputDim,
    hidden: [...data.hidden],
    layers: data.layers.map((l, i) => ({
      in: l.in,
      out: l.out,
      w: base64ToF32(l.w, l.in * l.out, `layer ${i} weights`),
      b: base64ToF32(l.b, l.out, `layer ${i} bias`),
    })),
    inputMean: base64ToF32(data.inputMean, data.inputDim, 'inputMean'),
    inputStd: base64ToF32(data.inputStd, data.inputDim, 'inputStd'),
  };
  validateMlp(weights);
  return weights;
}
