/**
 * Export of an MlpWeights network (mlp.ts) as a standalone ONNX model computing exactly the
 * same function as `predictTf`:
 *
 *   features [N, inputDim] → Sub(mean) → Div(std)
 *     → per hidden layer: MatMul(W) → Add(b) → GELU as x·(1 + Erf(x / √2))·0.5
 *     → MatMul(W_out) → Add(b_out) → Reshape([-1]) → q [N]
 *
 * N is a dynamic dimension ("N"). Initializers are float32 raw_data (little-endian). Default
 * opset 17 (IR version 8); Erf exists since opset 9, and nothing here needs more than opset 13
 * (Reshape with a shape input has been there since 5), so opset ≥ 9 is accepted.
 */
import onnxProto from 'onnx-proto';
import type { onnx as OnnxTypes } from 'onnx-proto';
import { BadInputError } from '../util/errors.js';
import { validateMlp, type MlpWeights } from './mlp.js';

const { onnx } = onnxProto;

export interface OnnxExportOptions {
  /** Default 17. */
  opset?: number;
  /** Graph name (default 'graft_q'). */
  name?: string;
  /** Free-text model doc string. */
  docString?: string;
}

export const ONNX_INPUT_NAME = 'features';
export const ONNX_OUTPUT_NAME = 'q';

function floatTensor(name: string, dims: number[], values: Float32Array | number[]): OnnxTypes.ITensorProto {
  const raw = new Uint8Array(values.length * 4);
  const view = new DataView(raw.buffer);
  for (let i = 0; i < values.length; i++) view.setFloat32(i * 4, values[i], true);
  return { name, dims, dataType: onnx.TensorProto.DataType.FLOAT, rawData: raw };
}

function int64Tensor(name: string, dims: number[], values: number[]): OnnxTypes.ITensorProto {
  const raw = new Uint8Array(values.length * 8);
  const view = new DataView(raw.buffer);
  for (let i = 0; i < values.length; i++) view.setBigInt64(i * 8, BigInt(values[i]), true);
  return { name, dims, dataType: onnx.TensorProto.DataType.INT64, rawData: raw };
}

function valueInfo(name: string, dims: (number | string)[]): OnnxTypes.IValueInfoProto {
  return {
    name,
    type: {
      tensorType: {
        elemType: onnx.TensorProto.DataType.FLOAT,
        shape: { dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) },
      },
    },
  };
}

/** Serialises the network to ONNX ModelProto bytes. */
export function exportMlpToOnnx(weights: MlpWeights, opts: OnnxExportOptions = {}): Uint8Array {
  validateMlp(weights);
  const opset = opts.opset ?? 17;
  if (!Number.isInteger(opset) || opset < 9) throw new BadInputError(`ONNX export: opset must be an integer >= 9 (Erf), not ${opset}`);
  for (const [name, arr] of [
    ['inputMean', weights.inputMean],
    ['inputStd', weights.inputStd],
  ] as const) {
    for (let i = 0; i < arr.length; i++) {
      if (!Number.isFinite(arr[i]) || (name === 'inputStd' && arr[i] === 0)) throw new BadInputError(`ONNX export: ${name}[${i}] = ${arr[i]}`);
    }
  }

  const initializer: OnnxTypes.ITensorProto[] = [
    floatTensor('input_mean', [weights.inputDim], weights.inputMean),
    floatTensor('input_std', [weights.inputDim], weights.inputStd),
    floatTensor('gelu_sqrt2', [], [Math.SQRT2]),
    floatTensor('gelu_one', [], [1]),
    floatTensor('gelu_half', [], [0.5]),
    int64Tensor('out_shape', [1], [-1]),
  ];
  const node: OnnxTypes.INodeProto[] = [];
  const op = (opType: string, input: string[], output: string) => {
    node.push({ opType, input, output: [output], name: `${opType.toLowerCase()}_${node.length}` });
    return output;
  };

  let h = op('Sub', [ONNX_INPUT_NAME, 'input_mean'], 'centered');
  h = op('Div', [h, 'input_std'], 'normalised');
  weights.layers.forEach((layer, i) => {
    initializer.push(floatTensor(`w${i}`, [layer.in, layer.out], layer.w));
    initializer.push(floatTensor(`b${i}`, [layer.out], layer.b));
    h = op('MatMul', [h, `w${i}`], `l${i}_matmul`);
    h = op('Add', [h, `b${i}`], `l${i}_pre`);
    if (i + 1 < weights.layers.length) {
      // Same operation order as mlp.ts gelu(): ((x · (erf(x/√2) + 1)) · 0.5).
      const pre = h;
      const scaled = op('Div', [pre, 'gelu_sqrt2'], `l${i}_scaled`);
      const erf = op('Erf', [scaled], `l${i}_erf`);
      const onePlus = op('Add', [erf, 'gelu_one'], `l${i}_one_plus`);
      const prod = op('Mul', [pre, onePlus], `l${i}_prod`);
      h = op('Mul', [prod, 'gelu_half'], `l${i}_gelu`);
    }
  });
  op('Reshape', [h, 'out_shape'], ONNX_OUTPUT_NAME);

  const model: OnnxTypes.IModelProto = {
    irVersion: 8,
    producerName: 'graft-catalog',
    producerVersion: '1',
    domain: 'graft.value',
    modelVersion: 1,
    docString: opts.docString ?? `MLP Q-function: input ${weights.inputDim}, hidden [${weights.hidden.join(', ')}], exact GELU`,
    opsetImport: [{ domain: '', version: opset }],
    graph: {
      name: opts.name ?? 'graft_q',
      node,
      initializer,
      input: [valueInfo(ONNX_INPUT_NAME, ['N', weights.inputDim])],
      output: [valueInfo(ONNX_OUTPUT_NAME, ['N'])],
    },
  };
  return onnx.ModelProto.encode(onnx.ModelProto.create(model)).finish();
}

/** The feature width a model exported by exportMlpToOnnx expects (from its input's shape). */
export function onnxInputDim(bytes: Uint8Array): number {
  let model: OnnxTypes.ModelProto;
  try {
    model = onnx.ModelProto.decode(bytes);
  } catch (err) {
    throw new BadInputError(`ONNX model: cannot decode (${(err as Error).message})`);
  }
  const input = model.graph?.input?.find((i) => i.name === ONNX_INPUT_NAME) ?? model.graph?.input?.[0];
  const dims = input?.type?.tensorType?.shape?.dim ?? [];
  const last = dims[dims.length - 1];
  const value = last?.dimValue == null ? NaN : Number(last.dimValue);
  if (dims.length !== 2 || !Number.isInteger(value) || value <= 0) {
    throw new BadInputError(`ONNX model: input '${input?.name ?? '?'}' is not a [N, width] tensor with a fixed width`);
  }
  return value;
}
