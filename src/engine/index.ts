export { createEngine, buildFusionInput, MAX_BEAM, MAX_BUDGET, type EngineApi } from './engine.js';
export type * from './types.js';
export type { FusionPlanSummary } from './fusionSummary.js';
