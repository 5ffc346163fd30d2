import onnxProto from 'onnx-proto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureBackend } from '../../src/value/iql.js';
import { createMlp, predictTf, type MlpWeights } from '../../src/value/mlp.js';
import { exportMlpToOnnx, onnxInputDim } from '../../src/value/onnxExport.js';
import { OnnxQScorer } from '../../src/value/onnxScorer.js';
import { mulberry32 } from '../../src/util/prng.js';
import { BadInputError } from '../../src/util/errors.js';

const { onnx } = onnxProto;
const DIM = 40;

/** A seeded random MLP with non-trivial normalisation and biases. */
function randomMlp(seed: number, hidden: number[]): MlpWeights {
  const rand = mulberry32(seed + 1000);
  const w = createMlp(DIM, hidden, seed, {
    inputMean: Float32Array.from({ length: DIM }, () => rand() * 4 - 2),
    inputStd: Float32Array.from({ length: DIM }, () => 0.5 + rand() * 2),
  });
  for (const layer of w.layers) for (let i = 0; i < layer.b.length; i++) layer.b[i] = rand() - 0.5;
  return w;
}

function randomRows(n: number, seed: number, dim = DIM): Float32Array {
  const rand = mulberry32(seed);
  return Float32Array.from({ length: n * dim }, () => rand() * 6 - 3);
}

const maxAbsDiff = (a: Float32Array, b: Float32Array) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);

beforeAll(async () => {
  await ensureBackend('wasm');
});

describe('exportMlpToOnnx', () => {
  it('writes an opset-17 graph with a dynamic batch dimension and GELU as Erf arithmetic', () => {
    const bytes = exportMlpToOnnx(randomMlp(1, [16, 8]), { name: 'qnet' });
    const model = onnx.ModelProto.decode(bytes);
    expect(Number(model.opsetImport[0].version)).toBe(17);
    const graph = model.graph!;
    expect(graph.name).toBe('qnet');
    const input = graph.input![0];
    expect(input.name).toBe('features');
    const dims = input.type!.tensorType!.shape!.dim!;
    expect(dims[0].dimParam).toBe('N');
    expect(Number(dims[1].dimValue)).toBe(DIM);
    expect(graph.output![0].name).toBe('q');
    const ops = graph.node!.map((n) => n.opType);
    expect(ops.filter((o) => o === 'Erf')).toHaveLength(2);
    expect(ops.filter((o) => o === 'MatMul')).toHaveLength(3);
    expect(ops.slice(0, 2)).toEqual(['Sub', 'Div']);
    expect(ops.at(-1)).toBe('Reshape');
    expect(onnxInputDim(bytes)).toBe(DIM);
  });

  it('rejects an inconsistent network', () => {
    const w = randomMlp(2, [8]);
    expect(() => exportMlpToOnnx({ ...w, hidden: [9] })).toThrow(BadInputError);
    expect(() => exportMlpToOnnx(w, { opset: 7 })).toThrow(/opset/);
  });
});

describe('OnnxQScorer', () => {
  it('agrees with predictTf to 1e-4 on 1000 rows in one batch, and on a batch of 1', async () => {
    const w = randomMlp(3, [64, 32]);
    const scorer = await OnnxQScorer.create(exportMlpToOnnx(w), { provider: 'cpu', threads: 1 });
    expect(scorer.provider).toBe('cpu');
    expect(scorer.inputDim).toBe(DIM);
    const x = randomRows(1000, 9);
    const expected = predictTf(w, x, 1000);
    const got = await scorer.score(x, 1000);
    expect(got).toHaveLength(1000);
    expect(maxAbsDiff(got, expected)).toBeLessThan(1e-4);
    // Outputs are not trivially constant.
    expect(Math.max(...expected) - Math.min(...expected)).toBeGreaterThan(0.1);

    const one = await scorer.score(x.subarray(0, DIM), 1);
    expect(one).toHaveLength(1);
    expect(Math.abs(one[0] - expected[0])).toBeLessThan(1e-4);
    expect(await scorer.score(new Float32Array(0), 0)).toHaveLength(0);
    await scorer.release();
    await expect(scorer.score(x, 1000)).rejects.toThrow(/release/);
  });

  it('runs one batched session.run per score() call', async () => {
    const scorer = await OnnxQScorer.create(exportMlpToOnnx(randomMlp(4, [8])), { provider: 'cpu', threads: 1 });
    const session = (scorer as unknown as { session: { run: (...a: unknown[]) => unknown } }).session;
    const spy = vi.spyOn(session, 'run');
    await scorer.score(randomRows(500, 1), 500);
    expect(spy).toHaveBeenCalledTimes(1);
    await scorer.release();
  });

  it('a linear (no hidden layer) network exports and agrees too', async () => {
    const w = randomMlp(5, []);
    const scorer = await OnnxQScorer.create(exportMlpToOnnx(w), { provider: 'cpu', threads: 1 });
    const x = randomRows(50, 2);
    expect(maxAbsDiff(await scorer.score(x, 50), predictTf(w, x, 50))).toBeLessThan(1e-4);
    await scorer.release();
  });

  it('rejects a mismatched input width with a clear error', async () => {
    const scorer = await OnnxQScorer.create(exportMlpToOnnx(randomMlp(6, [8])), { provider: 'cpu', threads: 1 });
    const wrong = randomRows(10, 3, DIM + 1);
    await expect(scorer.score(wrong, 10)).rejects.toThrow(BadInputError);
    await expect(scorer.score(wrong, 10)).rejects.toThrow(/expects 40 features per row/);
    await scorer.release();
    await expect(OnnxQScorer.create(Uint8Array.from([1, 2, 3, 4]), { provider: 'cpu' })).rejects.toThrow(BadInputError);
  });

  it("falls back from 'cuda' to CPU with exactly one log line where CUDA is unavailable", async () => {
    const w = randomMlp(7, [16]);
    const lines: string[] = [];
    const scorer = await OnnxQScorer.create(exportMlpToOnnx(w), { provider: 'cuda', threads: 1 }, (m) => lines.push(m));
    const x = randomRows(20, 4);
    const got = await scorer.score(x, 20);
    expect(maxAbsDiff(got, predictTf(w, x, 20))).toBeLessThan(1e-4);
    if (scorer.provider === 'cpu') {
      expect(lines).toHaveLength(1);
      expect(lines[0]).not.toContain('\n');
      expect(lines[0]).toMatch(/CUDA.*falling back to CPU/);
    } else {
      expect(lines).toHaveLength(0); // a CUDA-capable machine
    }
    await scorer.release();
  });
});
