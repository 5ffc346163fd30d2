import 'reflect-metadata';
import { Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'A lake table (file, or table of a SQLite database) in the catalog.' })
export class Table {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String, { description: 'Absolute path; `file.sqlite#table` for SQLite tables.' })
  uri!: string;

  @Field(() => String)
  format!: string;

  @Field(() => String, { description: 'Basename of the lake root it was ingested from: what grants match as `<source>.<table>`.' })
  source!: string;

  @Field(() => Float)
  rowCount!: number;

  @Field(() => Float)
  profiledRows!: number;

  @Field(() => Int)
  columnCount!: number;

  @Field(() => String)
  fingerprint!: string;

  @Field(() => String)
  state!: string;

  @Field(() => [String])
  warnings!: string[];

  @Field(() => String, { description: 'ISO 8601.' })
  ingestedAt!: string;
}

@ObjectType({ description: 'A column with its profile.' })
export class Column {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  tableId!: string;

  @Field(() => String)
  tableName!: string;

  @Field(() => String)
  name!: string;

  @Field(() => Int)
  ordinal!: number;

  @Field(() => String)
  logicalType!: string;

  @Field(() => Float)
  nullShare!: number;

  @Field(() => Float)
  distinctEstimate!: number;

  @Field(() => Float)
  uniqueness!: number;

  @Field(() => [String])
  sampleValues!: string[];

  @Field(() => [String])
  topValues!: string[];

  @Field(() => Int, {
    description:
      'Distinct values the catalog keeps of the column as hashes only (0 when topValues holds them all): a question that names one as a name (quoted or capitalised) finds the column by it.',
  })
  hashedValues!: number;

  @Field(() => Float, { nullable: true })
  numericMin!: number | null;

  @Field(() => Float, { nullable: true })
  numericMax!: number | null;

  @Field(() => Float)
  avgLength!: number;
}

@ObjectType({ description: 'A table joinable with the one asked about, through a key column pair.' })
export class JoinNeighbour {
  @Field(() => ID)
  tableId!: string;

  @Field(() => String)
  tableName!: string;

  @Field(() => ID)
  localColumnId!: string;

  @Field(() => String, { description: 'Key column of the table asked about.' })
  localColumn!: string;

  @Field(() => ID)
  remoteColumnId!: string;

  @Field(() => String, { description: 'Key column of the neighbour.' })
  remoteColumn!: string;

  @Field(() => Float)
  score!: number;

  @Field(() => Float, { description: "Share of the local column's values found in the remote column." })
  containment!: number;

  @Field(() => Float, { description: "Share of the remote column's values found in the local column." })
  reverseContainment!: number;

  @Field(() => Float)
  jaccard!: number;

  @Field(() => Float)
  nameSimilarity!: number;

  @Field(() => Boolean)
  typeCompatible!: boolean;
}

@ObjectType({ description: 'A pair of aligned columns of two unionable tables.' })
export class ColumnAlignment {
  @Field(() => ID)
  localColumnId!: string;

  @Field(() => ID)
  remoteColumnId!: string;

  @Field(() => Float)
  score!: number;
}

@ObjectType({ description: 'A table unionable with the one asked about (same kind of rows).' })
export class UnionNeighbour {
  @Field(() => ID)
  tableId!: string;

  @Field(() => String)
  tableName!: string;

  @Field(() => Float)
  score!: number;

  @Field(() => Int)
  alignedColumns!: number;

  @Field(() => [ColumnAlignment])
  alignment!: ColumnAlignment[];
}

@ObjectType()
export class PageInfo {
  @Field(() => Boolean)
  hasNextPage!: boolean;

  @Field(() => String, { nullable: true })
  endCursor!: string | null;
}

@ObjectType()
export class TableEdge {
  @Field(() => String)
  cursor!: string;

  @Field(() => Table)
  node!: Table;
}

@ObjectType({ description: 'A page of tables (Relay connection), ordered by name then id.' })
export class TableConnection {
  @Field(() => [TableEdge])
  edges!: TableEdge[];

  @Field(() => PageInfo)
  pageInfo!: PageInfo;

  @Field(() => Int, { description: 'Tables matching the filter that the caller may see (all pages).' })
  totalCount!: number;
}

@ObjectType()
export class ColumnEdge {
  @Field(() => String)
  cursor!: string;

  @Field(() => Column)
  node!: Column;
}

@ObjectType({ description: 'A page of columns (Relay connection), ordered by table name, table id, ordinal.' })
export class ColumnConnection {
  @Field(() => [ColumnEdge])
  edges!: ColumnEdge[];

  @Field(() => PageInfo)
  pageInfo!: PageInfo;

  @Field(() => Int)
  totalCount!: number;
}

@ObjectType({ description: 'A column found by searchColumns.' })
export class ColumnHit {
  @Field(() => Column)
  column!: Column;

  @Field(() => Float, { description: 'Reciprocal-rank fusion of the vector and lexical rankings.' })
  score!: number;

  @Field(() => Float, { nullable: true, description: "Cosine similarity of the text's and the column's embeddings." })
  vectorScore!: number | null;

  @Field(() => Float, { nullable: true, description: 'Name match strength in [0,1].' })
  lexicalScore!: number | null;

  @Field(() => [String], { description: '`vector` and/or `lexical`.' })
  matchedBy!: string[];
}

@InputType()
export class TableFilterInput {
  @Field(() => String, { nullable: true, description: 'Case-insensitive substring of the table name.' })
  nameContains?: string | null;

  @Field(() => String, { nullable: true, description: 'Source (lake root basename), exact.' })
  source?: string | null;

  @Field(() => String, { nullable: true, description: 'csv, parquet, sqlite, ...' })
  format?: string | null;
}

@InputType()
export class ColumnFilterInput {
  @Field(() => String, { nullable: true, description: 'Case-insensitive substring of the column name.' })
  nameContains?: string | null;

  @Field(() => String, { nullable: true })
  logicalType?: string | null;
}
