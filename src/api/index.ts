import 'reflect-metadata';

export { createServer, startServer, type CreateServerOptions, type GraftServer, type ListenOptions, type StartServerOptions, type ApiConfigOverrides } from './server.js';
export type { ServedEngine } from './servedEngine.js';
export { apiConfigFromEnv, isProduction, DEFAULT_LIMITS, type ApiConfig, type ApiLimits } from './config.js';
export { ForbiddenError, UnauthenticatedError, EngineTimeoutError, clientErrorCode } from './errors.js';
export { ErrorCode } from '../util/errors.js';
export { GrantScope, validateGrant, grantKey } from './auth/grants.js';
export type { Principal } from './auth/principal.js';
export { createApiToken, listApiTokens, revokeApiToken, authenticateSecret, hashSecret, TokenAuthenticator, type ApiTokenInfo, type CreatedApiToken } from './auth/tokens.js';
export { buildGraftSchema, printGraftSchema } from './schema/build.js';
export { confineLakePath } from './lakeRoots.js';
export { queryDepth, measureComplexity } from './limits.js';
export { buildGraftSubgraphSchema, subgraphTypeDefs, ENTITY_KEYS, FEDERATION_SPEC_URL } from './federation.js';
export { createGraftSchema, type GraftSchema, type GraftSchemaOptions } from './embedded.js';
export { lineageFromEnv, emitSynthesisLineage } from './lineage.js';
