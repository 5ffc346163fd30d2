export { openCatalog, type CatalogDatabase, type OpenCatalogOptions } from './database.js';
export type { BufferPool } from './sqlDriver.js';
export { catalogLocationFromEnv, describeLocation, graftHome, type CatalogLocation } from './config.js';
export { applyMigrations, loadMigrations, MIGRATIONS_DIR, type Migration, type MigrationResult } from './migrate.js';
export { CatalogStore, GRAPH_RULES_STATE_KEY, prepareTable, toGraphTable, type PreparedTable, type TableWrite } from './store.js';
export * from './queries.js';
export { toVectorLiteral, parseVectorLiteral } from './vector.js';
export { staleEdgeRules, type StaleEdgeRules } from './edgeRules.js';
export { catalogNotices, countOutdatedProfiles } from './notices.js';
export { lakeFingerprint, latestValueModel, listValueModels, saveValueModel, type NewValueModel, type StoredValueModel, type ValueModelRecord } from './valueModels.js';
export { TableState, visibleTable, visibleTableSql, type TableFilter } from './visibility.js';
export { createIngestRun, markDeadRunsInterrupted } from './ingestRuns.js';
export {
  readColumnCorpus,
  readColumnEmbeddings,
  readJoinEdges,
  readMajorityEmbeddingModel,
  readReadyTables,
  readReadyTableUris,
  readUnionEdges,
  type ReadyTable,
  type StoredJoinEdge,
  type StoredUnionEdge,
} from './read.js';
export { CatalogReader, containsPattern, isUuid, type SqlScope } from './scopedReader.js';
export { CatalogReadCache } from './readCache.js';
