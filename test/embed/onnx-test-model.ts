import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

/** Vocabulary of the tiny test models: BERT's special tokens, a few words and one continuation. */
export const TEST_VOCAB = [
  '[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]',
  'player', 'id', 'revenue', 'usd', 'goal', '##s', 'the', ',', '.', '_', 'a', 'b', 'c', 'd', 'e',
];

export const TEST_HIDDEN = 384;

/**
 * Deterministic embedding table: row t, column j. The [PAD] row is huge so that a pooling that
 * forgot the attention mask shows up immediately.
 */
export function embeddingRow(token: number): Float32Array {
  const row = new Float32Array(TEST_HIDDEN);
  for (let j = 0; j < TEST_HIDDEN; j++) {
    row[j] = token === 0 ? 1000 : Math.sin(token * 12.9898 + j * 78.233) * 0.5 + (j === token ? 1 : 0);
  }
  return row;
}

function valueInfo(name: string, elemType: number, dims: (number | string)[]) {
  return onnx.ValueInfoProto.create({
    name,
    type: onnx.TypeProto.create({
      tensorType: onnx.TypeProto.Tensor.create({
        elemType,
        shape: onnx.TensorShapeProto.create({
          dim: dims.map((d) =>
            typeof d === 'number'
              ? onnx.TensorShapeProto.Dimension.create({ dimValue: d })
              : onnx.TensorShapeProto.Dimension.create({ dimParam: d }),
          ),
        }),
      }),
    }),
  });
}

export interface TestModelOptions {
  /** 'last_hidden_state' (3-D, default) or 'sentence_embedding' (2-D, mean over tokens in-graph). */
  output?: 'last_hidden_state' | 'sentence_embedding';
  /** Also declare attention_mask and token_type_ids as (unused) graph inputs, like BERT exports. */
  declareMaskInputs?: boolean;
}

/**
 * Writes model.onnx + vocab.txt to a fresh temp dir and returns it. The graph is
 * Gather(embeddings, input_ids) -> Identity -> last_hidden_state, or -> ReduceMean(axis 1) ->
 * sentence_embedding.
 */
export function writeTestModel(options: TestModelOptions = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'graft-onnx-'));
  const vocabSize = TEST_VOCAB.length;
  const weights: number[] = [];
  for (let t = 0; t < vocabSize; t++) weights.push(...embeddingRow(t));
  const FLOAT = onnx.TensorProto.DataType.FLOAT;
  const INT64 = onnx.TensorProto.DataType.INT64;
  const nodes = [
    onnx.NodeProto.create({ opType: 'Gather', input: ['embeddings', 'input_ids'], output: ['gathered'], name: 'gather' }),
  ];
  const output = options.output ?? 'last_hidden_state';
  if (output === 'last_hidden_state') {
    nodes.push(onnx.NodeProto.create({ opType: 'Identity', input: ['gathered'], output: [output], name: 'identity' }));
  } else {
    nodes.push(
      onnx.NodeProto.create({
        opType: 'ReduceMean',
        input: ['gathered'],
        output: [output],
        name: 'mean',
        attribute: [
          onnx.AttributeProto.create({ name: 'axes', type: onnx.AttributeProto.AttributeType.INTS, ints: [1] }),
          onnx.AttributeProto.create({ name: 'keepdims', type: onnx.AttributeProto.AttributeType.INT, i: 0 }),
        ],
      }),
    );
  }
  const inputs = [valueInfo('input_ids', INT64, ['batch', 'sequence'])];
  if (options.declareMaskInputs) {
    inputs.push(valueInfo('attention_mask', INT64, ['batch', 'sequence']));
    inputs.push(valueInfo('token_type_ids', INT64, ['batch', 'sequence']));
  }
  const graph = onnx.GraphProto.create({
    name: 'tiny-embedding',
    node: nodes,
    initializer: [onnx.TensorProto.create({ name: 'embeddings', dataType: FLOAT, dims: [vocabSize, TEST_HIDDEN], floatData: weights })],
    input: inputs,
    output: [
      output === 'last_hidden_state'
        ? valueInfo(output, FLOAT, ['batch', 'sequence', TEST_HIDDEN])
        : valueInfo(output, FLOAT, ['batch', TEST_HIDDEN]),
    ],
  });
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'graft-catalog-tests',
    opsetImport: [onnx.OperatorSetIdProto.create({ domain: '', version: 13 })],
    graph,
  });
  writeFileSync(path.join(dir, 'model.onnx'), onnx.ModelProto.encode(model).finish());
  writeFileSync(path.join(dir, 'vocab.txt'), `${TEST_VOCAB.join('\n')}\n`);
  return dir;
}
