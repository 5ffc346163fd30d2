/** Training-data enrichment: from a base table and its target to the tables that add rows or attributes. */
export { enrichTable, baseIntent, taskOf, KEY_UNIQUENESS, MIN_JOIN_QUALITY, DEFAULT_MIN_GAIN } from './enrich.js';
export { findLeaks, LEAK_AGREEMENT, type LeakCandidate } from './leakage.js';
export type * from './types.js';
