/** Errors the fusion layer throws. */
import { ErrorCode, GraftError } from '../util/errors.js';

/**
 * A fusion plan cannot run: it is not executable (BAD_USER_INPUT), or DuckDB failed reading
 * the lake files it names (LAKE_READ; the DuckDB message and the SQL are in `details`), or a
 * file resolves outside its source's root (FORBIDDEN; src/lake/confine.ts).
 */
export class FusionExecutionError extends GraftError {
  constructor(code: ErrorCode.BAD_USER_INPUT | ErrorCode.LAKE_READ | ErrorCode.FORBIDDEN, message: string, details: Record<string, unknown> = {}) {
    super(code, message, details);
    this.name = 'FusionExecutionError';
  }
}
