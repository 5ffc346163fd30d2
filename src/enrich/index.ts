/** Training-data enrichment: from a base table and its target to the tables that add rows or attributes. */
export { enrichTable, baseIntent, taskOf, KEY_UNIQUENESS, MIN_JOIN_QUALITY, DEFAULT_MIN_GAIN } from './enrich.js';
export { parseEnrichRequest, resolveEnrichRequest, enrichFromRequest, type EnrichRequestWords } from './request.js';
export { findLeaks, LEAK_AGREEMENT, type LeakCandidate } from './leakage.js';
export type * from './types.js';

import type { Engine } from '../engine/index.js';
import { enrichTable } from './enrich.js';
import { enrichFromRequest } from './request.js';
import type { EnrichOptions, EnrichResult } from './types.js';

/** The engine with `enrich` attached (what `graft serve` hands the API). */
export function withEnrichment<E extends Engine>(
  engine: E,
): E & { enrich(baseTableId: string, opts: EnrichOptions): Promise<EnrichResult>; enrichRequest(question: string, opts: Omit<EnrichOptions, 'target'>): Promise<EnrichResult | null> } {
  return Object.assign(engine, {
    enrich: (baseTableId: string, opts: EnrichOptions) => enrichTable(engine, baseTableId, opts),
    enrichRequest: (question: string, opts: Omit<EnrichOptions, 'target'>) => enrichFromRequest(engine, question, opts),
  });
}
