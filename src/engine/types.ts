import type { TableFilter } from '../catalog/visibility.js';
import type { FusionPlanSummary } from './fusionSummary.js';
import type { IntentGraph } from '../intent/index.js';
import type { AlternateOffer } from '../search/index.js';

/**
 * The engine's public contract: what `graft ask`, the GraphQL API and the benchmark call.
 * Everything here is plain JSON-serialisable data so a synthesis can be stored and re-served.
 */

/** A predicate over catalog tables: the search and every explanation only ever see tables it admits. */
export type { TableFilter } from '../catalog/visibility.js';

export type IntentSource = 'offline' | 'llm' | 'given' | 'offline-fallback';

export interface IntentResult {
  graph: IntentGraph;
  source: IntentSource;
  warnings: string[];
  elapsedMs: number;
}

export interface AskOptions {
  /** Most tables in the answer (L). Default 10. */
  budget?: number;
  /** Beam width B. Default 8. */
  beamWidth?: number;
  /**
   * Keep an alternate only when the model's confidence that the question needs it is at least
   * this, in [0,1] (0: fill the budget). Default: the search's (`DEFAULT_CANDIDATE_OPTIONS`).
   */
  minAlternateConfidence?: number;
  /** Use this intent graph instead of extracting one. */
  intent?: IntentGraph;
  extractor?: 'offline' | 'llm';
  /** Run the fused SQL and return its first N rows. */
  preview?: number;
  /** Restricts what the search may see (API grants). */
  allowTable?: TableFilter;
  /** Search strategy; 'exact' enumerates the capped candidate region. */
  strategy?: 'beam' | 'exact';
  /** Stop adding tables when the best IGMS gain per table falls below this (default 0.01). */
  minGain?: number;
  /** Value function name (heuristic by default; learned models register their own). */
  valueFunction?: string;
  signal?: AbortSignal;
}

/** `alternate`: not part of the core synthesis (nor of its SQL); a ranked extra where the evidence is ambiguous. */
export type TableRole = 'witness' | 'bridge' | 'shard' | 'alternate';

export interface SynthesisTable {
  id: string;
  name: string;
  uri: string;
  role: TableRole;
  /** Atom ids this table supports (witness), or the relation atoms it bridges. */
  atoms: string[];
  /** Marginal IGMS gain when the table was added in the final order. */
  gain: number;
  /** Alternates: the model's confidence, in (0,1), that the question needs the table. */
  confidence?: number;
}

export interface SynthesisResult {
  /** Set when stored (API); the CLI leaves it undefined. */
  id?: string;
  question: string;
  intent: IntentResult;
  tables: SynthesisTable[];
  plan: FusionPlanSummary;
  score: number;
  /** Atoms no chosen table supports. */
  unsupportedAtoms: string[];
  /** Value function that guided the search ('heuristic', or 'learned' when a model matched the lake). */
  valueFunction: string;
  /**
   * `engine`: what ran the SQL ('duckdb'); `readBy`: table name -> what read it ('duckdb' in place,
   * or 'better-sqlite3' for a SQLite table copied into DuckDB).
   */
  preview?: { columns: string[]; rows: Record<string, unknown>[]; engine?: string; readBy?: Record<string, string> };
  elapsedMs: number;
  warnings: string[];
  /**
   * How the search got there (not part of the API): the tables it could have chosen, the
   * alternates' offers, and the confidence an offer needed to be kept.
   */
  search?: { regionTableIds: string[]; stoppedBy: string; alternateOffers: AlternateOffer[]; alternateFloor: number };
}

export interface AtomSupport {
  atomId: string;
  kind: 'entity' | 'attribute' | 'value' | 'relation';
  label: string;
  /** Best support from any unit in [0,1]. */
  support: number;
  /** Tables providing it. */
  supportedBy: string[];
}

export interface ScoreExplanation {
  tableIds: string[];
  score: number;
  atoms: AtomSupport[];
  /** Per table: marginal gain in greedy order and loss if left out. */
  tables: { tableId: string; name: string; marginalGain: number; leaveOneOutLoss: number }[];
  redundancy: { tableA: string; tableB: string; rho: number }[];
  determinant: { atoms: number; logDetPrior: number; logDetPosterior: number };
  unsupportedAtoms: string[];
  warnings: string[];
}
