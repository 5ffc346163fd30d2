import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HeaderMap, type ApolloServer } from '@apollo/server';
import type { GraphQLSchema } from './graphql.js';
import { pino, type Logger } from 'pino';
import type { CatalogDatabase } from '../catalog/database.js';
import type { Embedder } from '../embed/index.js';
import { createApollo } from './apollo.js';
import type { Principal } from './auth/principal.js';
import { scopeOf } from './auth/principal.js';
import { TokenAuthenticator } from './auth/tokens.js';
import { CatalogReadCache } from '../catalog/index.js';
import { ColumnSearcher } from './catalog/columnSearch.js';
import { createLoaders } from './catalog/loaders.js';
import { CatalogReader } from './catalog/reader.js';
import { type ApiConfig, type ApiLimits, apiConfigFromEnv } from './config.js';
import type { ApiServices, RequestContext } from './context.js';
import type { ServedEngine } from './servedEngine.js';
import { ErrorCode } from '../util/errors.js';
import { errorBody } from './errors.js';
import { acceptableRequestId, BodyTooLargeError, readBody } from './http/body.js';
import { IngestRunner } from './ingestRunner.js';
import { lineageFromEnv } from './lineage.js';
import { isRestCatalogUrl, parsePostgresSource, rememberPostgresCredentials } from '../lake/index.js';
import type { LineageEmitter } from '../lineage/index.js';
import { buildGraftSubgraphSchema } from './federation.js';
import { buildGraftSchema } from './schema/build.js';
import { SynthesisPruner, SynthesisStore } from './syntheses.js';

export type ApiConfigOverrides = Partial<Omit<ApiConfig, 'limits'>> & { limits?: Partial<ApiLimits> };

export interface CreateServerOptions {
  db: CatalogDatabase;
  engine: ServedEngine;
  /** The catalog's embedder: used by `ingest` and (a fitted copy of it) by `searchColumns`. */
  embedder: Embedder;
  /** Overrides over the environment's configuration (apiConfigFromEnv). */
  config?: ApiConfigOverrides;
  logger?: Logger;
  /** Close the catalog at the end of shutdown (the CLI owns it; tests usually do not). */
  closeDatabase?: boolean;
  /** Governance events; default: what GRAFT_LINEAGE_* configure (lineageFromEnv); null: none. */
  lineage?: LineageEmitter | null;
}

export interface ListenOptions {
  /** 0 picks a free port. Default 4000. */
  port?: number;
  /** Default 127.0.0.1: loopback only. */
  host?: string;
}

export interface GraftServer {
  readonly httpServer: http.Server;
  readonly apollo: ApolloServer<RequestContext>;
  readonly schema: GraphQLSchema;
  readonly config: ApiConfig;
  readonly log: Logger;
  readonly services: ApiServices;
  listen(opts?: ListenOptions): Promise<{ url: string; host: string; port: number }>;
  /**
   * Graceful stop: refuse new connections and requests (503), let in-flight requests finish
   * (bounded by config.shutdownGraceMs), stop Apollo, wait (bounded) for background ingests,
   * then close the catalog if `closeDatabase`. Idempotent.
   */
  shutdown(reason?: string): Promise<void>;
  /** Requests being handled right now. */
  readonly inFlight: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The environment's configuration (apiConfigFromEnv) with `overrides` on top. */
export function mergeConfig(overrides: ApiConfigOverrides | undefined): ApiConfig {
  const base = apiConfigFromEnv();
  return { ...base, ...overrides, limits: { ...base.limits, ...overrides?.limits } };
}

function sendJson(res: ServerResponse, status: number, body: string, extraHeaders: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...extraHeaders });
  res.end(body);
}

function headerMap(req: IncomingMessage): HeaderMap {
  const map = new HeaderMap();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    map.set(k, Array.isArray(v) ? v.join(', ') : v);
  }
  return map;
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The long-lived services of one API (the standalone server, or graft mounted in a host). */
export function createApiServices(
  opts: Pick<CreateServerOptions, 'db' | 'engine' | 'embedder' | 'lineage'>,
  config: ApiConfig,
  log: Logger,
): ApiServices {
  const lineage = opts.lineage === null ? undefined : (opts.lineage ?? lineageFromEnv(process.env, (m) => log.warn(m)));
  // Fused SQL over allow-listed database sources connects with the allow-list's credentials.
  for (const url of config.databaseSources) {
    if (isRestCatalogUrl(url)) continue; // an Iceberg REST catalog: no credentials to register
    try {
      rememberPostgresCredentials(parsePostgresSource(url));
    } catch (err) {
      log.warn({ err }, 'GRAFT_DATABASE_SOURCES has an entry that is neither a postgres:// nor an http(s):// catalog URL; it allows nothing');
    }
  }
  const searcher = new ColumnSearcher(opts.db, opts.embedder);
  const reads = config.catalogCacheMs > 0 ? new CatalogReadCache(config.catalogCacheMs) : undefined;
  const catalogChanged = () => {
    searcher.invalidate();
    reads?.clear();
    try {
      opts.engine.invalidate();
    } catch (err) {
      log.error({ err }, 'engine.invalidate failed');
    }
  };
  const syntheses = new SynthesisStore(opts.db, config.synthesisRetentionDays > 0 ? config.synthesisRetentionDays * DAY_MS : null);
  return {
    db: opts.db,
    engine: opts.engine,
    embedder: opts.embedder,
    config,
    log,
    searcher,
    reads,
    syntheses,
    synthesisPruner: new SynthesisPruner(syntheses, log),
    ingests: new IngestRunner(opts.db, opts.embedder, log, catalogChanged, lineage, config.lakeRoots),
    lineage,
    catalogChanged,
  };
}

