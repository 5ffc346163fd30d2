import OpenAI from 'openai';
import { BadInputError, ErrorCode, GraftError } from '../util/errors.js';
import { EMBEDDING_DIM, type Embedder } from './embedder.js';
import { reduceToEmbeddingDim } from './vector.js';

export interface OpenAIEmbedderOptions {
  /** e.g. 'https://api.openai.com/v1' or a local vLLM / Ollama / TEI '.../v1'. */
  baseURL: string;
  /** Omitted for local endpoints that need none. Never appears in errors or logs. */
  apiKey?: string;
  model: string;
  /**
   * Set only when the model accepts the `dimensions` parameter (OpenAI text-embedding-3-*,
   * other Matryoshka models): that many dimensions are requested (>= 256). Otherwise the
   * full vector comes back and is truncated to its first 256 components and re-normalised.
   */
  dimensions?: number;
  /** Inputs per request (default 64). */
  batchSize?: number;
  /** Per-request timeout in ms (default 30 000). */
  timeoutMs?: number;
  /** Retries after a failed request: timeouts, connection errors, 408/409/429/5xx (default 1). */
  maxRetries?: number;
}

export const OPENAI_DEFAULT_BATCH_SIZE = 64;
export const OPENAI_DEFAULT_TIMEOUT_MS = 30_000;
export const OPENAI_DEFAULT_MAX_RETRIES = 1;

/** Embeddings from any endpoint that speaks OpenAI's POST /embeddings. */
export class OpenAIEmbedder implements Embedder {
  readonly id: string;
  readonly dim = EMBEDDING_DIM;
  /** The endpoint as errors name it: no credentials, no query string. */
  readonly endpoint: string;
  private readonly client: OpenAI;
  private readonly model: string;
  private readonly dimensions?: number;
  private readonly batchSize: number;
  private readonly timeoutMs: number;
  private readonly secrets: string[];

  constructor(options: OpenAIEmbedderOptions) {
    if (!options.model) throw new BadInputError('OpenAI embedder: model is required', { field: 'model' });
    this.endpoint = describeEndpoint(options.baseURL);
    if (
      options.dimensions !== undefined &&
      (!Number.isInteger(options.dimensions) || options.dimensions < EMBEDDING_DIM)
    ) {
      throw new BadInputError(`OpenAI embedder: dimensions must be an integer >= ${EMBEDDING_DIM}`, {
        field: 'dimensions',
      });
    }
    this.model = options.model;
    this.dimensions = options.dimensions;
    this.batchSize = positiveInt(options.batchSize, OPENAI_DEFAULT_BATCH_SIZE, 'batchSize');
    this.timeoutMs = positiveInt(options.timeoutMs, OPENAI_DEFAULT_TIMEOUT_MS, 'timeoutMs');
    const maxRetries = options.maxRetries ?? OPENAI_DEFAULT_MAX_RETRIES;
    if (!Number.isInteger(maxRetries) || maxRetries < 0) {
      throw new BadInputError('OpenAI embedder: maxRetries must be an integer >= 0', { field: 'maxRetries' });
    }
    this.id = `openai:${options.model}`;
    this.secrets = [options.apiKey, new URL(options.baseURL).password].filter(
      (s): s is string => !!s && s.length >= 4,
    );
    this.client = new OpenAI({
      baseURL: options.baseURL,
      // The client insists on a key; local endpoints ignore the placeholder.
      apiKey: options.apiKey || 'no-key',
      timeout: this.timeoutMs,
      maxRetries,
    });
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      out.push(...(await this.embedBatch(texts.slice(start, start + this.batchSize))));
    }
    return out;
  }

  private async embedBatch(batch: string[]): Promise<Float32Array[]> {
    // The API rejects empty strings; a single space embeds as "nothing" on every server.
    const input = batch.map((t) => (t.length > 0 ? t : ' '));
    let response: OpenAI.Embeddings.CreateEmbeddingResponse;
    try {
      response = await this.client.embeddings.create({
        model: this.model,
        input,
        // Plain floats: not every OpenAI-compatible server implements base64.
        encoding_format: 'float',
        ...(this.dimensions !== undefined ? { dimensions: this.dimensions } : {}),
      });
    } catch (err) {
      throw this.upstreamError(describeFailure(err, this.timeoutMs), err);
    }
    const data = Array.isArray(response?.data) ? response.data : null;
    if (!data || data.length !== batch.length) {
      throw this.upstreamError(
        `expected ${batch.length} embeddings, got ${data ? data.length : 'no data array'}`,
      );
    }
    const vectors: Float32Array[] = new Array(batch.length);
    data.forEach((item, position) => {
      const index = Number.isInteger(item?.index) ? item.index : position;
      const raw = decodeEmbedding(item?.embedding);
      const vector = raw && index >= 0 && index < batch.length ? reduceToEmbeddingDim(raw) : null;
      if (!vector) throw this.upstreamError(`embedding ${position} of the batch is missing, empty, zero or not numeric`);
      vectors[index] = vector;
    });
    for (let i = 0; i < vectors.length; i++) {
      if (!vectors[i]) throw this.upstreamError(`no embedding for input ${i} of the batch`);
    }
    return vectors;
  }

  private upstreamError(detail: string, cause?: unknown): GraftError {
    const err = new GraftError(
      ErrorCode.UPSTREAM,
      `embeddings endpoint ${this.endpoint} (model ${this.model}) failed: ${this.redact(detail)}`,
      {
        endpoint: this.endpoint,
        model: this.model,
        ...(cause instanceof OpenAI.APIError && cause.status ? { status: cause.status } : {}),
      },
    );
    return err;
  }

  /** Servers sometimes echo the key ("Incorrect API key provided: sk-..."); never pass it on. */
  private redact(text: string): string {
    let out = text.replace(/Bearer\s+\S+/gi, 'Bearer [redacted]');
    for (const s of this.secrets) out = out.split(s).join('[redacted]');
    return out.length > 400 ? `${out.slice(0, 400)}…` : out;
  }
}

