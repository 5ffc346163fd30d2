/**
 * Inputs and outputs of join / union discovery. Plain data: a profiled column (see
 * src/lake/types.ts ColumnProfile) plus the ids the catalog gave it.
 */
import type { LogicalType } from '../lake/types.js';

export interface GraphColumn {
  id: string;
  tableId: string;
  name: string;
  ordinal: number;
  logicalType: LogicalType;
  nullShare: number;
  distinctEstimate: number;
  uniqueness: number;
  /** MinHash signature of the normalised distinct values; [] when the column has no values. */
  minhash: number[];
  sampleValues: string[];
  numericMin: number | null;
  numericMax: number | null;
  avgLength: number;
  /** 256-d, L2-normalised header embedding; may be absent. */
  embedding?: ArrayLike<number>;
}

export interface GraphTable {
  id: string;
  name: string;
  rowCount: number;
  columns: GraphColumn[];
}

/** A join from a (foreign-key-like) column into a key-like column of another table. */
export interface JoinEdgeCandidate {
  fromColumnId: string;
  toColumnId: string;
  fromTableId: string;
  toTableId: string;
  /** |from ∩ to| / |from| (MinHash estimate). */
  containmentFromInTo: number;
  /** |from ∩ to| / |to| (MinHash estimate). */
  containmentToInFrom: number;
  jaccard: number;
  /** Name evidence in [0,1] (tokens, or header-embedding similarity); see README. */
  nameSimilarity: number;
  typeCompatible: boolean;
  /** [0,1]; see README for the formula. */
  score: number;
}

/** A type alias (not an interface) so that it stays assignable to JSON column types. */
export type UnionAlignment = {
  columnAId: string;
  columnBId: string;
  score: number;
};

/** Two tables whose rows could be stacked; tableAId < tableBId (string order). */
export interface UnionEdgeCandidate {
  tableAId: string;
  tableBId: string;
  score: number;
  alignment: UnionAlignment[];
}

export interface GraphEdges {
  joins: JoinEdgeCandidate[];
  unions: UnionEdgeCandidate[];
}

/** Thresholds and LSH shapes. Defaults in DEFAULT_GRAPH_OPTIONS; README explains each. */
export interface GraphOptions {
  /** Key-like: uniqueness >= this ... */
  keyMinUniqueness: number;
  /** ... and distinctEstimate >= this. */
  keyMinDistinct: number;
  /** Columns with fewer distinct values never join (near-constant). */
  joinMinDistinct: number;
  /** Containment of the foreign side in the key side needed for a join. */
  joinMinContainment: number;
  /**
   * ... unless the key side is a key piece (a row shard of the referenced table): this share of
   * its keys found in the foreign side, with name evidence, joins below `joinMinContainment`.
   */
  keyPieceMinCoverage: number;
  /** Name evidence needed when values are not specific. */
  nameEvidenceMin: number;
  /** Value specificity needed when names give no evidence. */
  specificityMin: number;
  /** Header-embedding cosine mapped to evidence 0 at this value, rising linearly to 1 at cos 1. */
  embeddingCosFloor: number;
  /** A column pair must reach this similarity to be aligned in a union. */
  unionAlignMin: number;
  /** Union edges below this score are not emitted. */
  unionMinScore: number;
  /**
   * Multiplier for unions whose alignment rests on generic names only (id, name, ...). Keep it
   * below unionMinScore: candidate generation skips tables that share only generic names.
   */
  genericOnlyUnionFactor: number;
  /**
   * Two unique integer columns holding the very same values (as many, the same least and
   * greatest), at least this many, join whatever their names: one table's rows continue the
   * other's (`cars_data.Id` ~ `car_names.MakeId`).
   */
  oneToOneMinDistinct: number;
  /** Value LSH: bands x rows MinHash slots are used (bands * rows <= signature length). */
  valueLshBands: number;
  valueLshRows: number;
  /** Header LSH over non-generic column-name token sets (bands * rows MinHash slots). */
  headerLshBands: number;
  headerLshRows: number;
  /** Embedding LSH (random hyperplanes): bands x bits. */
  embeddingLshBands: number;
  embeddingLshBits: number;
}

export const DEFAULT_GRAPH_OPTIONS: Readonly<GraphOptions> = Object.freeze({
  keyMinUniqueness: 0.9,
  keyMinDistinct: 3,
  joinMinDistinct: 2,
  joinMinContainment: 0.5,
  keyPieceMinCoverage: 0.9,
  nameEvidenceMin: 0.5,
  specificityMin: 0.5,
  embeddingCosFloor: 0.7,
  unionAlignMin: 0.5,
  unionMinScore: 0.6,
  genericOnlyUnionFactor: 0.5,
  oneToOneMinDistinct: 100,
  valueLshBands: 64,
  valueLshRows: 1,
  headerLshBands: 42,
  headerLshRows: 3,
  embeddingLshBands: 16,
  embeddingLshBits: 8,
});
