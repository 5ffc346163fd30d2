import { rmSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OnnxEmbedder, cosine } from '../../src/embed/index.js';
import { BadInputError } from '../../src/util/errors.js';
import { TEST_VOCAB, embeddingRow, writeTestModel } from './onnx-test-model.js';

const dirs: string[] = [];
const model = (options?: Parameters<typeof writeTestModel>[0]) => {
  const dir = writeTestModel(options);
  dirs.push(dir);
  return dir;
};
const embedders: OnnxEmbedder[] = [];
const make = (options: ConstructorParameters<typeof OnnxEmbedder>[0]) => {
  const e = new OnnxEmbedder(options);
  embedders.push(e);
  return e;
};

afterAll(async () => {
  for (const e of embedders) await e.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Mean of the embedding rows of `tokens`, first 256 components, unit length. */
function expectedVector(tokens: string[]): Float64Array {
  const mean = new Float64Array(384);
  for (const t of tokens) {
    const row = embeddingRow(TEST_VOCAB.indexOf(t));
    for (let j = 0; j < 384; j++) mean[j] += row[j] / tokens.length;
  }
  const head = mean.slice(0, 256);
  const n = Math.sqrt(head.reduce((s, x) => s + x * x, 0));
  return head.map((x) => x / n);
}

function expectClose(actual: Float32Array, want: ArrayLike<number>, digits = 5) {
  expect(actual.length).toBe(want.length);
  for (let j = 0; j < want.length; j++) expect(actual[j]).toBeCloseTo(want[j], digits);
}

describe('OnnxEmbedder', () => {
  const dir = model();

  it('mean-pools last_hidden_state into unit 256-d vectors', async () => {
    const embedder = make({ modelDir: dir });
    expect(embedder.id).toBe(`onnx:${path.basename(dir)}`);
    expect(embedder.dim).toBe(256);
    const [v] = await embedder.embed(['Player ID']);
    expect(v).toBeInstanceOf(Float32Array);
    expect(Math.abs(Math.hypot(...v) - 1)).toBeLessThan(1e-5);
    expectClose(v, expectedVector(['[CLS]', 'player', 'id', '[SEP]']));
  });

  it('excludes padding from the pooled mean (attention mask)', async () => {
    const embedder = make({ modelDir: dir });
    // In one batch 'a' is padded to the length of the longer text; [PAD]'s row is huge.
    const [padded, long] = await embedder.embed(['a', 'a b c d e']);
    const [alone] = await embedder.embed(['a']);
    expectClose(padded, alone, 6);
    expectClose(padded, expectedVector(['[CLS]', 'a', '[SEP]']));
    expectClose(long, expectedVector(['[CLS]', 'a', 'b', 'c', 'd', 'e', '[SEP]']));
  });

  it('gives texts with different tokens different vectors, in input order, across batches', async () => {
    const embedder = make({ modelDir: dir, batchSize: 2 });
    const texts = ['player id', 'revenue usd', 'goals', 'player id'];
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(4);
    expect(cosine(vectors[0], vectors[1])).toBeLessThan(0.95);
    expect(Array.from(vectors[0])).not.toEqual(Array.from(vectors[2]));
    expectClose(vectors[3], vectors[0], 6);
    expect(await embedder.embed([])).toEqual([]);
  });

  it('feeds attention_mask and token_type_ids when the model declares them', async () => {
    const declared = make({ modelDir: model({ declareMaskInputs: true }) });
    const [v] = await declared.embed(['player id']);
    expectClose(v, expectedVector(['[CLS]', 'player', 'id', '[SEP]']));
  });

  it('uses a 2-D sentence_embedding output directly', async () => {
    const sentence = make({ modelDir: model({ output: 'sentence_embedding' }) });
    const [v] = await sentence.embed(['revenue usd']);
    expectClose(v, expectedVector(['[CLS]', 'revenue', 'usd', '[SEP]']));
  });

  it("falls back from 'cuda' to 'cpu' with one warning line where CUDA is unavailable", async () => {
    const warnings: string[] = [];
    const embedder = make({ modelDir: dir, executionProvider: 'cuda', warn: (line) => warnings.push(line) });
    const [v] = await embedder.embed(['player id']);
    expectClose(v, expectedVector(['[CLS]', 'player', 'id', '[SEP]']), 4);
    if ((await embedder.provider()) === 'cpu') {
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/CUDA.*falling back to CPU/);
      expect(warnings[0]).not.toContain('\n');
    } else {
      expect(warnings).toEqual([]);
    }
  });

  it('rejects incomplete model directories naming the file', () => {
    const broken = model();
    unlinkSync(path.join(broken, 'vocab.txt'));
    expect(() => new OnnxEmbedder({ modelDir: broken })).toThrow(BadInputError);
    expect(() => new OnnxEmbedder({ modelDir: broken })).toThrow(path.join(broken, 'vocab.txt'));
    expect(() => new OnnxEmbedder({ modelDir: path.join(broken, 'nope') })).toThrow(/does not exist/);
  });
});
