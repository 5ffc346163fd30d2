/**
 * Exit codes of the CLI (documented in src/cli/README.md and `graft --help`), so scripts can
 * tell a partial ingest from a clean one.
 */
export const ExitCode = {
  OK: 0,
  /** A bad argument, a missing table, an ingest where every file failed, an unexpected error. */
  ERROR: 1,
  /** An ingest finished but some files failed (their errors: `graft ingest-run <id>`). */
  INGEST_PARTIAL: 3,
  /** Another process holds the embedded catalog (the message names it): retry after it stops, or use its API. */
  CATALOG_IN_USE: 4,
  /** Stopped by SIGINT (128 + 2), the shell convention. */
  INTERRUPTED_SIGINT: 130,
  /** Stopped by SIGTERM (128 + 15). */
  INTERRUPTED_SIGTERM: 143,
} as const;

export const EXIT_CODES_HELP = `
Exit codes:
  0    success
  1    error (bad input, nothing found, an ingest where every file failed)
  3    ingest finished but some files failed (see graft ingest-run <id>)
  4    the embedded catalog is in use by another process (named in the message; nothing was changed)
  130  ingest stopped by SIGINT (Ctrl-C); 143 by SIGTERM: tables written before stay, the run reads interrupted
`;
