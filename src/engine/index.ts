export { createEngine, buildFusionInput, summarisePlan, type Engine, type EngineOptions, type ValueModelStatus } from './engine.js';
export { MAX_BEAM, MAX_BUDGET } from './limits.js';
export type * from './types.js';
export type { FusionPlanSummary } from './fusionSummary.js';
export { DEFAULT_ENGINE_NICE, DEFAULT_ENGINE_TASKS_PER_WORKER, DEFAULT_ENGINE_WARMUP_MS, EnginePool, enginePoolSettingsFromEnv, type EnginePoolOptions } from './pool.js';
export { loadLanguageResources } from './languageResources.js';
export { warmupQuestions } from './warmup.js';
