import type { StoredJoinEdge, StoredUnionEdge } from '../catalog/read.js';
/**
 * Inputs and outputs of the fusion planner. Plain data (JSON-serialisable) so that the search
 * module and the GraphQL layer can build a `FusionInput` from catalog rows and store a plan.
 */
import type { CsvReadOptions, LakeEntry, LakeFormat } from '../lake/types.js';

export type FusionFormat = LakeFormat;

export interface FusionColumn {
  id: string;
  name: string;
  /** A `LogicalType` from src/lake/types.ts ('integer', 'float', 'text', ...); unknown values count as text. */
  logicalType: string;
}

export interface FusionTable {
  id: string;
  name: string;
  /** Absolute file path; `file.sqlite#table` for SQLite, `file.duckdb#schema.table` for DuckDB files (as `LakeTable.uri`). */
  uri: string;
  format: FusionFormat;
  columns: FusionColumn[];
  /** CSV read options profiling settled on (`TableProfile.csv`); absent = sniff again. */
  csv?: CsvReadOptions;
  /** Whether `uri` is a partitioned folder, as the catalog snapshot found it (`LakeEntry.hive`); absent = look when planning. */
  folder?: boolean;
  /** The catalog source's root: running the SQL reads the table's files only within it (LakeEntry.root). */
  root?: string;
}

/** A stored join edge (catalog `JoinEdge`): from a foreign-key-like column into a key-like column. */
export type FusionJoinEdge = StoredJoinEdge;

/** A stored union edge (catalog `UnionEdge`); `alignment` pairs a column of A with one of B. */
export type FusionUnionEdge = StoredUnionEdge;

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
  /**
   * 'inner' (default) keeps only rows every joined group matches; 'left' keeps every row of the
   * first (root) group, NULL where a joined group has no match (enrichment adds columns to a base
   * table without losing its rows).
   */
  joinKind?: 'inner' | 'left';
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

/** How the executor reads one table of the plan (see source.ts). */
export interface FusionSource {
  tableId: string;
  name: string;
  entry: LakeEntry;
  /** The table expression in `plan.sql`: `read_csv(...)`, `read_parquet(...)`, `sqlite_scan(...)`, `"graft_db_…"."main"."t"`. */
  expression: string;
  /** A statement to run before `plan.sql` (the ATTACH of a DuckDB database file), or null. */
  setupSql: string | null;
  /**
   * null: DuckDB reads `expression` itself. Otherwise the reader that copies the rows into a
   * DuckDB temp table at run time ('better-sqlite3' for SQLite), bounded by `maxCopiedRows`.
   */
  copiedBy: string | null;
}

export interface FusionPlan {
  unionGroups: UnionGroup[];
  /** Join steps in execution order: each attaches `rightGroupId` to the part joined so far. */
  joinSteps: JoinStep[];
  /** Group ids the SQL covers (root first, then in join order). */
  joinedGroupIds: string[];
  /** How the joins keep rows (the input's `joinKind`): 'left' keeps every row of the root group. */
  joinKind: 'inner' | 'left';
  /**
   * Table ids of every connected component (of groups) that the SQL leaves out because no join
   * edge connects it to the joined part; one inner array per component. Empty when connected.
   */
  disconnected: string[][];
  filters: { bound: BoundFilter[]; unbound: UnboundFilter[] };
  outputColumns: OutputColumn[];
  /**
   * One DuckDB statement, or null when the plan is not executable. SQLite tables appear as
   * `sqlite_scan(file, table)` (DuckDB's sqlite extension); graft itself runs them from copies.
   */
  sql: string | null;
  /** How each joined table is read (root group first, members in group order). */
  sources: FusionSource[];
  /** Statements to run before `sql` elsewhere (ATTACH of DuckDB files); graft runs them itself. */
  setupSql: string[];
  /** False when a joined table has no reader or there is nothing to select. */
  executable: boolean;
  warnings: string[];
}

/** What read one table while a plan ran. */
export interface FusionSourceRun {
  tableId: string;
  name: string;
  /** 'duckdb' (read in place), 'graft-iceberg' (DuckDB over the scan graft planned) or the copier ('better-sqlite3', 'pg'). */
  readBy: string;
  /** Rows copied into DuckDB; null when DuckDB read the table in place. */
  copiedRows: number | null;
  /** True when the table has more rows than `maxCopiedRows` and only the first were copied. */
  truncated: boolean;
}

/** Which engine ran the fused SQL and how it read each table. */
export interface FusionRunInfo {
  /** Always 'duckdb' today: every source is read by or copied into DuckDB. */
  engine: 'duckdb';
  sources: FusionSourceRun[];
  /** e.g. a truncated copy: the result covers only part of that table. */
  warnings: string[];
}

export interface FusionPreview extends FusionRunInfo {
  columns: string[];
  rows: Record<string, unknown>[];
  /** Set when the whole result fitted within the limit and no copy was truncated. */
  rowCountExact?: number;
}
