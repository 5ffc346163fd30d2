import type { AskOptions, IntentResult, ScoreExplanation, SynthesisResult, TableFilter } from '../engine/types.js';
import type { Enrichment } from '../enrich/index.js';
import type { IntentGraph } from '../intent/index.js';

/**
 * What the server needs from the engine (src/engine): it receives one by injection, so tests
 * can run the API against a stand-in and the CLI against the real thing. Every call gets the
 * caller's `allowTable`: the engine must never look at, return or explain a table it rejects.
 * Training-data enrichment (src/enrich's `Enrichment`) is optional, so that engines without it
 * still serve the rest.
 */
export interface ServedEngine extends Partial<Enrichment> {
  intentGraph(question: string, opts: { extractor?: 'offline' | 'llm'; allowTable?: TableFilter; signal?: AbortSignal }): Promise<IntentResult>;
  synthesize(question: string, opts: AskOptions): Promise<SynthesisResult>;
  explain(args: { question?: string; intent?: IntentGraph; tableIds: string[]; allowTable?: TableFilter; signal?: AbortSignal }): Promise<ScoreExplanation>;
  /** The catalog changed (ingest, delete): drop whatever the engine cached about it. */
  invalidate(): void;
  /**
   * Whether the engine should be sent traffic yet, as `/readyz` reports it to a load balancer:
   * not while its workers warm up (`graft serve`, GRAFT_ENGINE_WARMUP_MS), so a new instance is
   * not handed real questions on cold code. It answers meanwhile all the same. Absent: ready.
   */
  readiness?(): EngineReadiness;
}

/** What `/readyz` shows as `engine`; only `ready` is sent traffic. */
export type EngineReadiness = 'warming-up' | 'ready';
