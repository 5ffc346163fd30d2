/** Public API of the lake layer: list a lake, profile its tables, preview rows. */
export { listLakeEntries, type LakeListing, type LakeProblem } from './walk.js';
export { formatForPath } from './formats.js';
export { profileEntry } from './profile.js';
export { PROFILE_VERSION } from './profileVersion.js';
export { entryName, entryUri, fingerprintEntry } from './identity.js';
export { readRows } from './read-rows.js';
export { isRestCatalogUrl } from './iceberg/rest.js';
export { duckdbSourceExpression, readsAsFolder } from './source.js';
export { closeDuckDB, getDuckDB, withDuckDB } from './duckdb.js';
export {
  DEFAULT_MAX_COLUMNS,
  DEFAULT_SAMPLE_ROWS,
  type ProfileOptions,
} from './options.js';
export { DISTINCT_CAP, SAMPLE_VALUES, TOP_TEXT_VALUES, MAX_VALUE_CHARS } from './column-stats.js';
export { sqlIdent, sqlString } from './sql.js';
export { LAKE_FORMATS } from './types.js';
export { isPostgresUrl, parsePostgresSource, rememberPostgresCredentials } from './postgres.js';
export { attachDuckdbFile, duckdbAttachStatement, duckdbEntryOfUri, listDuckdbTables } from './duckdb-file.js';
export type {
  ColumnProfile,
  CsvReadOptions,
  LakeEntry,
  LakeFormat,
  LogicalType,
  TableProfile,
} from './types.js';
export { confineEntry, confineLakeRead, findEscapingSymlink, realRoots, within } from './confine.js';
