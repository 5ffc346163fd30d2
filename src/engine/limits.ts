/**
 * The engine's bounds on a call's options. A module of its own so that the CLI can check its
 * flags against them without loading the engine (DuckDB, WordNet, ...) to parse a command line.
 */

/** Most tables an answer may hold (`AskOptions.budget`). */
export const MAX_BUDGET = 100;
/** Widest beam (`AskOptions.beamWidth`). */
export const MAX_BEAM = 64;
