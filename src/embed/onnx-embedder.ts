import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type * as Ort from 'onnxruntime-node';
import { BadInputError, ErrorCode, GraftError } from '../util/errors.js';
import { cudaUnavailableReason } from '../util/onnxCuda.js';
import { EMBEDDING_DIM, type Embedder } from './embedder.js';
import { reduceToEmbeddingDim } from './vector.js';
import { WordPieceTokenizer } from './wordpiece-tokenizer.js';

export type ExecutionProvider = 'cpu' | 'cuda';

export interface OnnxEmbedderOptions {
  /** Directory with model.onnx and vocab.txt (optionally tokenizer_config.json). */
  modelDir: string;
  /** 'cuda' falls back to 'cpu', with one warning line, where CUDA is unavailable. */
  executionProvider?: ExecutionProvider;
  /** Texts per inference call (default 32). */
  batchSize?: number;
  /** Tokens per text including [CLS]/[SEP] (default 128). */
  maxLength?: number;
  /** Overrides tokenizer_config.json's do_lower_case (default: lower-case). */
  lowercase?: boolean;
  /** Where the CUDA fallback warning goes (default console.warn). */
  warn?: (line: string) => void;
}

interface LoadedModel {
  ort: typeof Ort;
  session: Ort.InferenceSession;
  tokenizer: WordPieceTokenizer;
  /** Graph inputs we feed, with the integer type each wants. */
  feeds: { name: string; kind: 'input_ids' | 'attention_mask' | 'token_type_ids' | 'position_ids'; type: 'int64' | 'int32' }[];
  output: string;
  provider: ExecutionProvider;
}

/** Preferred outputs: a pooled sentence vector if the export has one, else token states to pool. */
const OUTPUT_PREFERENCE = ['sentence_embedding', 'pooler_output_mean', 'last_hidden_state', 'token_embeddings'];

/**
 * Sentence embeddings from a local BERT-style ONNX export (e.g. all-MiniLM-L6-v2): WordPiece
 * tokens -> model -> masked mean pooling over last_hidden_state (or a 2-D sentence_embedding
 * output used as is) -> first 256 components -> L2 normalised.
 */
export class OnnxEmbedder implements Embedder {
  readonly id: string;
  readonly dim = EMBEDDING_DIM;
  readonly modelDir: string;
  private readonly modelPath: string;
  private readonly vocabPath: string;
  private readonly options: OnnxEmbedderOptions;
  private readonly batchSize: number;
  private loaded: Promise<LoadedModel> | null = null;

  constructor(options: OnnxEmbedderOptions) {
    this.options = options;
    this.modelDir = path.resolve(options.modelDir);
    this.modelPath = path.join(this.modelDir, 'model.onnx');
    this.vocabPath = path.join(this.modelDir, 'vocab.txt');
    if (!existsSync(this.modelDir) || !statSync(this.modelDir).isDirectory()) {
      throw new BadInputError(`${this.modelDir}: ONNX model directory does not exist`, { path: this.modelDir });
    }
    for (const file of [this.modelPath, this.vocabPath]) {
      if (!existsSync(file)) throw new BadInputError(`${file}: missing from the ONNX model directory`, { path: file });
    }
    const provider = options.executionProvider ?? 'cpu';
    if (provider !== 'cpu' && provider !== 'cuda') {
      throw new BadInputError(`executionProvider must be 'cpu' or 'cuda', not '${String(provider)}'`, {
        field: 'executionProvider',
      });
    }
    this.batchSize = options.batchSize ?? 32;
    if (!Number.isInteger(this.batchSize) || this.batchSize <= 0) {
      throw new BadInputError('ONNX embedder: batchSize must be a positive integer', { field: 'batchSize' });
    }
    this.id = `onnx:${path.basename(this.modelDir)}`;
  }

