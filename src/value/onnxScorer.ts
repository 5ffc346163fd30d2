/**
 * Batched Q scoring with onnxruntime-node over a model from exportMlpToOnnx: one session.run
 * per score() call, whatever the number of rows.
 */
import type * as Ort from 'onnxruntime-node';
import { BadInputError, ErrorCode, GraftError } from '../util/errors.js';
import { cudaUnavailableReason } from '../util/onnxCuda.js';
import { ONNX_INPUT_NAME, ONNX_OUTPUT_NAME, onnxInputDim } from './onnxExport.js';

export type QScorerProvider = 'cpu' | 'cuda';

export interface OnnxQScorerOptions {
  /** 'cuda' falls back to 'cpu', logging one line, where the CUDA provider cannot be created. */
  provider: QScorerProvider;
  /** onnxruntime intra-op threads (default: onnxruntime's choice). */
  threads?: number;
}

export class OnnxQScorer {
  private session: Ort.InferenceSession | null;

  private constructor(
    private readonly ort: typeof Ort,
    session: Ort.InferenceSession,
    private readonly usedProvider: QScorerProvider,
    /** Features per row the model expects. */
    readonly inputDim: number,
  ) {
    this.session = session;
  }

  /**
   * Loads the model. With provider 'cuda', a CUDA session is tried; if that fails (no GPU, a
   * CPU-only onnxruntime build) a CPU session is used instead and exactly one line is logged.
   */
  static async create(
    bytes: Uint8Array,
    options: OnnxQScorerOptions = { provider: 'cpu' },
    log: (msg: string) => void = console.warn,
  ): Promise<OnnxQScorer> {
    const requested = options.provider ?? 'cpu';
    if (requested !== 'cpu' && requested !== 'cuda') {
      throw new BadInputError(`OnnxQScorer: provider must be 'cpu' or 'cuda', not '${String(requested)}'`, { field: 'provider' });
    }
    const inputDim = onnxInputDim(bytes);
    const ort = (await import('onnxruntime-node')) as typeof Ort;
    const sessionOptions = (provider: QScorerProvider): Ort.InferenceSession.SessionOptions => ({
      executionProviders: [provider],
      ...(options.threads ? { intraOpNumThreads: options.threads, interOpNumThreads: 1 } : {}),
    });
    const create = (provider: QScorerProvider) => ort.InferenceSession.create(bytes, sessionOptions(provider));

    if (requested === 'cuda') {
      const missing = cudaUnavailableReason(ort);
      let reason = missing;
      if (!missing) {
        try {
          return new OnnxQScorer(ort, await create('cuda'), 'cuda', inputDim);
        } catch (err) {
          reason = String((err as Error).message ?? err);
        }
      }
      log(`graft: ONNX Q scorer: CUDA execution provider unavailable (${(reason ?? '').split('\n')[0].trim()}); falling back to CPU`);
    }
    try {
      return new OnnxQScorer(ort, await create('cpu'), 'cpu', inputDim);
    } catch (err) {
      throw new BadInputError(`OnnxQScorer: cannot load ONNX model: ${(err as Error).message}`);
    }
  }

  /** The execution provider actually in use (after any CUDA fallback). */
  get provider(): QScorerProvider {
    return this.usedProvider;
  }

  /** Q for n rows of features (row-major n × inputDim), in one batched session.run. */
  async score(features: Float32Array, n: number): Promise<Float32Array> {
    const session = this.session;
    if (!session) throw new GraftError(ErrorCode.INTERNAL, 'OnnxQScorer: score() after release()');
    if (!Number.isInteger(n) || n < 0) throw new BadInputError(`OnnxQScorer: n must be a non-negative integer, not ${n}`);
    if (features.length !== n * this.inputDim) {
      throw new BadInputError(
        `OnnxQScorer: got ${features.length} feature values for ${n} rows; the model expects ${this.inputDim} features per row (${n * this.inputDim} values)`,
        { expectedWidth: this.inputDim, values: features.length, rows: n },
      );
    }
    if (n === 0) return new Float32Array(0);
    const input = new this.ort.Tensor('float32', features, [n, this.inputDim]);
    let out: Ort.InferenceSession.OnnxValueMapType;
    try {
      out = await session.run({ [ONNX_INPUT_NAME]: input }, [ONNX_OUTPUT_NAME]);
    } catch (err) {
      throw new GraftError(ErrorCode.INTERNAL, `OnnxQScorer: inference failed: ${(err as Error).message}`);
    }
    const q = out[ONNX_OUTPUT_NAME] as Ort.Tensor | undefined;
    if (!q || q.type !== 'float32' || q.size !== n) {
      throw new GraftError(ErrorCode.INTERNAL, `OnnxQScorer: output '${ONNX_OUTPUT_NAME}' is not float32[${n}]`);
    }
    return Float32Array.from(q.data as Float32Array);
  }

  async release(): Promise<void> {
    const session = this.session;
    this.session = null;
    if (session) await session.release();
  }
}