/** One request's context: the caller's grants decide what its reader and loaders can see. */
export function requestContext(services: ApiServices, principal: Principal, requestId: string, log: Logger): RequestContext {
  const scope = scopeOf(principal);
  const reader = new CatalogReader(services.db, scope, services.reads);
  return { requestId, log, principal, scope, reader, loaders: createLoaders(reader), services };
}

export async function createServer(opts: CreateServerOptions): Promise<GraftServer> {
  const config = mergeConfig(opts.config);
  const log = opts.logger ?? pino({ level: process.env.GRAFT_LOG_LEVEL ?? 'info', base: { service: 'graft-api' } });
  const schema = config.federation ? await buildGraftSubgraphSchema() : await buildGraftSchema();
  const apollo = createApollo(schema, config, log);
  await apollo.start();

  const services = createApiServices(opts, config, log);
  const tokens = new TokenAuthenticator(opts.db, config.catalogCacheMs);
  await services.synthesisPruner.start();

  let inFlight = 0;
  let stopping: Promise<void> | null = null;

  /** Who the request is from, or a reason to refuse it (401). */
  async function authenticate(req: IncomingMessage): Promise<Principal | string> {
    const header = req.headers.authorization;
    if (header === undefined || header === '') {
      return config.allowAnonymous ? { kind: 'anonymous' } : 'this server requires an API token: send Authorization: Bearer <token>';
    }
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) return 'malformed Authorization header: expected Bearer <token>';
    const principal = await tokens.authenticate(m[1]);
    return principal ?? 'unknown or revoked API token';
  }

  async function handleGraphql(req: IncomingMessage, res: ServerResponse, requestId: string, reqLog: Logger, url: URL): Promise<void> {
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'POST') {
      sendJson(res, 405, errorBody(`method ${method} not allowed`, ErrorCode.BAD_USER_INPUT, requestId), { allow: 'GET, POST' });
      return;
    }
    let body: unknown = undefined;
    if (method === 'POST') {
      let text: string;
      try {
        text = await readBody(req, config.bodyLimitBytes);
      } catch (err) {
        if (err instanceof BodyTooLargeError) {
          sendJson(res, 413, errorBody(err.message, ErrorCode.BAD_USER_INPUT, requestId), { connection: 'close' });
          return;
        }
        throw err;
      }
      const type = req.headers['content-type'] ?? '';
      if (type.includes('application/json')) {
        try {
          body = text === '' ? undefined : JSON.parse(text);
        } catch {
          sendJson(res, 400, errorBody('request body is not valid JSON', ErrorCode.BAD_USER_INPUT, requestId));
          return;
        }
      } else {
        body = text;
      }
    }
    const who = await authenticate(req);
    if (typeof who === 'string') {
      sendJson(res, 401, errorBody(who, ErrorCode.UNAUTHENTICATED, requestId), { 'www-authenticate': 'Bearer' });
      return;
    }
    const context = requestContext(services, who, requestId, reqLog);
    const response = await apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method, headers: headerMap(req), search: url.search, body },
      context: async () => context,
    });
    for (const [k, v] of response.headers) res.setHeader(k, v);
    res.statusCode = response.status ?? 200;
    if (response.body.kind === 'complete') {
      res.end(response.body.string);
    } else {
      for await (const chunk of response.body.asyncIterator) res.write(chunk);
      res.end();
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = process.hrtime.bigint();
    const requestId = acceptableRequestId(req.headers['x-request-id']) ?? randomUUID();
    const reqLog = log.child({ reqId: requestId });
    res.setHeader('x-request-id', requestId);
    // In flight until the handler ends, not until the socket closes: a client that went away
    // leaves engine work running, and shutdown must not close the pool or catalog under it.
    inFlight++;
    let logged = false;
    const done = () => {
      if (logged) return;
      logged = true;
      reqLog.info(
        { method: req.method, url: req.url, status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 },
        'request',
      );
    };
    res.on('finish', done);
    res.on('close', done);
    if (stopping) res.setHeader('connection', 'close');
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname === '/healthz') {
        sendJson(res, 200, JSON.stringify({ status: 'ok' }));
      } else if (url.pathname === '/readyz') {
        if (stopping) {
          sendJson(res, 503, JSON.stringify({ status: 'shutting-down' }));
        } else {
          try {
            await withTimeout(opts.db.sql.query('SELECT 1'), 2_000);
            const engine = opts.engine.readiness?.();
            if (engine && engine !== 'ready') sendJson(res, 503, JSON.stringify({ status: engine, database: opts.db.kind, engine }), { 'retry-after': '1' });
            else sendJson(res, 200, JSON.stringify({ status: 'ready', database: opts.db.kind, ...(engine ? { engine } : {}) }));
          } catch (err) {
            reqLog.warn({ err }, 'readiness check failed');
            sendJson(res, 503, JSON.stringify({ status: 'unavailable' }));
          }
        }
      } else if (url.pathname === '/graphql') {
        if (stopping) {
          sendJson(res, 503, errorBody('server is shutting down', ErrorCode.INTERNAL, requestId), { connection: 'close', 'retry-after': '1' });
        } else {
          await handleGraphql(req, res, requestId, reqLog, url);
        }
      } else {
        sendJson(res, 404, errorBody(`no route ${url.pathname} (try /graphql, /healthz, /readyz)`, ErrorCode.NOT_FOUND, requestId));
      }
    } catch (err) {
      reqLog.error({ err }, 'unhandled error');
      const message = config.production ? `Internal server error (request ${requestId})` : err instanceof Error ? err.message : String(err);
      sendJson(res, 500, errorBody(message, ErrorCode.INTERNAL, requestId));
    } finally {
      inFlight--;
    }
  }

  const httpServer = http.createServer((req, res) => {
    void handle(req, res);
  });
  // Slow-loris guards: a request must arrive whole within 30 s, its headers within 10 s.
  httpServer.requestTimeout = 30_000;
  httpServer.headersTimeout = 10_000;

  async function shutdown(reason = 'shutdown'): Promise<void> {
    stopping ??= (async () => {
      log.info({ reason, inFlight, ingests: services.ingests.active }, 'shutting down');
      const closed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeIdleConnections();
      const deadline = Date.now() + config.shutdownGraceMs;
      while (inFlight > 0 && Date.now() < deadline) {
        await sleep(20);
        httpServer.closeIdleConnections();
      }
      if (inFlight > 0) log.warn({ inFlight }, 'grace period over: closing remaining connections');
      httpServer.closeAllConnections();
      await closed;
      await apollo.stop();
      const drained = await services.ingests.drain(Math.max(0, deadline - Date.now()));
      if (!drained) log.warn('background ingest still running at shutdown: its run will read `interrupted` after the next ingest of that root');
      await withTimeout(services.lineage?.flush() ?? Promise.resolve(), config.shutdownGraceMs).catch(() => log.warn('lineage events still in flight at shutdown'));
      await services.synthesisPruner.stop();
      if (opts.closeDatabase) await opts.db.close();
      log.info('stopped');
    })();
    return stopping;
  }

  return {
    httpServer,
    apollo,
    schema,
    config,
    log,
    services,
    get inFlight() {
      return inFlight;
    },
    async listen(o: ListenOptions = {}) {
      const host = o.host ?? '127.0.0.1';
      await new Promise<void>((resolve, reject) => {
        httpServer.once('error', reject);
        httpServer.listen(o.port ?? 4000, host, () => {
          httpServer.off('error', reject);
          resolve();
        });
      });
      const addr = httpServer.address() as AddressInfo;
      const shownHost = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
      const url = `http://${shownHost}:${addr.port}`;
      log.info({ url, anonymous: config.allowAnonymous, production: config.production, lakeRoots: config.lakeRoots }, 'listening');
      if (config.allowAnonymous && !['127.0.0.1', '::1', 'localhost'].includes(host)) {
        log.warn({ host }, 'anonymous access is on and the server is not bound to loopback: set GRAFT_REQUIRE_AUTH=1');
      }
      return { url, host: addr.address, port: addr.port };
    },
    shutdown,
  };
}

export interface StartServerOptions extends CreateServerOptions, ListenOptions {
  /** Shut down gracefully on SIGTERM / SIGINT (a second signal exits at once). Default true. */
  handleSignals?: boolean;
  /** Runs once a signal-triggered shutdown has finished (e.g. to close the embedder). */
  onStopped?: () => Promise<void> | void;
}

/** createServer + listen + signal handling: what `graft serve` runs. */
export async function startServer(opts: StartServerOptions): Promise<GraftServer & { url: string; port: number }> {
  const server = await createServer(opts);
  const { url, port } = await server.listen({ port: opts.port, host: opts.host });
  if (opts.handleSignals !== false) {
    let signalled = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (signalled) {
        server.log.warn({ signal }, 'second signal: exiting now');
        process.exit(1);
      }
      signalled = true;
      server
        .shutdown(signal)
        .then(async () => {
          process.off('SIGTERM', onSignal);
          process.off('SIGINT', onSignal);
          await opts.onStopped?.();
        })
        .catch((err: unknown) => {
          server.log.error({ err }, 'shutdown failed');
          process.exitCode = 1;
        });
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  }
  return Object.assign(server, { url, port });
}
