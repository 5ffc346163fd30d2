/**
 * Defaults of the bench commands, in a module with no imports: the CLI shows them in `--help`
 * without loading DuckDB, the embedders or the engine.
 */

/** Seed of the shard draws of `graft bench build`. */
export const DEFAULT_SEED = 7;

/** Table budgets L a bench run reports. */
export const DEFAULT_BUDGETS = [5, 10, 15];

/** The baseline retrieval methods (registered in methods.ts). */
export const BASELINE_METHODS = ['bm25', 'dense', 'greedy', 'jar'] as const;

/** Methods `graft bench enrich` compares. */
export const ENRICH_METHODS = ['graft', ...BASELINE_METHODS];
