import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BadInputError } from '../../src/util/errors.js';
import {
  LlmIntentExtractor,
  OfflineExtractor,
  PROMPT_BLOCK_HEADERS,
  graphFromLlmReply,
  llmConfigFromEnv,
  llmIntentGraphJsonSchema,
} from '../../src/intent/index.js';
import { schoolLake } from './fixtures/school-lake.js';

type Behaviour = 'good' | 'malformed' | 'schema-violation' | 'dangling-edge' | 'slow' | 'http500';

const GOOD_REPLY = {
  trees: [
    {
      entity: { id: 'club', label: 'club', bridge: false },
      attributes: [{ id: 'club.name', label: 'name', value: { id: 'club.name.v', operator: '=', literal: 'AIB' } }],
    },
    { entity: { id: 'player_club', label: 'player club membership', bridge: true }, attributes: [] },
    { entity: { id: 'game', label: 'game', bridge: false }, attributes: [{ id: 'game.score', label: 'score', value: null }] },
  ],
  edges: [
    { id: 'club-player_club', from: 'club', to: 'player_club', label: null },
    { id: 'player_club-game', from: 'player_club', to: 'game', label: 'played' },
  ],
};

/** A local OpenAI-compatible chat endpoint whose replies follow a script. */
class StubLlmServer {
  readonly requests: { body: Record<string, unknown>; headers: IncomingMessage['headers'] }[] = [];
  script: Behaviour[] = [];
  private server?: Server;
  baseURL = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.baseURL = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404).end();
      return;
    }
    this.requests.push({ body: JSON.parse(Buffer.concat(chunks).toString('utf8')), headers: req.headers });
    const behaviour = this.script.shift() ?? 'good';
    const reply = (content: string): void => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'chatcmpl-stub',
          object: 'chat.completion',
          created: 0,
          model: 'stub',
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content, refusal: null } }],
        }),
      );
    };
    switch (behaviour) {
      case 'good':
        return reply(JSON.stringify(GOOD_REPLY));
      case 'malformed':
        return reply('{"trees": [ {"entity": ');
      case 'schema-violation':
        return reply(JSON.stringify({ trees: [{ entity: { id: 'club' }, attributes: 'none' }], edges: [] }));
      case 'dangling-edge':
        return reply(JSON.stringify({ ...GOOD_REPLY, edges: [{ id: 'x', from: 'club', to: 'stadium', label: null }] }));
      case 'slow':
        await new Promise((r) => setTimeout(r, 1500));
        if (!res.destroyed) reply(JSON.stringify(GOOD_REPLY));
        return;
      case 'http500':
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'model crashed', type: 'server_error' } }));
        return;
    }
  }
}

const stub = new StubLlmServer();
const fallback = new OfflineExtractor(schoolLake());
const QUESTION = 'What scores did players of club AIB get in games?';

function extractor(timeoutMs = 400): LlmIntentExtractor {
  return new LlmIntentExtractor({ baseURL: stub.baseURL, model: 'stub-model', timeoutMs, fallback });
}

beforeAll(() => stub.start());
afterAll(() => stub.stop());
beforeEach(() => {
  stub.requests.length = 0;
  stub.script = [];
});

describe('LlmIntentExtractor', () => {
  it('sends the json_schema response format and the four prompt blocks', async () => {
    stub.script = ['good'];
    await extractor().extract(QUESTION);
    expect(stub.requests).toHaveLength(1);
    const body = stub.requests[0].body as {
      model: string;
      temperature: number;
      messages: { role: string; content: string }[];
      response_format: { type: string; json_schema: { name: string; strict: boolean; schema: unknown } };
    };
    expect(body.model).toBe('stub-model');
    expect(body.temperature).toBe(0);
    expect(body.response_format.type).toBe('json_schema');
    expect(body.response_format.json_schema).toMatchObject({ name: 'intent_graph', strict: true });
    expect(body.response_format.json_schema.schema).toEqual(llmIntentGraphJsonSchema());
    const [system, user] = body.messages;
    expect(system.role).toBe('system');
    const positions = Object.values(PROMPT_BLOCK_HEADERS).map((h) => system.content.indexOf(h));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(system.content).toContain('Which students in the Computer Science department have GPA above 3.5?');
    expect(system.content).toContain('List the names of players and the clubs they play for');
    expect(system.content).toContain('"bridge":true');
    expect(system.content).toMatch(/bridge/i);
    expect(user).toEqual({ role: 'user', content: `Question: ${QUESTION}\nOutput:` });
  });

  it('returns the model graph, grounded against the vocabulary', async () => {
    stub.script = ['good'];
    const result = await extractor().extract(QUESTION);
    expect(result.source).toBe('llm');
    expect(result.attempts).toBe(1);
    expect(result.warnings).toEqual([]);
    const [club, bridge, game] = result.graph.trees;
    expect(bridge.entity.bridge).toBe(true);
    expect(club.entity.grounding![0]).toMatchObject({ tableId: 'league.clubs' });
    expect(club.attributes[0].value).toMatchObject({ operator: '=', literal: 'AIB' });
    expect(club.attributes[0].value!.grounding![0]).toMatchObject({ tableId: 'league.clubs', columnId: 'club_name', kind: 'value' });
    expect(game.attributes[0].grounding![0]).toMatchObject({ tableId: 'league.games', columnId: 'score' });
    expect(result.graph.edges.map((e) => e.label ?? null)).toEqual([null, 'played']);
  });

  it.each<[Behaviour, RegExp]>([
    ['malformed', /not valid JSON/],
    ['schema-violation', /trees\[0\]\.entity\.label/],
    ['dangling-edge', /edges\[0\]\.to: unknown entity id 'stadium'/],
    ['http500', /HTTP 500/],
  ])('retries once after a %s reply, then succeeds', async (bad, reason) => {
    stub.script = [bad, 'good'];
    const result = await extractor().extract(QUESTION);
    expect(stub.requests).toHaveLength(2);
    expect(result.source).toBe('llm');
    expect(result.attempts).toBe(2);
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toMatch(reason);
  });

  it.each<Behaviour>(['malformed', 'schema-violation', 'http500', 'slow'])(
    'falls back to the offline extractor after two %s replies',
    async (bad) => {
      stub.script = [bad, bad];
      const started = Date.now();
      const result = await extractor(300).extract(QUESTION);
      expect(stub.requests).toHaveLength(2);
      expect(result.source).toBe('offline-fallback');
      expect(result.attempts).toBe(2);
      expect(result.warnings[0]).toMatch(/^LLM intent extraction failed after 2 attempts \(1: .*; 2: .*\); used the offline extractor$/);
      if (bad === 'slow') {
        expect(result.warnings[0]).toContain('timed out');
        expect(Date.now() - started).toBeLessThan(1400);
      }
      expect(result.graph).toEqual(fallback.extract(QUESTION).graph);
    },
  );

  it('sends the API key as a bearer token', async () => {
    stub.script = ['good'];
    await new LlmIntentExtractor({ baseURL: stub.baseURL, apiKey: 'sk-test', model: 'm', timeoutMs: 1000, fallback }).extract('x');
    expect(stub.requests[0].headers.authorization).toBe('Bearer sk-test');
  });

  it('falls back when nothing listens at the endpoint', async () => {
    const dead = new LlmIntentExtractor({ baseURL: 'http://127.0.0.1:9/v1', model: 'm', timeoutMs: 1000, fallback });
    const result = await dead.extract(QUESTION);
    expect(result.source).toBe('offline-fallback');
    expect(result.warnings[0]).toContain('failed after 2 attempts');
  });
});

