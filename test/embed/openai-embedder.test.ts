import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OpenAIEmbedder, cosine } from '../../src/embed/index.js';
import { ErrorCode, GraftError } from '../../src/util/errors.js';

const API_KEY = 'sk-test-SECRET-0123456789';
const MODEL_DIMS = 1536;

/** The stub's vector for an input: deterministic, distinct per input, `dims` long. */
function stubVector(input: string, dims: number): number[] {
  let h = 2166136261;
  for (let i = 0; i < input.length; i++) h = Math.imul(h ^ input.charCodeAt(i), 16777619) >>> 0;
  return Array.from({ length: dims }, (_, j) => Math.sin((h % 10007) * 0.013 + j * 0.7) + (j % 97 === h % 97 ? 2 : 0));
}

function expected(input: string): number[] {
  const head = stubVector(input, MODEL_DIMS).slice(0, 256);
  const n = Math.sqrt(head.reduce((s, x) => s + x * x, 0));
  return head.map((x) => x / n);
}

type Mode = 'ok' | 'fail500' | 'failOnce' | 'slow' | 'echoKey' | 'wrongCount' | 'base64';

interface Recorded {
  method: string;
  url: string;
  authorization?: string;
  body: { model: string; input: string[]; encoding_format?: string; dimensions?: number };
}

let server: http.Server;
let baseURL: string;
let mode: Mode = 'ok';
let requests: Recorded[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as Recorded['body'];
      requests.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization, body });
      const send = (status: number, payload: unknown) => {
        // retry-after-ms keeps the client's retry back-off short in tests.
        res.writeHead(status, { 'content-type': 'application/json', 'retry-after-ms': '5' });
        res.end(JSON.stringify(payload));
      };
      if (req.method !== 'POST' || req.url !== '/v1/embeddings') return send(404, { error: { message: 'no route' } });
      if (mode === 'fail500' || (mode === 'failOnce' && requests.length === 1)) {
        return send(500, { error: { message: 'model overloaded', type: 'server_error' } });
      }
      if (mode === 'echoKey') {
        return send(500, { error: { message: `Incorrect API key provided: ${req.headers.authorization}` } });
      }
      if (mode === 'slow') {
        setTimeout(() => send(200, { data: [] }), 1000);
        return;
      }
      const dims = body.dimensions ?? MODEL_DIMS;
      const inputs = mode === 'wrongCount' ? body.input.slice(1) : body.input;
      const data = inputs.map((input, index) => {
        const v = stubVector(input, MODEL_DIMS).slice(0, dims);
        const embedding = mode === 'base64' ? Buffer.from(new Float32Array(v).buffer).toString('base64') : v;
        return { object: 'embedding', index, embedding };
      });
      // Answer out of order: the client must place vectors by `index`.
      send(200, { object: 'list', model: body.model, data: data.reverse(), usage: { prompt_tokens: 1, total_tokens: 1 } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  mode = 'ok';
  requests = [];
});

const make = (extra: Partial<ConstructorParameters<typeof OpenAIEmbedder>[0]> = {}) =>
  new OpenAIEmbedder({ baseURL, apiKey: API_KEY, model: 'stub-embed-large', maxRetries: 0, ...extra });

async function upstreamError(promise: Promise<unknown>): Promise<GraftError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GraftError);
  expect((err as GraftError).code).toBe(ErrorCode.UPSTREAM);
  return err as GraftError;
}

describe('OpenAIEmbedder', () => {
  it('sends OpenAI-shaped requests and reduces 1536-d answers to unit 256-d vectors', async () => {
    const embedder = make();
    expect(embedder.id).toBe('openai:stub-embed-large');
    expect(embedder.dim).toBe(256);
    const texts = ['player_id', 'revenue_usd', 'which player scored most?'];
    const vectors = await embedder.embed(texts);
    expect(requests).toHaveLength(1);
    const [req] = requests;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/v1/embeddings');
    expect(req.authorization).toBe(`Bearer ${API_KEY}`);
    expect(req.body).toEqual({ model: 'stub-embed-large', input: texts, encoding_format: 'float' });
    vectors.forEach((v, i) => {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(256);
      const want = expected(texts[i]);
      for (let j = 0; j < 256; j++) expect(v[j]).toBeCloseTo(want[j], 6);
    });
    expect(cosine(vectors[0], vectors[1])).toBeLessThan(0.99);
  });

  it('requests `dimensions` when configured and accepts base64 answers', async () => {
    const vectors = await make({ dimensions: 256 }).embed(['player_id']);
    expect(requests[0].body.dimensions).toBe(256);
    const want = expected('player_id');
    for (let j = 0; j < 256; j++) expect(vectors[0][j]).toBeCloseTo(want[j], 6);
    mode = 'base64';
    const [b64] = await make().embed(['player_id']);
    for (let j = 0; j < 256; j++) expect(b64[j]).toBeCloseTo(want[j], 5);
  });

  it('batches inputs and keeps their order', async () => {
    const texts = ['a', 'b', 'c', 'd', 'e'];
    const vectors = await make({ batchSize: 2 }).embed(texts);
    expect(requests.map((r) => r.body.input)).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    vectors.forEach((v, i) => expect(v[0]).toBeCloseTo(expected(texts[i])[0], 6));
    expect(await make().embed([])).toEqual([]);
    expect(requests).toHaveLength(3);
  });

  it('turns an HTTP 500 into an UPSTREAM error naming endpoint and model', async () => {
    mode = 'fail500';
    const err = await upstreamError(make().embed(['x']));
    expect(err.message).toContain(baseURL);
    expect(err.message).toContain('stub-embed-large');
    expect(err.message).toContain('500');
    expect(err.details).toMatchObject({ endpoint: baseURL, model: 'stub-embed-large', status: 500 });
    expect(requests).toHaveLength(1);
  });

  it('retries once by default, and recovers from a single failure', async () => {
    mode = 'failOnce';
    const vectors = await make({ maxRetries: 1 }).embed(['x']);
    expect(vectors).toHaveLength(1);
    expect(requests).toHaveLength(2);
    mode = 'fail500';
    requests = [];
    await upstreamError(new OpenAIEmbedder({ baseURL, apiKey: API_KEY, model: 'm' }).embed(['x']));
    expect(requests).toHaveLength(2);
  });

  it('never puts the API key in error messages, even when the server echoes it', async () => {
    mode = 'echoKey';
    const err = await upstreamError(make().embed(['x']));
    expect(err.message).not.toContain(API_KEY);
    expect(JSON.stringify(err.details)).not.toContain(API_KEY);
    expect(err.message).toContain('[redacted]');
    expect(err.stack ?? '').not.toContain(API_KEY);
  });

  it('times out slow endpoints', async () => {
    mode = 'slow';
    const err = await upstreamError(make({ timeoutMs: 150 }).embed(['x']));
    expect(err.message).toMatch(/timed out after 150 ms/);
  });

  it('rejects answers with the wrong number of embeddings', async () => {
    mode = 'wrongCount';
    const err = await upstreamError(make().embed(['x', 'y']));
    expect(err.message).toMatch(/expected 2 embeddings, got 1/);
  });

  it('reports unreachable endpoints as UPSTREAM', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const err = await upstreamError(
      new OpenAIEmbedder({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey: API_KEY, model: 'm', maxRetries: 0 }).embed(['x']),
    );
    expect(err.message).toContain(`http://127.0.0.1:${port}/v1`);
    expect(err.message).toMatch(/connection failed.*ECONNREFUSED/);
  });
});
