/**
 * `createGraftSchema`: the catalog and its headline operations (intentGraph, synthesize,
 * explainScore, plus the catalog queries and the ingest mutation) mounted into a host's own
 * Apollo Server. The host merges `typeDefs` / `resolvers` into its schema and keeps its own
 * HTTP, auth and context; graft derives who is asking from the host's context through
 * `principal(hostContext)`, so grants come from the host (`{ kind: 'host', name, grants }` sees
 * only those tables; `{ kind: 'anonymous' }` sees all).
 *
 *   const graft = await createGraftSchema({ db, engine, embedder, principal: (ctx) => ctx.graftPrincipal });
 *   const server = new ApolloServer({ typeDefs: [hostTypeDefs, graft.typeDefs], resolvers: [hostResolvers, graft.resolvers] });
 *
 * `federation: true` gives the subgraph SDL (with `@key`) instead, for a host that is itself a subgraph.
 */
import { randomUUID } from 'node:crypto';
import { BadInputError } from '../util/errors.js';
import { pino, type Logger } from 'pino';
import type { CatalogDatabase } from '../catalog/database.js';
import type { Embedder } from '../embed/index.js';
import type { Principal } from './auth/principal.js';
import { validateGrant } from './auth/grants.js';
import type { ApiServices, RequestContext } from './context.js';
import type { ServedEngine } from './servedEngine.js';
import { graftResolverMap, subgraphTypeDefs } from './federation.js';
import { parse, printSchema, type DocumentNode, type GraphQLFieldResolver } from './graphql.js';
import { buildGraftSchema } from './schema/build.js';
import { createApiServices, mergeConfig, requestContext, type ApiConfigOverrides } from './server.js';

export interface GraftSchemaOptions<HostContext extends object> {
  db: CatalogDatabase;
  engine: ServedEngine;
  embedder: Embedder;
  /**
   * Who is asking, from the host's context: `{ kind: 'host', name, grants: ['sales.*'] }` (grants
   * as for tokens), or `{ kind: 'anonymous' }` to show every table.
   */
  principal(hostContext: HostContext): Principal | Promise<Principal>;
  config?: ApiConfigOverrides;
  logger?: Logger;
  /** Subgraph SDL (`@link`, `@key` on Table and Column) for a host that is a federation subgraph. */
  federation?: boolean;
}

export interface GraftSchema<HostContext extends object> {
  /** Graft's SDL, to merge with the host's typeDefs. */
  typeDefs: DocumentNode;
  /** Graft's resolvers; each one finds graft's request context from the host's context. */
  resolvers: Record<string, Record<string, unknown>>;
  /** Graft's request context for a host context (made once per host context object). */
  contextFor(hostContext: HostContext): Promise<RequestContext>;
  services: ApiServices;
  /** Waits (bounded) for ingests started through the mutation, and stops deleting expired syntheses. */
  stop(graceMs?: number): Promise<void>;
}

function checkPrincipal(p: Principal): Principal {
  if (p?.kind === 'anonymous') return p;
  if ((p?.kind === 'host' || p?.kind === 'token') && Array.isArray(p.grants)) {
    for (const g of p.grants) validateGrant(g);
    return p;
  }
  throw new BadInputError("createGraftSchema: principal() must return { kind: 'anonymous' } or { kind: 'host', name, grants }");
}

export async function createGraftSchema<HostContext extends object>(opts: GraftSchemaOptions<HostContext>): Promise<GraftSchema<HostContext>> {
  const config = mergeConfig(opts.config);
  const log = opts.logger ?? pino({ level: process.env.GRAFT_LOG_LEVEL ?? 'info', base: { service: 'graft-embedded' } });
  const services = createApiServices(opts, config, log);
  await services.synthesisPruner.start();

  const contexts = new WeakMap<HostContext, Promise<RequestContext>>();
  const contextFor = (host: HostContext): Promise<RequestContext> => {
    if (host === null || typeof host !== 'object') return Promise.reject(new Error('createGraftSchema: the host context must be an object'));
    let ctx = contexts.get(host);
    if (!ctx) {
      ctx = (async () => {
        const principal = checkPrincipal(await opts.principal(host));
        const requestId = randomUUID();
        return requestContext(services, principal, requestId, log.child({ reqId: requestId }));
      })();
      contexts.set(host, ctx);
    }
    return ctx;
  };

  const schema = await buildGraftSchema();
  const typeDefs = opts.federation ? subgraphTypeDefs(schema) : parse(printSchema(schema));
  const own = graftResolverMap(schema) as unknown as Record<string, Record<string, unknown>>;
  const resolvers: Record<string, Record<string, unknown>> = {};
  for (const [typeName, fields] of Object.entries(own)) {
    if (typeof fields !== 'object' || fields === null || !('constructor' in fields) || fields.constructor !== Object) {
      resolvers[typeName] = fields; // scalars (GraphQLScalarType instances) pass as they are
      continue;
    }
    const wrapped: Record<string, unknown> = {};
    for (const [field, fn] of Object.entries(fields)) {
      if (typeof fn !== 'function' || field === '__isTypeOf' || field === '__resolveType') {
        wrapped[field] = fn;
      } else if (field === '__resolveReference') {
        const ref = fn as (r: unknown, c: RequestContext, i: unknown) => unknown;
        wrapped[field] = async (r: unknown, host: HostContext, info: unknown) => ref(r, await contextFor(host), info);
      } else {
        const resolve = fn as GraphQLFieldResolver<unknown, RequestContext>;
        wrapped[field] = async (source: unknown, args: Record<string, unknown>, host: HostContext, info: Parameters<typeof resolve>[3]) =>
          resolve(source, args, await contextFor(host), info);
      }
    }
    resolvers[typeName] = wrapped;
  }
  // Built-in scalars belong to the host's graphql; passing them back would only re-assign them.
  for (const name of ['String', 'Int', 'Float', 'Boolean', 'ID']) delete resolvers[name];

  return {
    typeDefs,
    resolvers,
    contextFor,
    services,
    async stop(graceMs = config.shutdownGraceMs) {
      await services.ingests.drain(graceMs);
      await services.synthesisPruner.stop();
    },
  };
}