describe('graphFromLlmReply', () => {
  it('accepts fenced JSON and fills the version', () => {
    const graph = graphFromLlmReply('```json\n' + JSON.stringify(GOOD_REPLY) + '\n```');
    expect(graph.version).toBe(1);
    expect(graph.trees[0].attributes[0].value).toEqual({ id: 'club.name.v', operator: '=', literal: 'AIB' });
    expect(graph.trees[2].attributes[0]).toEqual({ id: 'game.score', label: 'score' });
  });
  it('rejects an empty reply', () => {
    expect(() => graphFromLlmReply('')).toThrow(/no content/);
  });
});

describe('llmIntentGraphJsonSchema', () => {
  it('is strict-mode shaped: every object closed, every property required', () => {
    const visit = (node: unknown): void => {
      if (!node || typeof node !== 'object') return;
      const obj = node as Record<string, unknown>;
      if (obj.type === 'object') {
        expect(obj.additionalProperties).toBe(false);
        expect(new Set(obj.required as string[])).toEqual(new Set(Object.keys(obj.properties as object)));
      }
      Object.values(obj).forEach(visit);
    };
    const schema = llmIntentGraphJsonSchema();
    expect(schema.$schema).toBeUndefined();
    visit(schema);
  });
});

describe('llmConfigFromEnv', () => {
  it('is off without a base URL', () => {
    expect(llmConfigFromEnv({})).toBeUndefined();
  });
  it('reads the model, key (falling back to OPENAI_API_KEY) and timeout', () => {
    expect(
      llmConfigFromEnv({ GRAFT_LLM_BASE_URL: 'http://127.0.0.1:1/v1', GRAFT_LLM_MODEL: 'qwen', OPENAI_API_KEY: 'sk-o' }),
    ).toEqual({ baseURL: 'http://127.0.0.1:1/v1', model: 'qwen', apiKey: 'sk-o', timeoutMs: 30_000 });
    expect(
      llmConfigFromEnv({
        GRAFT_LLM_BASE_URL: 'http://h/v1',
        GRAFT_LLM_MODEL: 'm',
        GRAFT_LLM_API_KEY: 'sk-g',
        OPENAI_API_KEY: 'sk-o',
        GRAFT_LLM_TIMEOUT_MS: '1500',
      }),
    ).toMatchObject({ apiKey: 'sk-g', timeoutMs: 1500 });
  });
  it('names the variable that is missing or malformed', () => {
    expect(() => llmConfigFromEnv({ GRAFT_LLM_BASE_URL: 'http://h/v1' })).toThrow(BadInputError);
    expect(() => llmConfigFromEnv({ GRAFT_LLM_BASE_URL: 'http://h/v1' })).toThrow(/GRAFT_LLM_MODEL/);
    expect(() => llmConfigFromEnv({ GRAFT_LLM_BASE_URL: 'not a url', GRAFT_LLM_MODEL: 'm' })).toThrow(/GRAFT_LLM_BASE_URL/);
    expect(() => llmConfigFromEnv({ GRAFT_LLM_BASE_URL: 'http://h', GRAFT_LLM_MODEL: 'm', GRAFT_LLM_TIMEOUT_MS: '-1' })).toThrow(
      /GRAFT_LLM_TIMEOUT_MS/,
    );
  });
  it('builds an extractor from the environment, or none', () => {
    expect(LlmIntentExtractor.fromEnv(fallback, {})).toBeUndefined();
    expect(LlmIntentExtractor.fromEnv(fallback, { GRAFT_LLM_BASE_URL: stub.baseURL, GRAFT_LLM_MODEL: 'm' })).toBeInstanceOf(
      LlmIntentExtractor,
    );
  });
});
