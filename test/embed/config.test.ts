import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  HashedNgramEmbedder,
  OPENAI_DEFAULT_BASE_URL,
  OnnxEmbedder,
  OpenAIEmbedder,
  createEmbedder,
  embedderConfigFromEnv,
} from '../../src/embed/index.js';
import { BadInputError } from '../../src/util/errors.js';
import { writeTestModel } from './onnx-test-model.js';

function badInput(fn: () => unknown, variable: string) {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(BadInputError);
  expect((caught as Error).message).toContain(variable);
}

describe('embedderConfigFromEnv', () => {
  it('defaults to the built-in embedder', () => {
    expect(embedderConfigFromEnv({})).toEqual({ kind: 'builtin' });
    expect(embedderConfigFromEnv({ GRAFT_EMBEDDER: '' })).toEqual({ kind: 'builtin' });
    expect(embedderConfigFromEnv({ GRAFT_EMBEDDER: 'BUILTIN' })).toEqual({ kind: 'builtin' });
  });

  it('reads the OpenAI-compatible settings, with OPENAI_API_KEY as fallback', () => {
    expect(embedderConfigFromEnv({ GRAFT_EMBEDDER: 'openai', OPENAI_API_KEY: 'sk-a' })).toEqual({
      kind: 'openai',
      baseURL: OPENAI_DEFAULT_BASE_URL,
      model: 'text-embedding-3-small',
      apiKey: 'sk-a',
    });
    expect(
      embedderConfigFromEnv({
        GRAFT_EMBEDDER: 'openai',
        GRAFT_EMBEDDINGS_BASE_URL: 'http://127.0.0.1:8080/v1',
        GRAFT_EMBEDDINGS_MODEL: 'bge-m3',
        GRAFT_EMBEDDINGS_API_KEY: 'sk-b',
        OPENAI_API_KEY: 'sk-a',
        GRAFT_EMBEDDINGS_DIMENSIONS: '512',
        GRAFT_EMBEDDINGS_BATCH_SIZE: '16',
        GRAFT_EMBEDDINGS_TIMEOUT_MS: '5000',
        GRAFT_EMBEDDINGS_MAX_RETRIES: '0',
      }),
    ).toEqual({
      kind: 'openai',
      baseURL: 'http://127.0.0.1:8080/v1',
      model: 'bge-m3',
      apiKey: 'sk-b',
      dimensions: 512,
      batchSize: 16,
      timeoutMs: 5000,
      maxRetries: 0,
    });
  });

  it('reads the ONNX settings', () => {
    expect(embedderConfigFromEnv({ GRAFT_EMBEDDER: 'onnx', GRAFT_ONNX_MODEL_DIR: '/m/minilm' })).toEqual({
      kind: 'onnx',
      modelDir: '/m/minilm',
      executionProvider: 'cpu',
    });
    expect(
      embedderConfigFromEnv({ GRAFT_EMBEDDER: 'onnx', GRAFT_ONNX_MODEL_DIR: '/m', GRAFT_EXECUTION_PROVIDER: 'CUDA' }),
    ).toMatchObject({ executionProvider: 'cuda' });
  });

  it('names the offending variable in BadInputError', () => {
    badInput(() => embedderConfigFromEnv({ GRAFT_EMBEDDER: 'word2vec' }), 'GRAFT_EMBEDDER');
    badInput(() => embedderConfigFromEnv({ GRAFT_EMBEDDER: 'onnx' }), 'GRAFT_ONNX_MODEL_DIR');
    badInput(() => embedderConfigFromEnv({ GRAFT_EXECUTION_PROVIDER: 'tpu' }), 'GRAFT_EXECUTION_PROVIDER');
    badInput(
      () => embedderConfigFromEnv({ GRAFT_EMBEDDER: 'openai', GRAFT_EMBEDDINGS_BASE_URL: 'localhost:8080' }),
      'GRAFT_EMBEDDINGS_BASE_URL',
    );
    badInput(
      () => embedderConfigFromEnv({ GRAFT_EMBEDDER: 'openai', GRAFT_EMBEDDINGS_BASE_URL: 'http://h/v1' }),
      'GRAFT_EMBEDDINGS_MODEL',
    );
    badInput(() => embedderConfigFromEnv({ GRAFT_EMBEDDER: 'openai', GRAFT_EMBEDDINGS_DIMENSIONS: '128' }), 'GRAFT_EMBEDDINGS_DIMENSIONS');
    badInput(() => embedderConfigFromEnv({ GRAFT_EMBEDDER: 'openai', GRAFT_EMBEDDINGS_BATCH_SIZE: 'many' }), 'GRAFT_EMBEDDINGS_BATCH_SIZE');
  });
});

describe('createEmbedder', () => {
  it('builds each kind with its stable id', () => {
    expect(createEmbedder({ kind: 'builtin' })).toBeInstanceOf(HashedNgramEmbedder);
    const openai = createEmbedder({ kind: 'openai', baseURL: 'http://127.0.0.1:9/v1', model: 'text-embedding-3-small' });
    expect(openai).toBeInstanceOf(OpenAIEmbedder);
    expect(openai.id).toBe('openai:text-embedding-3-small');
    const dir = writeTestModel();
    const onnx = createEmbedder({ kind: 'onnx', modelDir: dir });
    expect(onnx).toBeInstanceOf(OnnxEmbedder);
    expect(onnx.id).toMatch(/^onnx:graft-onnx-/);
    rmSync(dir, { recursive: true, force: true });
  });

  it('rejects bad programmatic configs with BadInputError', () => {
    badInput(() => createEmbedder({ kind: 'openai', baseURL: 'not a url', model: 'm' }), 'baseURL');
    badInput(() => createEmbedder({ kind: 'openai', baseURL: 'http://h/v1', model: 'm', dimensions: 100 }), 'dimensions');
    badInput(() => createEmbedder({ kind: 'onnx', modelDir: '/nonexistent/model-dir' }), '/nonexistent/model-dir');
  });
});