  /** The execution provider actually in use (after any CUDA fallback). */
  async provider(): Promise<ExecutionProvider> {
    return (await this.load()).provider;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const model = await this.load();
    const out: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      out.push(...(await this.embedBatch(model, texts.slice(start, start + this.batchSize))));
    }
    return out;
  }

  async close(): Promise<void> {
    const loaded = this.loaded;
    this.loaded = null;
    if (loaded) await (await loaded).session.release();
  }

  private load(): Promise<LoadedModel> {
    if (!this.loaded) {
      this.loaded = this.loadModel();
      // A failed load is not cached: a later call retries (the directory may have been fixed).
      this.loaded.catch(() => {
        this.loaded = null;
      });
    }
    return this.loaded;
  }

  private async loadModel(): Promise<LoadedModel> {
    const tokenizer = WordPieceTokenizer.fromVocabText(
      readFileSync(this.vocabPath, 'utf8'),
      { lowercase: this.options.lowercase ?? this.configuredLowercase(), maxLength: this.options.maxLength },
      this.vocabPath,
    );
    // Imported lazily: the native runtime is only loaded by deployments that use it.
    const ort = (await import('onnxruntime-node')) as typeof Ort;
    const { session, provider } = await this.createSession(ort);

    const feeds: LoadedModel['feeds'] = [];
    const metadata = (session as { inputMetadata?: readonly { name: string; type?: string }[] }).inputMetadata;
    for (const name of session.inputNames) {
      if (name !== 'input_ids' && name !== 'attention_mask' && name !== 'token_type_ids' && name !== 'position_ids') {
        throw new BadInputError(`${this.modelPath}: unsupported model input '${name}' (expected input_ids, attention_mask, token_type_ids)`, {
          path: this.modelPath,
        });
      }
      const type = metadata?.find((m) => m.name === name)?.type === 'int32' ? 'int32' : 'int64';
      feeds.push({ name, kind: name, type });
    }
    if (!feeds.some((f) => f.kind === 'input_ids')) {
      throw new BadInputError(`${this.modelPath}: model has no input_ids input`, { path: this.modelPath });
    }
    const output = OUTPUT_PREFERENCE.find((n) => session.outputNames.includes(n)) ?? session.outputNames[0];
    if (!output) throw new BadInputError(`${this.modelPath}: model has no outputs`, { path: this.modelPath });
    return { ort, session, tokenizer, feeds, output, provider };
  }

  /** tokenizer_config.json's do_lower_case, when the export ships one; uncased otherwise. */
  private configuredLowercase(): boolean {
    const file = path.join(this.modelDir, 'tokenizer_config.json');
    if (!existsSync(file)) return true;
    try {
      const config = JSON.parse(readFileSync(file, 'utf8')) as { do_lower_case?: unknown };
      return typeof config.do_lower_case === 'boolean' ? config.do_lower_case : true;
    } catch {
      throw new BadInputError(`${file}: not valid JSON`, { path: file });
    }
  }

  private async createSession(ort: typeof Ort): Promise<{ session: Ort.InferenceSession; provider: ExecutionProvider }> {
    const create = (provider: ExecutionProvider) =>
      ort.InferenceSession.create(this.modelPath, { executionProviders: [provider] });
    try {
      if ((this.options.executionProvider ?? 'cpu') === 'cuda') {
        const missing = cudaUnavailableReason(ort);
        if (!missing) {
          try {
            return { session: await create('cuda'), provider: 'cuda' };
          } catch (err) {
            this.warnCpuFallback((err as Error).message);
          }
        } else this.warnCpuFallback(missing);
      }
      return { session: await create('cpu'), provider: 'cpu' };
    } catch (err) {
      throw new BadInputError(`${this.modelPath}: cannot load ONNX model: ${(err as Error).message}`, {
        path: this.modelPath,
      });
    }
  }

  private warnCpuFallback(reason: string): void {
    const line = `graft: ONNX embedder ${this.id}: CUDA execution provider unavailable (${reason.split('\n')[0]}); falling back to CPU`;
    (this.options.warn ?? console.warn)(line);
  }

  private async embedBatch(model: LoadedModel, texts: string[]): Promise<Float32Array[]> {
    const { ort, session, tokenizer } = model;
    const encoded = texts.map((t) => tokenizer.encode(t));
    const batch = encoded.length;
    const seq = Math.max(...encoded.map((ids) => ids.length));
    const ids = new Array<number>(batch * seq).fill(tokenizer.padId);
    const mask = new Uint8Array(batch * seq);
    encoded.forEach((tokens, b) => {
      tokens.forEach((id, t) => {
        ids[b * seq + t] = id;
        mask[b * seq + t] = 1;
      });
    });
    const feeds: Record<string, Ort.Tensor> = {};
    for (const feed of model.feeds) {
      const values =
        feed.kind === 'input_ids'
          ? ids
          : feed.kind === 'attention_mask'
            ? Array.from(mask)
            : feed.kind === 'position_ids'
              ? ids.map((_, i) => i % seq)
              : new Array<number>(batch * seq).fill(0);
      feeds[feed.name] =
        feed.type === 'int32'
          ? new ort.Tensor('int32', Int32Array.from(values), [batch, seq])
          : new ort.Tensor('int64', BigInt64Array.from(values, (v) => BigInt(v)), [batch, seq]);
    }

    let result: Ort.InferenceSession.OnnxValueMapType;
    try {
      result = await session.run(feeds, [model.output]);
    } catch (err) {
      throw this.modelError(`inference failed: ${(err as Error).message}`);
    }
    const tensor = result[model.output] as Ort.Tensor | undefined;
    if (!tensor || (tensor.type !== 'float32' && tensor.type !== 'float64')) {
      throw this.modelError(`output ${model.output} is not a float32 tensor (${tensor?.type ?? 'missing'})`);
    }
    const data = tensor.data as Float32Array | Float64Array;
    const dims = tensor.dims;
    const vectors: Float32Array[] = [];
    if (dims.length === 2 && dims[0] === batch) {
      const hidden = dims[1];
      for (let b = 0; b < batch; b++) vectors.push(this.reduce(data.subarray(b * hidden, (b + 1) * hidden)));
    } else if (dims.length === 3 && dims[0] === batch && dims[1] === seq) {
      const hidden = dims[2];
      for (let b = 0; b < batch; b++) {
        // Masked mean pooling: padding positions must not pull the mean.
        const sum = new Float64Array(hidden);
        let count = 0;
        for (let t = 0; t < seq; t++) {
          if (!mask[b * seq + t]) continue;
          count++;
          const offset = (b * seq + t) * hidden;
          for (let j = 0; j < hidden; j++) sum[j] += data[offset + j];
        }
        for (let j = 0; j < hidden; j++) sum[j] /= count;
        vectors.push(this.reduce(sum));
      }
    } else {
      throw this.modelError(`output ${model.output} has shape [${dims.join(', ')}], expected [${batch}, hidden] or [${batch}, ${seq}, hidden]`);
    }
    return vectors;
  }

  private reduce(values: ArrayLike<number>): Float32Array {
    const v = reduceToEmbeddingDim(values);
    if (!v) throw this.modelError('produced a zero or non-finite embedding');
    return v;
  }

  private modelError(detail: string): GraftError {
    return new GraftError(ErrorCode.UPSTREAM, `ONNX model ${this.modelPath}: ${detail}`, { path: this.modelPath });
  }
}
