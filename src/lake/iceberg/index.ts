/** Iceberg tables: metadata, manifests, live data files and the DuckDB scan SQL. */
export {
  findMetadataFile,
  icebergFingerprint,
  icebergTableDir,
  icebergScanSql,
  isIcebergTableDir,
  loadIcebergTable,
  type IcebergDataFile,
  type IcebergDeleteFile,
  type IcebergField,
  type IcebergScanPlan,
} from './table.js';
export { parseJsonLossless, toBigInt } from './json.js';
export { readAvroRecords } from './avro.js';
export { icebergCatalogTables, isIcebergSqlCatalog, type CatalogTable } from './catalog.js';
export { isRestCatalogUrl, restCatalogTables } from './rest.js';
