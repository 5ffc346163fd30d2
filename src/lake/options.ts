/** Profiling knobs and their defaults. */

export interface ProfileOptions {
  /** Column statistics are computed over the first `sampleRows` rows (default 50 000). */
  sampleRows?: number;
  /** Tables wider than this are refused with a LakeReadError (default 2000). */
  maxColumns?: number;
}

export const DEFAULT_SAMPLE_ROWS = 50_000;
export const DEFAULT_MAX_COLUMNS = 2000;
/**
 * Cap on profiled cells (rows x columns) so very wide tables do not pull 50k x 2000 values
 * into memory; the sample shrinks for them, but never below MIN_SAMPLE_ROWS rows.
 */
export const MAX_PROFILED_CELLS = 5_000_000;
export const MIN_SAMPLE_ROWS = 1000;

export function resolveProfileOptions(opts: ProfileOptions = {}): Required<ProfileOptions> {
  const sampleRows = opts.sampleRows ?? DEFAULT_SAMPLE_ROWS;
  const maxColumns = opts.maxColumns ?? DEFAULT_MAX_COLUMNS;
  if (!Number.isInteger(sampleRows) || sampleRows < 1) throw new RangeError(`sampleRows must be a positive integer, got ${sampleRows}`);
  if (!Number.isInteger(maxColumns) || maxColumns < 1) throw new RangeError(`maxColumns must be a positive integer, got ${maxColumns}`);
  return { sampleRows, maxColumns };
}

/** Rows to profile for a table of `columns` columns. */
export function effectiveSampleRows(sampleRows: number, columns: number): number {
  if (columns <= 0) return sampleRows;
  const byBudget = Math.max(MIN_SAMPLE_ROWS, Math.floor(MAX_PROFILED_CELLS / columns));
  return Math.min(sampleRows, byBudget);
}
