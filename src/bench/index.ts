/** Public API of the retrieval benchmark (`graft bench`). */
export {
  buildBenchLake,
  computeGold,
  goldFromQuestions,
  findDatabases,
  lakeTableName,
  drawShardCuts,
  readBenchGold,
  readBenchManifest,
  DEFAULT_SEED,
  SPLIT_MIN_ROWS,
  SPLIT_PROBABILITY,
  type BuildBenchLakeOptions,
  type BuildBenchLakeResult,
  type BenchGold,
  type BenchLakeManifest,
  type GoldQuestion,
  type LakeTableManifest,
} from './buildLake.js';
export { sqlTables, sqlTableReferences, type SqlTablesResult } from './sqlTables.js';
export { mulberry32 } from '../util/prng.js';
export {
  questionMetrics,
  macroAverage,
  percentile,
  latencySummary,
  type QuestionMetrics,
  type MacroMetrics,
  type LatencySummary,
} from './metrics.js';
export { CatalogView, meanVector, uriStem, type ViewTable, type ViewColumn, type ViewJoin, type ViewUnion, type TableLink } from './catalogView.js';
export {
  registerRetrievalMethod,
  createRetrievalMethod,
  retrievalMethodNames,
  BASELINE_METHODS,
  Bm25Method,
  DenseMethod,
  GreedyMethod,
  JarMethod,
  selectionLp,
  solveSelection,
  type RetrievalMethod,
  type RetrievalMethodFactory,
  type RetrievalTrace,
  type TracedOffer,
  type BenchContext,
  type BenchIntent,
  type BenchQuestion,
  type GreedyOptions,
  type JarOptions,
  type SelectionModel,
} from './methods.js';
export { Bm25Index, type Bm25Options } from './bm25.js';
export { questionTokens, visibleTableName, STOP_WORDS } from './text.js';
export {
  runBench,
  summarise,
  parseIntent,
  intentKind,
  DEFAULT_BUDGETS,
  type RunBenchOptions,
  type BenchResults,
  type BenchRow,
  type BenchSummary,
  type BenchIndexInfo,
} from './run.js';
export { benchMarkdown, writeBenchmarksMarkdown, benchSectionName } from './report.js';
export { missedGold, MISSED_REACHES, type MissedGold, type MissedReach } from './missedGold.js';
export { replaceMarkedSection, markdownTable } from './markdown.js';
export { solveSelectionExact, selectionValue, SELECTION_MAX_NODES, type SelectionResult } from './selection.js';
export { machineInfo, gitCommit, type MachineInfo } from './machine.js';
