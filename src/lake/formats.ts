/** Which lake format a file is, by its extension: one table for the walk and partitioned folders. */
import { extname } from 'node:path';
import type { LakeFormat } from './types.js';

const FORMAT_BY_EXTENSION: Record<string, LakeFormat> = {
  '.csv': 'csv',
  '.tsv': 'csv',
  '.txt': 'csv',
  '.parquet': 'parquet',
  '.sqlite': 'sqlite',
  '.sqlite3': 'sqlite',
  '.db': 'sqlite',
  '.duckdb': 'duckdb',
};

/** Lake format for a file name, or null when the extension is not one the lake reads. */
export function formatForPath(path: string): LakeFormat | null {
  return FORMAT_BY_EXTENSION[extname(path).toLowerCase()] ?? null;
}
