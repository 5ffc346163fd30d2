import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { GraphQLError, type GraphQLFormattedError, type GraphQLSchema } from './graphql.js';
import type { Logger } from 'pino';
import type { ApiConfig } from './config.js';
import type { RequestContext } from './context.js';
import { ErrorCode, GraftError } from '../util/errors.js';
import { classifyError } from './errors.js';
import { limitsPlugin } from './limits.js';

/** Extensions of our own errors that are safe to show the client. */
const SAFE_EXTENSIONS = ['limit', 'max', 'actual'] as const;

/**
 * Error shaping: every error gets one of the ErrorCode codes (src/util/errors.ts, mapped by
 * classifyError). In production an INTERNAL
 * error says only "Internal server error (request <id>)": no message from Prisma, SQL or a
 * bug, no stack trace; the full error is logged with the request id instead.
 */
function formatError(production: boolean) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    const c = classifyError(original, formatted.extensions?.code);
    const extensions: Record<string, unknown> = { code: c.code };
    if (c.reason) extensions.reason = c.reason;
    for (const k of SAFE_EXTENSIONS) if (formatted.extensions?.[k] !== undefined) extensions[k] = formatted.extensions[k];
    if (original instanceof GraftError && c.public && typeof original.details.field === 'string') extensions.field = original.details.field;
    if (!production && formatted.extensions?.stacktrace) extensions.stacktrace = formatted.extensions.stacktrace;
    const message = !production ? formatted.message : c.public ? (c.productionMessage ?? formatted.message) : 'Internal server error';
    return { message, ...(formatted.locations ? { locations: formatted.locations } : {}), ...(formatted.path ? { path: formatted.path } : {}), extensions };
  };
}

/**
 * Refuses an operation whose type the schema lacks (there is no Subscription type) before it
 * runs: graphql-js would raise "Schema is not configured to execute subscription operation"
 * during execution, an error without a code that reads as INTERNAL and is logged as a failure.
 */
function operationTypePlugin(schema: GraphQLSchema): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation }) {
          // Apollo resolves the operation before this hook; a missing one it has already refused.
          if (!operation || schema.getRootType(operation.operation)) return;
          throw new GraphQLError(`this API has no ${operation.operation} operations (only query and mutation)`, {
            extensions: { code: ErrorCode.BAD_USER_INPUT, http: { status: 400 } },
          });
        },
      };
    },
  };
}

function observabilityPlugin(production: boolean): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        async didEncounterErrors({ contextValue, errors, operationName }) {
          for (const e of errors) {
            const original = e.originalError ?? e;
            const c = classifyError(unwrapResolverError(e), e.extensions?.code);
            const entry = { reqId: contextValue.requestId, operationName, code: c.code, path: e.path, err: original };
            // CATALOG_IN_USE is the operator's to fix (another process holds the catalog): logged like a failure.
            if (c.code === ErrorCode.INTERNAL || c.code === ErrorCode.CATALOG_IN_USE) contextValue.log.error(entry, 'request failed');
            else contextValue.log.info({ ...entry, err: undefined, message: e.message }, 'request rejected');
          }
        },
        async willSendResponse({ contextValue, response }) {
          if (response.body.kind !== 'single' || !response.body.singleResult.errors) return;
          response.body.singleResult.errors = response.body.singleResult.errors.map((e) => {
            const internal = e.extensions?.code === ErrorCode.INTERNAL;
            return {
              ...e,
              message: production && internal ? `Internal server error (request ${contextValue.requestId})` : e.message,
              extensions: { ...e.extensions, requestId: contextValue.requestId },
            };
          });
        },
      };
    },
  };
}

export function createApollo(schema: GraphQLSchema, config: ApiConfig, log: Logger): ApolloServer<RequestContext> {
  const apolloLog = log.child({ component: 'apollo' });
  return new ApolloServer<RequestContext>({
    schema,
    introspection: config.introspection,
    includeStacktraceInErrorResponses: !config.production,
    formatError: formatError(config.production),
    plugins: [
      ApolloServerPluginLandingPageDisabled(),
      // Apollo's cache-control plugin wraps every field resolver to collect cache hints; the
      // schema gives none and every response is `cache-control: no-store` (a catalog changes
      // under ingest, and answers depend on the caller's grants), so it was pure overhead.
      ApolloServerPluginCacheControlDisabled(),
      operationTypePlugin(schema),
      limitsPlugin(schema, config.limits),
      observabilityPlugin(config.production),
    ],
    // The HTTP layer drains requests and stops Apollo itself: Apollo re-raising SIGTERM would cut that short.
    stopOnTerminationSignals: false,
    allowBatchedHttpRequests: false,
    nodeEnv: config.production ? 'production' : 'development',
    logger: {
      debug: (m) => apolloLog.debug(m),
      info: (m) => apolloLog.info(m),
      warn: (m) => apolloLog.warn(m),
      error: (m) => apolloLog.error(m),
    },
  });
}
