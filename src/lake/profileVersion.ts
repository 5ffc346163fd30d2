// Its own module (no imports): the catalog reads it without loading the profilers (DuckDB, SQLite).
/**
 * Version of what a stored profile holds. Bump it when profiling changes in a way a catalog
 * should catch up with (a field it now stores, a statistic computed differently): the next ingest
 * profiles every table an older version profiled again, even when its file is unchanged, and
 * `graft doctor` names them until then. 1: CSV tables keep the options they were read with.
 * 2: text columns keep the hashes of their values beyond the top values (`ColumnProfile.valueHashes`).
 */
export const PROFILE_VERSION = 2;
