/**
 * The one read path for loading the catalog whole into memory: the ready tables with their
 * columns and profiles, the column embeddings of one model, the join and union edges, and the
 * column texts a corpus-fitted embedder is fitted on. The search snapshot (`LakeSnapshot.load`)
 * and the bench view load through these; nothing above catalog/ queries the store for them.
 * (Per-table reads for the CLI are in queries.ts; the API's grant-scoped, paginated reads in
 * catalog/scopedReader.ts, which api/catalog/reader.ts re-exports.)
 */
import type { CatalogDatabase } from './database.js';
import { parseVectorLiteral } from './vector.js';
import { visibleTable } from './visibility.js';

export { decodeValueHashes } from './valueHashes.js';

/** A stored join edge: from a foreign-key-like column into a key-like column. */
export interface StoredJoinEdge {
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

/** A stored union edge; `alignment` pairs a column of A with one of B. */
export interface StoredUnionEdge {
  tableAId: string;
  tableBId: string;
  score: number;
  alignment: { columnAId: string; columnBId: string; score: number }[];
}

/** Ready tables in uri order, each with its source root and its columns in ordinal order. */
export function readReadyTables(db: CatalogDatabase) {
  return db.prisma.lakeTable.findMany({
    where: visibleTable,
    orderBy: { uri: 'asc' },
    include: { source: { select: { rootPath: true } }, columns: { orderBy: { ordinal: 'asc' } } },
  });
}

/** Uris of the ready tables whose uri starts with `prefix` (a lake folder followed by the separator). */
export async function readReadyTableUris(db: CatalogDatabase, prefix: string): Promise<string[]> {
  const rows = await db.prisma.lakeTable.findMany({ where: { ...visibleTable, uri: { startsWith: prefix } }, select: { uri: true } });
  return rows.map((r) => r.uri);
}

export type ReadyTable = Awaited<ReturnType<typeof readReadyTables>>[number];

/**
 * The embedding model most columns have a vector of (null when none has). Vectors of different
 * models live in different spaces, so an in-memory view keeps one model's only.
 */
export async function readMajorityEmbeddingModel(db: CatalogDatabase): Promise<string | null> {
  const rows = await db.prisma.$queryRawUnsafe<{ model: string; n: number }[]>(
    `SELECT model, count(*)::int AS n FROM column_embedding GROUP BY model ORDER BY n DESC, model`,
  );
  return rows[0]?.model ?? null;
}

/** Column id -> stored vector, for the vectors of `model`. */
export async function readColumnEmbeddings(db: CatalogDatabase, model: string): Promise<Map<string, Float32Array>> {
  const rows = await db.prisma.$queryRawUnsafe<{ column_id: string; embedding: string }[]>(
    `SELECT column_id::text AS column_id, embedding::text AS embedding FROM column_embedding WHERE model = $1`,
    model,
  );
  return new Map(rows.map((r) => [r.column_id, parseVectorLiteral(r.embedding)]));
}

export function readJoinEdges(db: CatalogDatabase): Promise<StoredJoinEdge[]> {
  return db.prisma.joinEdge.findMany({
    select: { fromColumnId: true, toColumnId: true, fromTableId: true, toTableId: true, score: true, containmentFromTo: true, containmentToFrom: true },
  });
}

export async function readUnionEdges(db: CatalogDatabase): Promise<StoredUnionEdge[]> {
  const rows = await db.prisma.unionEdge.findMany({ select: { tableAId: true, tableBId: true, score: true, alignment: true } });
  return rows.map((u) => ({ ...u, alignment: (u.alignment ?? []) as StoredUnionEdge['alignment'] }));
}

/**
 * Every column of the catalog as (table name, column name, sample values), in the order ingest
 * fits a corpus-fitted embedder on (table id, ordinal): fitting on it again gives the same space.
 */
export async function readColumnCorpus(db: CatalogDatabase): Promise<{ tableName: string; name: string; sampleValues: string[] }[]> {
  const rows = await db.prisma.lakeColumn.findMany({
    select: { name: true, sampleValues: true, table: { select: { name: true } } },
    orderBy: [{ tableId: 'asc' }, { ordinal: 'asc' }],
  });
  return rows.map((r) => ({ tableName: r.table.name, name: r.name, sampleValues: r.sampleValues }));
}
