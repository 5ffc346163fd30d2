import { readFileSync } from 'node:fs';
import { BadInputError } from '../util/errors.js';
import type { BenchResults, BenchRow } from './run.js';

/**
 * A results file of `graft bench run` and the per-question rows of one method at one budget, for
 * the scripts that read a run again (bench/alternate-cuts.ts, compare-runs.ts, analyse-misses.ts).
 * A file that is not a run's results, or holds no such rows, is refused with its name.
 */
export function readRunRows(file: string, method: string, budget: number): { results: BenchResults; rows: BenchRow[] } {
  const results = readJsonFile(file) as BenchResults;
  if (results?.protocol !== 'graft-bench-results-v1' || !Array.isArray(results.rows)) {
    throw new BadInputError(`${file}: not the results of \`graft bench run\` (protocol graft-bench-results-v1 with rows)`, { path: file });
  }
  const rows = results.rows.filter((r) => r.method === method && r.budget === budget);
  if (rows.length === 0) throw new BadInputError(`${file}: no rows of method ${method} at budget ${budget}`, { path: file });
  return { results, rows };
}

/** A JSON file's content; a file that cannot be read or parsed is refused with its name. */
export function readJsonFile(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new BadInputError(`${file}: not a readable JSON file (${(e as Error).message})`, { path: file });
  }
}
