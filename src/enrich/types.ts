import type { FusionPlanSummary } from '../engine/fusionSummary.js';
import type { ScoreExplanation, TableFilter } from '../engine/types.js';
import type { IntentGraph } from '../intent/index.js';

/** What `graft enrich`, GraphQL `enrich` and `graft bench enrich` call. */
export interface EnrichOptions {
  /** The base table's prediction target (a column name, case-insensitive). */
  target: string;
  /** Most tables added to the base table (L). Default 10. */
  budget?: number;
  /**
   * Feature columns the enriched table should hold (base or added columns, by name). Default:
   * every base column and every column the added tables bring, minus leaking ones. A column
   * named here is kept even when it leaks the target: the caller asked for it.
   */
  features?: string[];
  /** Run the enriched SQL and return its first N rows. */
  preview?: number;
  /** Restricts what the search may see (API grants). */
  allowTable?: TableFilter;
  /** Stop adding tables when the best IGMS gain (in nats of log det) falls below this. Default 0.05. */
  minGain?: number;
  signal?: AbortSignal;
}

export type EnrichTask = 'regression' | 'classification';

/** `base`: the table the user holds; `union`: adds rows (instances); `join`: adds columns (attributes). */
export type EnrichRole = 'base' | 'union' | 'join';

export interface EnrichJoin {
  /** Column of the base side (base table or one of its row shards). */
  baseColumn: string;
  /** Column of the added table. */
  column: string;
  /** Share of the base side's key values the added table holds (the edge's containment). */
  coverage: number;
}

export interface EnrichTable {
  id: string;
  name: string;
  uri: string;
  role: EnrichRole;
  /** Marginal IGMS gain when it was added (0 for the base). */
  gain: number;
  /** Output columns of the enriched table this table brings (join tables). */
  newColumns: string[];
  /** Rows it adds (union tables: its row count). */
  newRows: number;
  join?: EnrichJoin;
}

export type RejectionReason = 'redundant' | 'fan-out' | 'weak-join' | 'no-target' | 'nothing-new' | 'leaks-target' | 'low-gain' | 'budget';

/** A table next to the base that the enrichment considered and left out, and why. */
export interface EnrichRejection {
  id: string;
  name: string;
  reason: RejectionReason;
  detail: string;
}

/** A column of an added table that reproduces the target for the same rows. */
export interface TargetLeak {
  table: string;
  column: string;
  /** How it was recognised: equal values, |correlation| >= 0.99, or a one-to-one relabelling. */
  evidence: 'equal' | 'correlation' | 'relabelling';
  /** True when the caller named it in `features` and it was kept. */
  kept: boolean;
}

export interface EnrichResult {
  baseTable: { id: string; name: string; uri: string };
  target: string;
  task: EnrichTask;
  /** The intent built from the base table (its entity, target, attributes and keys). */
  intent: IntentGraph;
  /** The base first, then the added tables in the order the IGMS greedy chose them. */
  tables: EnrichTable[];
  rejected: EnrichRejection[];
  leaks: TargetLeak[];
  /** The fusion plan over base + added tables (left joins from the base). */
  plan: FusionPlanSummary;
  /** The enriched table: the plan's SQL projected onto the kept columns. */
  sql: string | null;
  columns: string[];
  /** Rows of the enriched table, and how many of them have the target. */
  rowCount: number | null;
  labelledRows: number | null;
  /** IGMS decomposition of the chosen set, as `explain` gives it for a synthesis. */
  explanation: ScoreExplanation;
  score: number;
  preview?: { columns: string[]; rows: Record<string, unknown>[] };
  elapsedMs: number;
  warnings: string[];
}
