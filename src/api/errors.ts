import { GraphQLError } from './graphql.js';
import { ErrorCode, GraftError } from '../util/errors.js';

/**
 * The code a client sees in `errors[].extensions.code` for a GraftError code: the code itself,
 * except LAKE_READ, which is the client's input (a file they named) and reads BAD_USER_INPUT.
 */
export function clientErrorCode(code: ErrorCode): ErrorCode {
  return code === ErrorCode.LAKE_READ ? ErrorCode.BAD_USER_INPUT : code;
}

const KNOWN_CODES: ReadonlySet<string> = new Set(Object.values(ErrorCode));

/** Codes that may reach a client, as strings (what an error raised by Apollo may already carry). */
const CLIENT_CODES: ReadonlySet<string> = new Set(Object.values(ErrorCode).filter((c) => c !== ErrorCode.LAKE_READ));

// ForbiddenError lives in src/util/errors.ts (the lake layer raises it at read time too).
export { ForbiddenError } from '../util/errors.js';

export class UnauthenticatedError extends GraftError {
  constructor(message: string) {
    super(ErrorCode.UNAUTHENTICATED, message);
    this.name = 'UnauthenticatedError';
  }
}

/** An engine call ran past its time limit (extensions.code TIMEOUT). */
export class EngineTimeoutError extends GraftError {
  constructor(readonly operation: string, readonly timeoutMs: number) {
    super(ErrorCode.TIMEOUT, `${operation} did not finish within ${timeoutMs} ms (GRAFT_SYNTHESIZE_TIMEOUT_MS)`, { operation, timeoutMs });
    this.name = 'EngineTimeoutError';
  }
}

/** Apollo's own codes for requests it rejects before execution: all the client's fault. */
const APOLLO_CLIENT_CODES = new Set([
  'GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT', 'BAD_REQUEST',
  'PERSISTED_QUERY_NOT_FOUND', 'PERSISTED_QUERY_NOT_SUPPORTED', 'OPERATION_RESOLUTION_FAILURE',
]);

export interface ClassifiedError {
  code: ErrorCode;
  /** Safe to show in production (written for users, carries no SQL or stack). */
  public: boolean;
  /**
   * What production shows instead of the error's own message, when that message is written for
   * the operator (CATALOG_IN_USE names a process: its pid, host and command line).
   */
  productionMessage?: string;
  /** Apollo's code when it was remapped (GRAPHQL_VALIDATION_FAILED, ...). */
  reason?: string;
}

/**
 * Decides the client-facing code of an error. `original` is the error a resolver threw (or
 * undefined for errors Apollo raised itself); `apolloCode` what Apollo put in extensions.code.
 */
export function classifyError(original: unknown, apolloCode: unknown): ClassifiedError {
  if (original instanceof GraftError) {
    const code = KNOWN_CODES.has(original.code) ? clientErrorCode(original.code) : ErrorCode.INTERNAL;
    if (code === ErrorCode.CATALOG_IN_USE) return { code, public: true, productionMessage: CATALOG_IN_USE_MESSAGE };
    return { code, public: code !== ErrorCode.INTERNAL };
  }
  if (original instanceof GraphQLError || original === undefined) {
    const c = typeof apolloCode === 'string' ? apolloCode : undefined;
    if (c && CLIENT_CODES.has(c)) return { code: c as ErrorCode, public: c !== ErrorCode.INTERNAL };
    if (c && APOLLO_CLIENT_CODES.has(c)) return { code: ErrorCode.BAD_USER_INPUT, public: true, reason: c };
    // Errors graphql-js raises while executing (e.g. a non-null field resolved to null) have no code.
    if (original instanceof GraphQLError && !c && !original.originalError) return { code: ErrorCode.INTERNAL, public: false };
  }
  return { code: ErrorCode.INTERNAL, public: false };
}

/** CATALOG_IN_USE in production: the server's log has the holder's pid, host and command. */
const CATALOG_IN_USE_MESSAGE =
  'the catalog is in use by another process and cannot be opened; retry later (the server log names the process)';

/** A GraphQL-shaped error body for answers sent outside Apollo (401, 413, bad JSON). */
export function errorBody(message: string, code: ErrorCode, requestId: string): string {
  return JSON.stringify({ errors: [{ message, extensions: { code, requestId } }] });
}
