import path from 'node:path';
import { graftHome } from '../catalog/config.js';
import { envInt } from '../util/env.js';
import { BadInputError } from '../util/errors.js';

/** Limits every request is held to (see limits.ts and the resolvers). */
export interface ApiLimits {
  /** Deepest field nesting a query may have (introspection fields excluded). */
  maxDepth: number;
  /** Highest estimated cost (graphql-query-complexity; connections cost `first` x child). */
  maxComplexity: number;
  maxBudget: number;
  maxBeamWidth: number;
  maxPreview: number;
  /** Largest page any `first` argument may ask for. */
  maxFirst: number;
  /** Page size when `first` is not given. */
  defaultFirst: number;
  maxQuestionLength: number;
  /** Most engine fields (synthesize, explainScore, intentGraph, enrich, enrichRequest) one operation may hold, aliases counted. */
  maxEngineFields: number;
}

export interface ApiConfig {
  /** NODE_ENV=production or GRAFT_ENV=production: no stack traces, internal errors masked. */
  production: boolean;
  /** Requests without a token see every table (GRAFT_ALLOW_ANONYMOUS / GRAFT_REQUIRE_AUTH). */
  allowAnonymous: boolean;
  introspection: boolean;
  /** Absolute folders `ingest(path)` may read from (GRAFT_LAKE_ROOTS, colon-separated). */
  lakeRoots: string[];
  /**
   * Database sources `ingest(path: "postgres://…")` may read (GRAFT_DATABASE_SOURCES: whitespace-
   * separated postgres:// URLs, with credentials; a `?schema=` limits the entry to one schema).
   */
  databaseSources: string[];
  bodyLimitBytes: number;
  /** Limit on one engine call (synthesize, and also intentGraph / explainScore). */
  engineTimeoutMs: number;
  /** How long shutdown waits for in-flight requests (and running ingests) before closing. */
  shutdownGraceMs: number;
  /**
   * How long a token lookup and the catalog reads of the API (a table or column by id, an
   * identical page, count or neighbour list) may be answered from memory (GRAFT_CATALOG_CACHE_MS,
   * default 1000; 0: read the catalog every time). Bounds how late this server sees a change made
   * by another process (a revocation, an ingest, a deletion); its own changes clear it at once.
   */
  catalogCacheMs: number;
  /**
   * How long a synthesis the API answered stays fetchable by `synthesis(id)` and `explainScore`
   * (GRAFT_SYNTHESIS_RETENTION_DAYS, default 30; 0: for ever). Expired rows are deleted at start-
   * up and every hour (src/api/syntheses.ts).
   */
  synthesisRetentionDays: number;
  limits: ApiLimits;
  /** Serve the Apollo Federation 2 subgraph schema (`@key` on Table, Column): GRAFT_FEDERATION=1. */
  federation: boolean;
}

export const DEFAULT_LIMITS: ApiLimits = {
  maxDepth: 10,
  maxComplexity: 20_000,
  maxBudget: 30,
  maxBeamWidth: 32,
  maxPreview: 100,
  maxFirst: 500,
  defaultFirst: 50,
  maxQuestionLength: 2_000,
  maxEngineFields: 4,
};

type Env = Record<string, string | undefined>;

function get(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v ? v : undefined;
}

function bool(env: Env, name: string): boolean | undefined {
  const v = get(env, name)?.toLowerCase();
  if (v === undefined) return undefined;
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new BadInputError(`${name} must be 1/true/yes/on or 0/false/no/off, not '${v}'`, { variable: name });
}

const positiveInt = (env: Env, name: string, fallback: number) => envInt(env, name, 1) ?? fallback;

export function isProduction(env: Env = process.env): boolean {
  return get(env, 'NODE_ENV') === 'production' || get(env, 'GRAFT_ENV') === 'production';
}

/**
 * Reads the server configuration:
 *
 * - GRAFT_ALLOW_ANONYMOUS=1 allows requests without a token (they see every table);
 *   GRAFT_REQUIRE_AUTH=1 forbids them and wins over GRAFT_ALLOW_ANONYMOUS. With neither set,
 *   anonymous access is on (the local demo).
 * - GRAFT_LAKE_ROOTS: colon-separated folders `ingest` may read; default `./lakes` and
 *   `$GRAFT_HOME/demo-lake` (`.graft/demo-lake`).
 * - GRAFT_DATABASE_SOURCES: postgres:// URLs the `ingest` mutation may read (none by default).
 * - GRAFT_INTROSPECTION: default on, off in production.
 * - GRAFT_FEDERATION=1 serves the Federation 2 subgraph schema (src/api/federation.ts).
 * - GRAFT_SYNTHESIZE_TIMEOUT_MS (10000), GRAFT_BODY_LIMIT_BYTES (1 MiB), GRAFT_SHUTDOWN_GRACE_MS
 *   (10000), GRAFT_MAX_DEPTH (10), GRAFT_MAX_COMPLEXITY (20000), GRAFT_MAX_ENGINE_FIELDS (4:
 *   engine fields per operation).
 * - GRAFT_CATALOG_CACHE_MS (1000): how long token lookups and catalog reads are held in memory.
 * - GRAFT_SYNTHESIS_RETENTION_DAYS (30): how long answered syntheses stay fetchable; 0 keeps them.
 */
export function apiConfigFromEnv(env: Env = process.env, cwd = process.cwd()): ApiConfig {
  const production = isProduction(env);
  const requireAuth = bool(env, 'GRAFT_REQUIRE_AUTH') ?? false;
  const allowAnonymous = requireAuth ? false : (bool(env, 'GRAFT_ALLOW_ANONYMOUS') ?? true);
  const rootsVar = get(env, 'GRAFT_LAKE_ROOTS');
  const lakeRoots = rootsVar
    ? rootsVar.split(':').map((r) => r.trim()).filter(Boolean).map((r) => path.resolve(cwd, r))
    : [path.resolve(cwd, 'lakes'), path.join(graftHome(env as NodeJS.ProcessEnv), 'demo-lake')];
  return {
    production,
    allowAnonymous,
    introspection: bool(env, 'GRAFT_INTROSPECTION') ?? !production,
    lakeRoots,
    databaseSources: (get(env, 'GRAFT_DATABASE_SOURCES') ?? '').split(/\s+/).filter(Boolean),
    bodyLimitBytes: positiveInt(env, 'GRAFT_BODY_LIMIT_BYTES', 1024 * 1024),
    engineTimeoutMs: positiveInt(env, 'GRAFT_SYNTHESIZE_TIMEOUT_MS', 10_000),
    shutdownGraceMs: positiveInt(env, 'GRAFT_SHUTDOWN_GRACE_MS', 10_000),
    catalogCacheMs: envInt(env, 'GRAFT_CATALOG_CACHE_MS', 0) ?? 1_000,
    synthesisRetentionDays: envInt(env, 'GRAFT_SYNTHESIS_RETENTION_DAYS', 0, 36_500) ?? 30,
    federation: bool(env, 'GRAFT_FEDERATION') ?? false,
    limits: {
      ...DEFAULT_LIMITS,
      maxDepth: positiveInt(env, 'GRAFT_MAX_DEPTH', DEFAULT_LIMITS.maxDepth),
      maxComplexity: positiveInt(env, 'GRAFT_MAX_COMPLEXITY', DEFAULT_LIMITS.maxComplexity),
      maxEngineFields: positiveInt(env, 'GRAFT_MAX_ENGINE_FIELDS', DEFAULT_LIMITS.maxEngineFields),
    },
  };
}
