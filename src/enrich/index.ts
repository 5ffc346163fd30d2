/** Training-data enrichment: from a base table and its target to the tables that add rows or attributes. */
export { enrichTable, baseIntent, taskOf, KEY_UNIQUENESS, MIN_JOIN_QUALITY, DEFAULT_MIN_GAIN } from './enrich.js';
export { parseEnrichRequest, resolveEnrichRequest, enrichFromRequest, type EnrichRequestWords } from './request.js';
export { findLeaks, LEAK_AGREEMENT, type LeakCandidate } from './leakage.js';
export type * from './types.js';

import type { Engine, EnginePool } from '../engine/index.js';
import { enrichTable } from './enrich.js';
import { enrichFromRequest } from './request.js';
import type { EnrichWorkerTask } from './poolWorker.js';
import type { EnrichOptions, EnrichResult } from './types.js';

/** Training-data enrichment as an engine offers it (what the API's `enrich` and `enrichRequest` call). */
export interface Enrichment {
  enrich(baseTableId: string, opts: EnrichOptions): Promise<EnrichResult>;
  /** An enrichment asked for in words ("find tables that help predict price in houses"); null when the question is not one. */
  enrichRequest(question: string, opts: Omit<EnrichOptions, 'target'>): Promise<EnrichResult | null>;
}

/** The engine with `enrich` attached (what `graft serve` hands the API with the engine in-process; with its pool, `enrichOnPool`). */
export function withEnrichment<E extends Engine>(engine: E): E & Enrichment {
  return Object.assign(engine, {
    enrich: (baseTableId: string, opts: EnrichOptions) => enrichTable(engine, baseTableId, opts),
    enrichRequest: (question: string, opts: Omit<EnrichOptions, 'target'>) => enrichFromRequest(engine, question, opts),
  });
}

/** The module `enrichOnPool` runs in the pool's workers (a `.ts` file under tsx and vitest). */
const POOL_WORKER = new URL(import.meta.url.endsWith('.ts') ? './poolWorker.ts' : './poolWorker.js', import.meta.url);

/**
 * `enrich` and `enrichRequest` run in the engine pool's workers, like synthesize: the search and
 * the word lists stay off the server's thread (in-process, the first call loaded the word lists
 * there, about 0.6 s with every other request waiting, and each call's search held it).
 */
export function enrichOnPool(pool: EnginePool): Enrichment {
  const run = (task: EnrichWorkerTask, opts: Pick<EnrichOptions, 'allowTable' | 'signal'>) => pool.runInWorker(POOL_WORKER, task, opts.allowTable, opts.signal);
  return {
    enrich: async (baseTableId, { allowTable, signal, ...opts }) => (await run({ kind: 'enrich', baseTableId, opts }, { allowTable, signal })) as EnrichResult,
    enrichRequest: async (question, { allowTable, signal, ...opts }) => (await run({ kind: 'enrichRequest', question, opts }, { allowTable, signal })) as EnrichResult | null,
  };
}
