/**
 * The one error-code enum, shared by the CLI (`graft: <code>: <message>`), the ingest log and the
 * GraphQL layer (`extensions.code`, mapped by `clientErrorCode` in src/api/errors.ts: every code
 * reaches the client as is, except LAKE_READ, which reads BAD_USER_INPUT there).
 */
export enum ErrorCode {
  BAD_USER_INPUT = 'BAD_USER_INPUT',
  NOT_FOUND = 'NOT_FOUND',
  UNAUTHENTICATED = 'UNAUTHENTICATED',
  FORBIDDEN = 'FORBIDDEN',
  INTERNAL = 'INTERNAL',
  /** A lake file could not be read or profiled (corrupt, empty, unsupported). */
  LAKE_READ = 'LAKE_READ',
  /** An external model endpoint (LLM, embeddings) failed or answered nonsense. */
  UPSTREAM = 'UPSTREAM',
  /** The embedded catalog is open in another process (the error names it). */
  CATALOG_IN_USE = 'CATALOG_IN_USE',
  /** An engine call ran past its time limit (GRAFT_SYNTHESIZE_TIMEOUT_MS). */
  TIMEOUT = 'TIMEOUT',
}

export class GraftError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'GraftError';
  }
}

/** A lake file that cannot be ingested; `path` names the file (and table for SQLite). */
export class LakeReadError extends GraftError {
  constructor(
    readonly path: string,
    message: string,
    details: Record<string, unknown> = {},
  ) {
    super(ErrorCode.LAKE_READ, `${path}: ${message}`, { path, ...details });
    this.name = 'LakeReadError';
  }
}

export class BadInputError extends GraftError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super(ErrorCode.BAD_USER_INPUT, message, details);
    this.name = 'BadInputError';
  }
}

export class NotFoundError extends GraftError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super(ErrorCode.NOT_FOUND, message, details);
    this.name = 'NotFoundError';
  }
}

/** A path the caller may not read (outside the configured lake roots, or reached through a symlink out of them). */
export class ForbiddenError extends GraftError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super(ErrorCode.FORBIDDEN, message, details);
    this.name = 'ForbiddenError';
  }
}
