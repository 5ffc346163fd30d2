/** Where the third-party Iceberg corpus lives (../shared/lakehouse/duckdb-iceberg, see its SOURCES.md). */
import { resolve } from 'node:path';

export const CORPUS = resolve(import.meta.dirname, '../../../../shared/lakehouse/duckdb-iceberg');
