import OpenAI from 'openai';
import { BadInputError } from '../util/errors.js';
import { graphFromLlmReply, llmIntentGraphJsonSchema } from './llm-schema.js';
import { buildSystemPrompt, buildUserPrompt } from './llm-prompt.js';
import type { OfflineExtractor } from './offline-extractor.js';
import type { IntentGraph } from './schema.js';

export interface LlmIntentExtractorOptions {
  /** OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1. */
  baseURL: string;
  /** Omitted for local servers that take none. */
  apiKey?: string;
  model: string;
  /** Per request; a slower reply counts as a failed attempt. */
  timeoutMs: number;
  /** Used when every attempt failed; also grounds the model's graph against its vocabulary. */
  fallback: OfflineExtractor;
  /** Requests before falling back. Default 2 (one retry). */
  maxAttempts?: number;
  /** Default 0: extraction should be repeatable. */
  temperature?: number;
}

export interface LlmExtraction {
  graph: IntentGraph;
  warnings: string[];
  source: 'llm' | 'offline-fallback';
  /** Requests made to the endpoint. */
  attempts: number;
}

export interface LlmConfig {
  baseURL: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * LLM configuration from the environment: GRAFT_LLM_BASE_URL, GRAFT_LLM_MODEL, GRAFT_LLM_API_KEY
 * (else OPENAI_API_KEY) and GRAFT_LLM_TIMEOUT_MS. Returns undefined when no base URL is set (the
 * offline extractor is the default); throws BadInputError naming the variable when the
 * configuration is half there or malformed.
 */
export function llmConfigFromEnv(env: NodeJS.ProcessEnv = process.env): LlmConfig | undefined {
  const baseURL = env.GRAFT_LLM_BASE_URL?.trim();
  if (!baseURL) return undefined;
  try {
    new URL(baseURL);
  } catch {
    throw new BadInputError(`GRAFT_LLM_BASE_URL: not a URL: '${baseURL}'`, { field: 'GRAFT_LLM_BASE_URL' });
  }
  const model = env.GRAFT_LLM_MODEL?.trim();
  if (!model) {
    throw new BadInputError('GRAFT_LLM_MODEL: required when GRAFT_LLM_BASE_URL is set', { field: 'GRAFT_LLM_MODEL' });
  }
  const rawTimeout = env.GRAFT_LLM_TIMEOUT_MS?.trim();
  const timeoutMs = rawTimeout ? Number(rawTimeout) : DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new BadInputError(`GRAFT_LLM_TIMEOUT_MS: not a positive number: '${rawTimeout}'`, { field: 'GRAFT_LLM_TIMEOUT_MS' });
  }
  const apiKey = env.GRAFT_LLM_API_KEY?.trim() || env.OPENAI_API_KEY?.trim() || undefined;
  return { baseURL, model, timeoutMs, ...(apiKey ? { apiKey } : {}) };
}

/**
 * Question -> intent graph with an OpenAI-compatible chat model under JSON-schema structured
 * output. A reply that fails (transport error, timeout, HTTP error, bad JSON, schema or graph-rule
 * violation) is retried once; after that the offline extractor answers, with a warning saying why.
 * `extract` never throws.
 */
export class LlmIntentExtractor {
  private readonly client: OpenAI;
  private readonly systemPrompt = buildSystemPrompt();
  private readonly schema = llmIntentGraphJsonSchema();
  private readonly maxAttempts: number;

  constructor(private readonly opts: LlmIntentExtractorOptions) {
    this.maxAttempts = Math.max(1, opts.maxAttempts ?? 2);
    this.client = new OpenAI({
      baseURL: opts.baseURL,
      // The client insists on a key; local servers ignore it.
      apiKey: opts.apiKey ?? 'no-key',
      timeout: opts.timeoutMs,
      maxRetries: 0,
    });
  }

  /** An extractor from `llmConfigFromEnv`, or undefined when no LLM is configured. */
  static fromEnv(fallback: OfflineExtractor, env: NodeJS.ProcessEnv = process.env): LlmIntentExtractor | undefined {
    const config = llmConfigFromEnv(env);
    return config ? new LlmIntentExtractor({ ...config, fallback }) : undefined;
  }

  async extract(question: string): Promise<LlmExtraction> {
    const failures: string[] = [];
    for (let attempt = 1; attempt <= this.maxAttempts; attempt++) {
      try {
        const graph = await this.requestGraph(question);
        return {
          graph: this.opts.fallback.ground(graph),
          warnings: failures.map((f, i) => `LLM attempt ${i + 1} failed: ${f}`),
          source: 'llm',
          attempts: attempt,
        };
      } catch (err) {
        failures.push(describeError(err));
      }
    }
    const offline = this.opts.fallback.extract(question);
    return {
      graph: offline.graph,
      warnings: [
        `LLM intent extraction failed after ${this.maxAttempts} attempts (${failures
          .map((f, i) => `${i + 1}: ${f}`)
          .join('; ')}); used the offline extractor`,
        ...offline.warnings,
      ],
      source: 'offline-fallback',
      attempts: this.maxAttempts,
    };
  }

  private async requestGraph(question: string): Promise<IntentGraph> {
    const completion = await this.client.chat.completions.create(
      {
        model: this.opts.model,
        temperature: this.opts.temperature ?? 0,
        messages: [
          { role: 'system', content: this.systemPrompt },
          { role: 'user', content: buildUserPrompt(question) },
        ],
        response_format: {
          type: 'json_schema',
          json_schema: { name: 'intent_graph', schema: this.schema, strict: true },
        },
      },
      { timeout: this.opts.timeoutMs, maxRetries: 0 },
    );
    const message = completion.choices?.[0]?.message;
    if (message?.refusal) throw new Error(`model refused: ${message.refusal}`);
    return graphFromLlmReply(message?.content);
  }
}

function describeError(err: unknown): string {
  if (err instanceof OpenAI.APIConnectionTimeoutError) return 'timed out';
  if (err instanceof OpenAI.APIError && err.status !== undefined) return `HTTP ${err.status}: ${err.message}`;
  return err instanceof Error ? err.message : String(err);
}
