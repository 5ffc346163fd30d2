import { createHash } from 'node:crypto';
import { CONTAINMENT_PRIOR_PERMUTATIONS } from '../sketch/minhash.js';
import { JOIN_SCORE_WEIGHTS } from './joinRules.js';
import { GENERIC_TOKENS, GENERIC_TOKEN_WEIGHT } from './tokens.js';
import { DEFAULT_GRAPH_OPTIONS, type GraphOptions } from './types.js';
import { SHAPE_WEIGHT, UNION_COLUMN_WEIGHTS, VALUE_ONLY_WEIGHT } from './unionRules.js';

/**
 * Revision of what the join / union rules decide. Edges are derived at ingest and stored, so a
 * catalog keeps the edges of the rules it was ingested with; the ingest compares the version
 * stored with the catalog against this one and re-derives every edge when they differ.
 * Bump it with any change to the rules' logic. Thresholds, weights and the generic-token list
 * are hashed into the version, so changing one of those needs no bump.
 */
export const GRAPH_RULES_REVISION = 10;

/** `r<revision>-<hash of the constants>`: equal iff the same rules would derive the same edges. */
export function graphRulesVersion(options: Readonly<GraphOptions> = DEFAULT_GRAPH_OPTIONS): string {
  const constants = {
    options: Object.fromEntries(Object.entries(options).sort(([a], [b]) => (a < b ? -1 : 1))),
    join: JOIN_SCORE_WEIGHTS,
    containmentPrior: CONTAINMENT_PRIOR_PERMUTATIONS,
    union: { ...UNION_COLUMN_WEIGHTS, shape: SHAPE_WEIGHT, valueOnly: VALUE_ONLY_WEIGHT },
    generic: { tokens: [...GENERIC_TOKENS].sort(), weight: GENERIC_TOKEN_WEIGHT },
  };
  const hash = createHash('sha256').update(JSON.stringify(constants)).digest('hex').slice(0, 12);
  return `r${GRAPH_RULES_REVISION}-${hash}`;
}
