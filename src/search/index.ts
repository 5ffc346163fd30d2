export { LakeSnapshot, type SnapshotTable, type SnapshotColumn, type SnapshotJoin, type SnapshotUnion, type Neighbour } from './snapshot.js';
export { SupportScorer, labelTokens, tokenCoverage, DEFAULT_SUPPORT_OPTIONS, type AtomContext, type SupportOptions } from './support.js';
export { SynthesisModel, DEFAULT_SYNTHESIS_OPTIONS, type SynthesisModelOptions, type RelationRealisation } from './synthesisModel.js';
export { HeuristicValueFunction, reachableSupport, type ValueFunction, type SearchAction, type SearchState, type ValueContext } from './valueFunction.js';
export { anchorRegion, type Region, type RegionOptions } from './region.js';
export { beamSearch, admissibleActions, type BeamOptions, type BeamResult } from './beamSearch.js';
export { lazyRerank, type RerankOptions, type RerankResult } from './rerank.js';
export { exactSearch, type ExactOptions, type ExactResult } from './exact.js';
export { searchSynthesis, DEFAULT_SEARCH_OPTIONS, type SearchOptions, type SearchOutcome, type SearchedTable, type SearchedRole } from './search.js';
