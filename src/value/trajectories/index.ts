/** Self-generated trajectory data for the value network (GRAFT Algorithms 1–2, stages 1–3). */
export { lakeGraph, partitionCommunities, sampleSeeds, tableDegree } from './communities.js';
export type { SeedOptions } from './communities.js';
export {
  expandFromSeed,
  keepColumns,
  SAMPLER_KINDS,
  DEFAULT_BETA,
  DEFAULT_EPSILON,
  DEFAULT_VALUE_PROBABILITY,
} from './sampler.js';
export type { SamplerKind, ExpandOptions, ExpansionStep, KeptColumn, SampledSubgraph } from './sampler.js';
export { compressToIntent, entityLabel } from './compress.js';
export type { PseudoIntent, PseudoIntentCluster, PseudoIntentAttribute, PseudoIntentEdge } from './compress.js';
