import type { CatalogDatabase } from './database.js';
import { hashedValueCountSql } from './valueHashes.js';
import { visibleTable } from './visibility.js';
import { BadInputError } from '../util/errors.js';

export interface TableSummary {
  id: string;
  name: string;
  uri: string;
  format: string;
  rowCount: number;
  columnCount: number;
  joinDegree: number;
  unionDegree: number;
}

export interface JoinNeighbour {
  tableId: string;
  tableName: string;
  /** Column of the table asked about. */
  localColumn: string;
  /** Column of the neighbour. */
  remoteColumn: string;
  score: number;
  /** Containment of the local column's values in the remote column's. */
  containment: number;
}

export interface UnionNeighbour {
  tableId: string;
  tableName: string;
  score: number;
  alignedColumns: number;
}

/** Tables with their edge degrees, ordered by name then uri. */
export async function listTableSummaries(db: CatalogDatabase, opts: { nameContains?: string; limit?: number } = {}): Promise<TableSummary[]> {
  const tables = await db.prisma.lakeTable.findMany({
    where: { ...visibleTable, ...(opts.nameContains ? { name: { contains: opts.nameContains, mode: 'insensitive' } } : {}) },
    orderBy: [{ name: 'asc' }, { uri: 'asc' }],
    take: opts.limit,
    select: {
      id: true, name: true, uri: true, format: true, rowCount: true, columnCount: true,
      _count: { select: { joinsFrom: true, joinsTo: true, unionsA: true, unionsB: true } },
    },
  });
  return tables.map((t) => ({
    id: t.id, name: t.name, uri: t.uri, format: t.format, rowCount: Number(t.rowCount), columnCount: t.columnCount,
    joinDegree: t._count.joinsFrom + t._count.joinsTo,
    unionDegree: t._count.unionsA + t._count.unionsB,
  }));
}

/**
 * Tables whose id, name or uri is `ref` (names are not unique in a lake: several may match), each
 * column with `hashedValues`: how many distinct values the catalog keeps of it as hashes (0 when
 * its top values hold them all), not the hashes themselves (8 bytes a value).
 */
export async function findTables(db: CatalogDatabase, ref: string) {
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(ref);
  const tables = await db.prisma.lakeTable.findMany({
    where: { ...visibleTable, OR: [...(isUuid ? [{ id: ref }] : []), { name: ref }, { uri: ref }] },
    include: { columns: { orderBy: { ordinal: 'asc' }, omit: { valueHashes: true } } },
    orderBy: { uri: 'asc' },
  });
  const ids = tables.flatMap((t) => t.columns.map((c) => c.id));
  const counts = new Map<string, number>();
  if (ids.length > 0) {
    const rows = await db.sql.query<{ id: string; n: number }>(
      `SELECT c.id::text AS id, ${hashedValueCountSql('c')} AS n FROM lake_column c WHERE c.id = ANY($1::uuid[])`,
      [ids],
    );
    for (const r of rows) counts.set(r.id, r.n);
  }
  return tables.map((t) => ({ ...t, columns: t.columns.map((c) => ({ ...c, hashedValues: counts.get(c.id) ?? 0 })) }));
}

export async function joinNeighbours(db: CatalogDatabase, tableId: string): Promise<JoinNeighbour[]> {
  const edges = await db.prisma.joinEdge.findMany({
    where: { OR: [{ fromTableId: tableId }, { toTableId: tableId }], fromTable: visibleTable, toTable: visibleTable },
    include: {
      fromColumn: { select: { name: true } }, toColumn: { select: { name: true } },
      fromTable: { select: { name: true } }, toTable: { select: { name: true } },
    },
    orderBy: { score: 'desc' },
  });
  return edges.map((e) => {
    const outgoing = e.fromTableId === tableId;
    return {
      tableId: outgoing ? e.toTableId : e.fromTableId,
      tableName: outgoing ? e.toTable.name : e.fromTable.name,
      localColumn: outgoing ? e.fromColumn.name : e.toColumn.name,
      remoteColumn: outgoing ? e.toColumn.name : e.fromColumn.name,
      score: e.score,
      containment: outgoing ? e.containmentFromTo : e.containmentToFrom,
    };
  });
}

export async function unionNeighbours(db: CatalogDatabase, tableId: string): Promise<UnionNeighbour[]> {
  const edges = await db.prisma.unionEdge.findMany({
    where: { OR: [{ tableAId: tableId }, { tableBId: tableId }], tableA: visibleTable, tableB: visibleTable },
    include: { tableA: { select: { name: true } }, tableB: { select: { name: true } } },
    orderBy: { score: 'desc' },
  });
  return edges.map((e) => {
    const aSide = e.tableAId === tableId;
    return {
      tableId: aSide ? e.tableBId : e.tableAId,
      tableName: aSide ? e.tableB.name : e.tableA.name,
      score: e.score,
      alignedColumns: Array.isArray(e.alignment) ? e.alignment.length : 0,
    };
  });
}

export async function catalogCounts(db: CatalogDatabase) {
  const [tables, columns, joins, unions, embeddings] = await Promise.all([
    db.prisma.lakeTable.count({ where: visibleTable }),
    db.prisma.lakeColumn.count({ where: { table: visibleTable } }),
    db.prisma.joinEdge.count({ where: { fromTable: visibleTable, toTable: visibleTable } }),
    db.prisma.unionEdge.count({ where: { tableA: visibleTable, tableB: visibleTable } }),
    db.prisma.columnEmbedding.count({ where: { column: { table: visibleTable } } }),
  ]);
  return { tables, columns, joins, unions, embeddings };
}

/**
 * One ingest run: by id, by a unique id prefix (`graft ingest-run 3f2a`), or the newest run
 * when `ref` is undefined. Null when nothing matches; a prefix matching several runs is an error.
 */
export async function findIngestRun(db: CatalogDatabase, ref?: string) {
  if (ref === undefined) return db.prisma.ingestRun.findFirst({ orderBy: { startedAt: 'desc' } });
  const lower = ref.trim().toLowerCase();
  if (!/^[0-9a-f-]{1,36}$/.test(lower)) return null;
  // ids are uuids: compare on their text form so a prefix works on PGlite and PostgreSQL alike.
  const rows = await db.sql.query<{ id: string }>('SELECT id::text AS id FROM ingest_run WHERE id::text LIKE $1 LIMIT 2', [`${lower}%`]);
  if (rows.length === 0) return null;
  if (rows.length > 1) throw new BadInputError(`run id prefix '${ref}' matches several runs: give more of it`, { field: 'id' });
  return db.prisma.ingestRun.findUnique({ where: { id: rows[0].id } });
}
