/** Error codes shared by the CLI, the ingest log and the GraphQL layer (`extensions.code`). */
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
