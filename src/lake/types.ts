/**
 * Shapes that flow from the lake readers through profiling into the catalog.
 * Everything here is plain data (JSON-serialisable apart from typed arrays) so that
 * graph discovery, embedding and storage can be tested without files or a database.
 */

/** Logical column type after profiling; physical types from CSV/Parquet/SQLite map onto these. */
export type LogicalType = 'integer' | 'float' | 'text' | 'boolean' | 'date' | 'timestamp' | 'other';

export type LakeFormat = 'csv' | 'parquet' | 'sqlite' | 'duckdb' | 'postgres' | 'iceberg';

export const LAKE_FORMATS: readonly LakeFormat[] = ['csv', 'parquet', 'sqlite', 'duckdb', 'postgres', 'iceberg'];

export interface ColumnProfile {
  name: string;
  /** 0-based position in the table. */
  ordinal: number;
  logicalType: LogicalType;
  /** Share of NULL / empty cells among profiled rows, in [0,1]. */
  nullShare: number;
  /** Estimated number of distinct non-null values in the whole column. */
  distinctEstimate: number;
  /** distinct non-null values / non-null values among profiled rows, in [0,1]; 1 = key-like. */
  uniqueness: number;
  /** Up to 10 distinct non-null values, as text, in first-seen order. */
  sampleValues: string[];
  /** MinHash signature (see src/sketch/minhash.ts) of the normalised distinct value set. */
  minhash: number[];
  numericMin: number | null;
  numericMax: number | null;
  /** Average length in characters of the non-null values (text form). */
  avgLength: number;
  /** Up to `TOP_TEXT_VALUES` most frequent distinct text values, for the catalog's value index. */
  topValues: string[];
  /**
   * A text column with more distinct values than `topValues` holds: the `valueHash` of each
   * distinct value (the `VALUE_HASH_CAP` most frequent at most), ascending, so the value index
   * finds a cell the top values leave out ("Hulk" among 750 hero names) without the catalog
   * keeping every cell as text. Absent when `topValues` holds every value, or for other types.
   */
  valueHashes?: number[];
}

export interface TableProfile {
  /** Table name as the lake shows it: file stem, the SQLite table name, or the Iceberg table name. */
  name: string;
  /** Where the data lives: absolute file path; for SQLite `file.sqlite#table`. */
  uri: string;
  format: LakeFormat;
  /** Exact row count of the whole table. */
  rowCount: number;
  /** How many rows the per-column statistics were computed from (<= rowCount). */
  profiledRows: number;
  /**
   * Stable hash of the file bytes (CSV/Parquet) or of the table content (SQLite); for
   * Iceberg `iceberg:<table-uuid>@<current snapshot id>` (the id as exact decimal text).
   */
  fingerprint: string;
  columns: ColumnProfile[];
  /** Non-fatal findings (ragged lines skipped, encoding replaced, ...). */
  warnings: string[];
  /**
   * The DuckDB table expression profiling read the table with (see `duckdbSourceExpression`);
   * null for SQLite tables. Optional so hand-built profiles (tests, fixtures) stay valid.
   */
  sourceExpression?: string | null;
  /** For CSV: the read options profiling settled on; pass back as `LakeEntry.csv`. */
  csv?: CsvReadOptions;
}

/**
 * How a CSV file must be read so that later queries see what profiling saw. Everything is
 * optional: the default is DuckDB's sniffer on UTF-8 text.
 */
export interface CsvReadOptions {
  /** Text encoding; absent means UTF-8. Latin-1 is chosen for files that are not valid UTF-8. */
  encoding?: 'utf-8' | 'utf-16' | 'latin-1';
  /** Whether the first (non-skipped) line is a header; absent lets DuckDB sniff it. */
  header?: boolean;
  /** Column names replacing DuckDB's (set when blank header cells were renamed `column_N`). */
  names?: string[];
  /** Per-column DuckDB type overrides, e.g. VARCHAR for columns whose values outgrew the sniffed type. */
  types?: Record<string, string>;
}

/** One unit the lake walker yields: a file, or one table inside a SQLite database. */
export interface LakeEntry {
  /** Absolute path of the file on disk (for PostgreSQL: the source root URL, without password). */
  path: string;
  format: LakeFormat;
  /** For SQLite: the table inside the database file. */
  sqliteTable?: string;
  /** For a DuckDB database file: the table inside it. */
  duckdbTable?: { schema: string; table: string };
  /** For a PostgreSQL source (`path` is its root `postgres://user@host:port/db/schema`): the table. */
  pgTable?: string;
  /** For CSV: read options from an earlier profile (`TableProfile.csv`); absent = sniff again. */
  csv?: CsvReadOptions;
  /**
   * For Iceberg: `path` is the table folder or a metadata.json; the name a catalog gives the
   * table (absent: the folder name).
   */
  icebergName?: string;
  /**
   * For a hive-partitioned folder (`format` csv or parquet, `path` the folder): its data files
   * under `key=value` subfolders are one table with the keys as columns (see hive.ts). `false`:
   * known to be one file (a catalog snapshot looked when it was loaded), so readers need not
   * look again; absent: not known, `duckdbSourceExpression` looks at the path.
   */
  hive?: boolean;
  /**
   * Reads of this entry are confined to this folder (the catalog source's root): the real path
   * is checked when the file is opened (confine.ts). Absent: not confined.
   */
  root?: string;
}
