export { createEngine, buildFusionInput, summarisePlan, MAX_BEAM, MAX_BUDGET, type Engine, type EngineOptions, type ValueModelStatus } from './engine.js';
export type * from './types.js';
export type { FusionPlanSummary } from './fusionSummary.js';
export { DEFAULT_ENGINE_NICE, DEFAULT_ENGINE_WARMUP_MS, EnginePool, enginePoolSettingsFromEnv, type EnginePoolOptions } from './pool.js';
export { languageResourcesLoaded, loadLanguageResources } from './languageResources.js';
export { warmupQuestions } from './warmup.js';
