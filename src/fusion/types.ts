/**
 * Inputs and outputs of the fusion planner. Plain data (JSON-serialisable) so that the search
 * module and the GraphQL layer can build a `FusionInput` from catalog rows and store a plan.
 */
import type { CsvReadOptions } from '../lake/types.js';

export type FusionFormat = 'csv' | 'parquet' | 'sqlite' | 'iceberg';

export interface FusionColumn {
  id: string;
  name: string;
  /** A `LogicalType` from src/lake/types.ts ('integer', 'float', 'text', ...); unknown values count as text. */
  logicalType: string;
}

export interface FusionTable {
  id: string;
  name: string;
  /** Absolute file path; for SQLite `file.sqlite#table` (as `LakeTable.uri`). */
  uri: string;
  format: FusionFormat;
  columns: FusionColumn[];
  /** CSV read options profiling settled on (`TableProfile.csv`); absent = sniff again. */
  csv?: CsvReadOptions;
}

/** A stored join edge (catalog `JoinEdge`): from a foreign-key-like column into a key-like column. */
export interface FusionJoinEdge {
  fromColumnId: string;
  toColumnId: string;
  fromTableId: string;
  toTableId: string;
  score: number;
  /** |from ∩ to| / |from| */
  containmentFromTo: number;
  /** |from ∩ to| / |to| */
  containmentToFrom: number;
}

/** A stored union edge (catalog `UnionEdge`); `alignment` pairs a column of A with one of B. */
export interface FusionUnionEdge {
  tableAId: string;
  tableBId: string;
  score: number;
  alignment: { columnAId: string; columnBId: string; score: number }[];
}

export type FilterOperator = '=' | '!=' | '<' | '<=' | '>' | '>=' | 'like' | 'in' | 'between';

export type FilterLiteral = string | number | (string | number)[];

export interface ValueFilter {
  columnId: string;
  operator: FilterOperator;
  literal: FilterLiteral;
}

export interface FusionInput {
  tables: FusionTable[];
  /** Join edges among these tables; edges touching other tables are ignored (with a warning). */
  joins: FusionJoinEdge[];
  unions: FusionUnionEdge[];
  filters?: ValueFilter[];
  /** Union edges with score >= this stack their tables into one group. Default 0.6. */
  unionThreshold?: number;
}

export const DEFAULT_UNION_THRESHOLD = 0.6;

/** One member column feeding a group output column. */
export interface GroupColumnSource {
  tableId: string;
  columnId: string;
  /** The column's name in its own table. */
  columnName: string;
}

/** An output column of a union group; members lacking it contribute NULL. */
export interface GroupColumn {
  /** Name inside the group (the first member's header, or the first header that introduced it). */
  name: string;
  /** Merged logical type of the member columns ('text' when they disagree beyond numbers). */
  logicalType: string;
  columns: GroupColumnSource[];
}

export interface UnionGroup {
  /** `g1`, `g2`, ...: also the CTE name in the SQL. */
  id: string;
  /** Readable name: the table name, or the shared prefix of the members' names; unique per plan. */
  name: string;
  /** Members in input order. */
  tableIds: string[];
  columnMapping: GroupColumn[];
}

export interface JoinKeyRef {
  tableId: string;
  columnId: string;
  /** The column's name in its table. */
  name: string;
  /** The group output column it maps to (what the SQL compares). */
  groupColumn: string;
}

export interface JoinStep {
  /** A group already in the joined part. */
  leftGroupId: string;
  leftColumn: JoinKeyRef;
  /** The group this step attaches. */
  rightGroupId: string;
  rightColumn: JoinKeyRef;
  score: number;
  /** Containment of the edge's foreign-key side in its key side (`containmentFromTo`). */
  containment: number;
  /** True when the key types differ and both sides are compared as text. */
  castToText: boolean;
}

export interface BoundFilter {
  filter: ValueFilter;
  groupId: string;
  tableId: string;
  /** Group output column the filter tests. */
  column: string;
  /** The SQL predicate (already quoted). */
  sql: string;
}

export interface UnboundFilter {
  filter: ValueFilter;
  reason: string;
}

export interface OutputColumn {
  /** Unique (case-insensitively) name in the result. */
  name: string;
  groupId: string;
  /** Group column it selects. */
  column: string;
}

export interface FusionPlan {
  unionGroups: UnionGroup[];
  /** Join steps in execution order: each attaches `rightGroupId` to the part joined so far. */
  joinSteps: JoinStep[];
  /** Group ids the SQL covers (root first, then in join order). */
  joinedGroupIds: string[];
  /**
   * Table ids of every connected component (of groups) that the SQL leaves out because no join
   * edge connects it to the joined part; one inner array per component. Empty when connected.
   */
  disconnected: string[][];
  filters: { bound: BoundFilter[]; unbound: UnboundFilter[] };
  outputColumns: OutputColumn[];
  /** One DuckDB statement, or null when the plan is not executable. */
  sql: string | null;
  /** False when a joined table has no DuckDB reader (SQLite) or there is nothing to select. */
  executable: boolean;
  warnings: string[];
}

export interface FusionPreview {
  columns: string[];
  rows: Record<string, unknown>[];
  /** Set when the whole result fitted within the limit (so its size is known exactly). */
  rowCountExact?: number;
}