function describeFailure(err: unknown, timeoutMs: number): string {
  if (err instanceof OpenAI.APIConnectionTimeoutError) return `request timed out after ${timeoutMs} ms`;
  if (err instanceof OpenAI.APIConnectionError) {
    // fetch wraps the useful part ("connect ECONNREFUSED ...") in nested causes.
    const reasons: string[] = [];
    let cause = (err as { cause?: unknown }).cause;
    for (let depth = 0; cause instanceof Error && depth < 3; depth++) {
      reasons.push(cause.message);
      cause = (cause as { cause?: unknown }).cause;
    }
    return `connection failed${reasons.length > 0 ? `: ${reasons.join(': ')}` : ''}`;
  }
  if (err instanceof OpenAI.APIError) return `HTTP ${err.message}`;
  return err instanceof Error ? err.message : String(err);
}

function decodeEmbedding(embedding: unknown): ArrayLike<number> | null {
  if (Array.isArray(embedding)) {
    return embedding.every((x) => typeof x === 'number' && Number.isFinite(x)) ? embedding : null;
  }
  if (typeof embedding === 'string') {
    // A server that answers base64 although floats were asked for.
    const bytes = Buffer.from(embedding, 'base64');
    if (bytes.length === 0 || bytes.length % 4 !== 0) return null;
    const copy = new Uint8Array(bytes);
    return new Float32Array(copy.buffer, 0, copy.length / 4);
  }
  return null;
}

function describeEndpoint(baseURL: string): string {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    throw new BadInputError('OpenAI embedder: baseURL is not a valid URL', { field: 'baseURL' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BadInputError('OpenAI embedder: baseURL must be http(s)', { field: 'baseURL' });
  }
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

function positiveInt(value: number | undefined, fallback: number, field: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0) {
    throw new BadInputError(`OpenAI embedder: ${field} must be a positive integer`, { field });
  }
  return value;
}
