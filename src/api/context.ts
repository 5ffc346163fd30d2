import type { Logger } from 'pino';
import type { CatalogDatabase } from '../catalog/database.js';
import type { CatalogReadCache } from '../catalog/readCache.js';
import type { Embedder } from '../embed/index.js';
import type { GrantScope } from './auth/grants.js';
import type { Principal } from './auth/principal.js';
import type { ColumnSearcher } from './catalog/columnSearch.js';
import type { CatalogLoaders } from './catalog/loaders.js';
import type { CatalogReader } from './catalog/reader.js';
import type { ApiConfig } from './config.js';
import type { ServedEngine } from './servedEngine.js';
import type { IngestRunner } from './ingestRunner.js';
import type { LineageEmitter } from '../lineage/index.js';
import type { SynthesisPruner, SynthesisStore } from './syntheses.js';

/** Long-lived pieces shared by every request. */
export interface ApiServices {
  db: CatalogDatabase;
  engine: ServedEngine;
  embedder: Embedder;
  config: ApiConfig;
  log: Logger;
  searcher: ColumnSearcher;
  /** What the requests' readers read lately, shared by them (undefined: GRAFT_CATALOG_CACHE_MS=0). */
  reads?: CatalogReadCache;
  ingests: IngestRunner;
  syntheses: SynthesisStore;
  /** Deletes expired syntheses while the API runs (started and stopped by the server or host schema). */
  synthesisPruner: SynthesisPruner;
  /** Governance events (GRAFT_LINEAGE_*); undefined when none are configured. */
  lineage?: LineageEmitter;
  /** The catalog changed through this server: tell the engine and the column search. */
  catalogChanged(): void;
}

/** What every resolver gets (`@Ctx()`): one per HTTP request. */
export interface RequestContext {
  requestId: string;
  log: Logger;
  principal: Principal;
  scope: GrantScope;
  reader: CatalogReader;
  loaders: CatalogLoaders;
  services: ApiServices;
}
