import { BadInputError } from '../util/errors.js';
import type { DocumentFrequency } from './document-frequency.js';
import { EMBEDDING_DIM, type Embedder } from './embedder.js';
import { HashedNgramEmbedder } from './hashed-ngram-embedder.js';
import { type ExecutionProvider, OnnxEmbedder } from './onnx-embedder.js';
import { OpenAIEmbedder, type OpenAIEmbedderOptions } from './openai-embedder.js';

export type EmbedderConfig =
  | { kind: 'builtin' }
  | ({ kind: 'openai' } & OpenAIEmbedderOptions)
  | { kind: 'onnx'; modelDir: string; executionProvider?: ExecutionProvider; batchSize?: number };

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';
export const OPENAI_DEFAULT_MODEL = 'text-embedding-3-small';

type Env = Record<string, string | undefined>;

/**
 * Reads the embedder choice from the environment:
 *
 * - GRAFT_EMBEDDER = builtin (default) | openai | onnx
 * - openai: GRAFT_EMBEDDINGS_BASE_URL (default OpenAI's), GRAFT_EMBEDDINGS_MODEL (required with a
 *   custom base URL, else text-embedding-3-small), GRAFT_EMBEDDINGS_API_KEY (fallback
 *   OPENAI_API_KEY), GRAFT_EMBEDDINGS_DIMENSIONS, GRAFT_EMBEDDINGS_BATCH_SIZE,
 *   GRAFT_EMBEDDINGS_TIMEOUT_MS, GRAFT_EMBEDDINGS_MAX_RETRIES
 * - onnx: GRAFT_ONNX_MODEL_DIR (required), GRAFT_EXECUTION_PROVIDER = cpu (default) | cuda
 *
 * Empty values count as unset. Bad values throw BadInputError naming the variable.
 */
export function embedderConfigFromEnv(env: Env = process.env): EmbedderConfig {
  const get = (name: string): string | undefined => {
    const v = env[name]?.trim();
    return v ? v : undefined;
  };
  const kind = (get('GRAFT_EMBEDDER') ?? 'builtin').toLowerCase();
  const provider = get('GRAFT_EXECUTION_PROVIDER')?.toLowerCase();
  if (provider !== undefined && provider !== 'cpu' && provider !== 'cuda') {
    throw new BadInputError(`GRAFT_EXECUTION_PROVIDER must be 'cpu' or 'cuda', not '${provider}'`, {
      variable: 'GRAFT_EXECUTION_PROVIDER',
    });
  }
  switch (kind) {
    case 'builtin':
      return { kind: 'builtin' };
    case 'openai': {
      const baseURL = get('GRAFT_EMBEDDINGS_BASE_URL');
      if (baseURL !== undefined && !isHttpUrl(baseURL)) {
        throw new BadInputError('GRAFT_EMBEDDINGS_BASE_URL must be an http(s) URL', {
          variable: 'GRAFT_EMBEDDINGS_BASE_URL',
        });
      }
      const model = get('GRAFT_EMBEDDINGS_MODEL') ?? (baseURL === undefined ? OPENAI_DEFAULT_MODEL : undefined);
      if (!model) {
        throw new BadInputError('GRAFT_EMBEDDINGS_MODEL is required when GRAFT_EMBEDDINGS_BASE_URL is set', {
          variable: 'GRAFT_EMBEDDINGS_MODEL',
        });
      }
      const config: EmbedderConfig = { kind: 'openai', baseURL: baseURL ?? OPENAI_DEFAULT_BASE_URL, model };
      const apiKey = get('GRAFT_EMBEDDINGS_API_KEY') ?? get('OPENAI_API_KEY');
      if (apiKey) config.apiKey = apiKey;
      const dimensions = intVar(get, 'GRAFT_EMBEDDINGS_DIMENSIONS', EMBEDDING_DIM);
      if (dimensions !== undefined) config.dimensions = dimensions;
      const batchSize = intVar(get, 'GRAFT_EMBEDDINGS_BATCH_SIZE', 1);
      if (batchSize !== undefined) config.batchSize = batchSize;
      const timeoutMs = intVar(get, 'GRAFT_EMBEDDINGS_TIMEOUT_MS', 1);
      if (timeoutMs !== undefined) config.timeoutMs = timeoutMs;
      const maxRetries = intVar(get, 'GRAFT_EMBEDDINGS_MAX_RETRIES', 0);
      if (maxRetries !== undefined) config.maxRetries = maxRetries;
      return config;
    }
    case 'onnx': {
      const modelDir = get('GRAFT_ONNX_MODEL_DIR');
      if (!modelDir) {
        throw new BadInputError('GRAFT_ONNX_MODEL_DIR is required when GRAFT_EMBEDDER=onnx', {
          variable: 'GRAFT_ONNX_MODEL_DIR',
        });
      }
      return { kind: 'onnx', modelDir, executionProvider: (provider ?? 'cpu') as ExecutionProvider };
    }
    default:
      throw new BadInputError(`GRAFT_EMBEDDER must be builtin, openai or onnx, not '${kind}'`, {
        variable: 'GRAFT_EMBEDDER',
      });
  }
}

export interface CreateEmbedderOptions {
  /** Header document frequencies for the built-in embedder's idf (ignored by the others). */
  documentFrequency?: DocumentFrequency;
}

export function createEmbedder(config: EmbedderConfig, options: CreateEmbedderOptions = {}): Embedder {
  switch (config.kind) {
    case 'builtin':
      return new HashedNgramEmbedder({ documentFrequency: options.documentFrequency });
    case 'openai':
      return new OpenAIEmbedder(config);
    case 'onnx':
      return new OnnxEmbedder(config);
    default:
      throw new BadInputError(`unknown embedder kind '${(config as { kind?: unknown }).kind}'`, { field: 'kind' });
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function intVar(get: (name: string) => string | undefined, name: string, min: number): number | undefined {
  const raw = get(name);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < min) {
    throw new BadInputError(`${name} must be an integer >= ${min}, not '${raw}'`, { variable: name });
  }
  return value;
}
