import { GraphQLError } from './graphql.js';
import { ErrorCode, GraftError } from '../util/errors.js';

/**
 * The codes a client can see in `errors[].extensions.code`. The GraftError codes, plus TIMEOUT
 * for an engine call that ran past GRAFT_SYNTHESIZE_TIMEOUT_MS. LAKE_READ surfaces as
 * BAD_USER_INPUT; anything unexpected (Prisma, SQL, bugs) as INTERNAL.
 */
export enum ApiErrorCode {
  BAD_USER_INPUT = 'BAD_USER_INPUT',
  NOT_FOUND = 'NOT_FOUND',
  UNAUTHENTICATED = 'UNAUTHENTICATED',
  FORBIDDEN = 'FORBIDDEN',
  INTERNAL = 'INTERNAL',
  TIMEOUT = 'TIMEOUT',
  UPSTREAM = 'UPSTREAM',
}

export class ForbiddenError extends GraftError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super(ErrorCode.FORBIDDEN, message, details);
    this.name = 'ForbiddenError';
  }
}

export class UnauthenticatedError extends GraftError {
  constructor(message: string) {
    super(ErrorCode.UNAUTHENTICATED, message);
    this.name = 'UnauthenticatedError';
  }
}

/** An engine call ran past its time limit (extensions.code TIMEOUT). */
export class EngineTimeoutError extends Error {
  readonly code = ApiErrorCode.TIMEOUT;
  constructor(readonly operation: string, readonly timeoutMs: number) {
    super(`${operation} did not finish within ${timeoutMs} ms (GRAFT_SYNTHESIZE_TIMEOUT_MS)`);
    this.name = 'EngineTimeoutError';
  }
}

const GRAFT_TO_API: Record<string, ApiErrorCode> = {
  [ErrorCode.BAD_USER_INPUT]: ApiErrorCode.BAD_USER_INPUT,
  [ErrorCode.NOT_FOUND]: ApiErrorCode.NOT_FOUND,
  [ErrorCode.UNAUTHENTICATED]: ApiErrorCode.UNAUTHENTICATED,
  [ErrorCode.FORBIDDEN]: ApiErrorCode.FORBIDDEN,
  [ErrorCode.INTERNAL]: ApiErrorCode.INTERNAL,
  [ErrorCode.LAKE_READ]: ApiErrorCode.BAD_USER_INPUT,
  [ErrorCode.UPSTREAM]: ApiErrorCode.UPSTREAM,
};

/** Apollo's own codes for requests it rejects before execution: all the client's fault. */
const APOLLO_CLIENT_CODES = new Set([
  'GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT', 'BAD_REQUEST',
  'PERSISTED_QUERY_NOT_FOUND', 'PERSISTED_QUERY_NOT_SUPPORTED', 'OPERATION_RESOLUTION_FAILURE',
]);

export interface ClassifiedError {
  code: ApiErrorCode;
  /** Safe to show in production (written for users, carries no SQL or stack). */
  public: boolean;
  /** Apollo's code when it was remapped (GRAPHQL_VALIDATION_FAILED, ...). */
  reason?: string;
}

/**
 * Decides the client-facing code of an error. `original` is the error a resolver threw (or
 * undefined for errors Apollo raised itself); `apolloCode` what Apollo put in extensions.code.
 */
export function classifyError(original: unknown, apolloCode: unknown): ClassifiedError {
  if (original instanceof EngineTimeoutError) return { code: ApiErrorCode.TIMEOUT, public: true };
  if (original instanceof GraftError) {
    const code = GRAFT_TO_API[original.code] ?? ApiErrorCode.INTERNAL;
    return { code, public: code !== ApiErrorCode.INTERNAL };
  }
  if (original instanceof GraphQLError || original === undefined) {
    const c = typeof apolloCode === 'string' ? apolloCode : undefined;
    if (c && (Object.values(ApiErrorCode) as string[]).includes(c)) {
      return { code: c as ApiErrorCode, public: c !== ApiErrorCode.INTERNAL };
    }
    if (c && APOLLO_CLIENT_CODES.has(c)) return { code: ApiErrorCode.BAD_USER_INPUT, public: true, reason: c };
    // Errors graphql-js raises while executing (e.g. a non-null field resolved to null) have no code.
    if (original instanceof GraphQLError && !c && !original.originalError) return { code: ApiErrorCode.INTERNAL, public: false };
  }
  return { code: ApiErrorCode.INTERNAL, public: false };
}

/** A GraphQL-shaped error body for answers sent outside Apollo (401, 413, bad JSON). */
export function errorBody(message: string, code: ApiErrorCode, requestId: string): string {
  return JSON.stringify({ errors: [{ message, extensions: { code, requestId } }] });
}
