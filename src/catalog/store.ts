import { createHash } from 'node:crypto';
import { PROFILE_VERSION } from '../lake/profileVersion.js';
import type { ColumnProfile, LakeEntry, TableProfile } from '../lake/types.js';
import type { GraphColumn, GraphEdges, GraphTable, JoinEdgeCandidate, UnionEdgeCandidate } from '../graph/types.js';
import type { CatalogDatabase } from './database.js';
import { encodeValueHashes } from './valueHashes.js';
import { toVectorLiteral } from './vector.js';
import { TableState } from './visibility.js';

/** Catalog-state key of the graph rules version (src/graph/rulesVersion.ts) the stored edges come from. */
export const GRAPH_RULES_STATE_KEY = 'graph.rules';

/** A profiled table with ids assigned, ready to be written (see `CatalogStore.writeTable`). */
export interface PreparedTable {
  id: string;
  sourceId: string;
  uri: string;
  entry: LakeEntry;
  profile: TableProfile;
  /** Column ids in ordinal order, parallel to profile.columns. */
  columnIds: string[];
}

export interface TableWrite {
  table: PreparedTable;
  /** Embedder id and one vector per column (parallel to profile.columns). */
  embeddings?: { model: string; vectors: ArrayLike<number>[] };
  joins: JoinEdgeCandidate[];
  unions: UnionEdgeCandidate[];
  /** Catalog id of an older version of the same lake object, replaced atomically. */
  replaces?: string;
}

/** What an ingest needs to know of a stored table: which it is, and whether to profile it again. */
export interface StoredTableBrief {
  id: string;
  uri: string;
  fingerprint: string;
  /** The profiler version that profiled it (`PROFILE_VERSION`; older: profile it again). */
  profileVersion: number;
}

/**
 * A UUID-shaped id derived from `parts` (sha256, version nibble 8 = custom, RFC 9562), so the
 * same table or column gets the same id on every ingest and in every catalog.
 */
export function stableId(...parts: string[]): string {
  const h = createHash('sha256').update(parts.join('\u0000')).digest();
  h[6] = (h[6]! & 0x0f) | 0x80;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

/**
 * Assigns the ids up front so graph discovery can reference columns before anything is written.
 * Ids are stable: a table's id derives from its uri, a column's from the table uri and the column
 * name (plus its ordinal when the name repeats), so a re-ingest keeps them and other systems
 * (a federated supergraph's `@key`, governance events) can hold on to them.
 */
export function prepareTable(sourceId: string, entry: LakeEntry, profile: TableProfile): PreparedTable {
  const seen = new Map<string, number>();
  for (const c of profile.columns) seen.set(c.name, (seen.get(c.name) ?? 0) + 1);
  return {
    id: stableId('table', profile.uri),
    sourceId,
    uri: profile.uri,
    entry,
    profile,
    columnIds: profile.columns.map((c) =>
      seen.get(c.name)! > 1 ? stableId('column', profile.uri, c.name, String(c.ordinal)) : stableId('column', profile.uri, c.name),
    ),
  };
}

export function toGraphTable(t: PreparedTable, embeddings?: ArrayLike<number>[]): GraphTable {
  return {
    id: t.id,
    name: t.profile.name,
    rowCount: t.profile.rowCount,
    columns: t.profile.columns.map((c, i) => toGraphColumn(t.columnIds[i], t.id, c, embeddings?.[i])),
  };
}

/** The statistics graph discovery needs, from a fresh profile or a stored column. */
function toGraphColumn(
  id: string,
  tableId: string,
  c: Omit<ColumnProfile, 'topValues'> | (Omit<GraphColumn, 'id' | 'tableId'> & { minhash: number[] }),
  embedding?: ArrayLike<number>,
): GraphColumn {
  return {
    id,
    tableId,
    name: c.name,
    ordinal: c.ordinal,
    logicalType: c.logicalType,
    nullShare: c.nullShare,
    distinctEstimate: c.distinctEstimate,
    uniqueness: c.uniqueness,
    minhash: c.minhash,
    sampleValues: c.sampleValues,
    numericMin: c.numericMin,
    numericMax: c.numericMax,
    avgLength: c.avgLength,
    embedding,
  };
}

/** Postgres text columns reject NUL; lake files sometimes contain it. */
function clean(s: string): string {
  return s.includes('\u0000') ? s.replace(/\u0000/g, '') : s;
}

/** Repository for lake tables, columns, embeddings and edges. */
export class CatalogStore {
  constructor(readonly db: CatalogDatabase) {}

  async upsertSource(rootPath: string, kind: string): Promise<string> {
    const s = await this.db.prisma.source.upsert({
      where: { rootPath },
      create: { rootPath, kind },
      update: {},
      select: { id: true },
    });
    return s.id;
  }

  async tablesByUri(): Promise<Map<string, StoredTableBrief>> {
    const rows = await this.db.prisma.lakeTable.findMany({
      select: { id: true, uri: true, fingerprint: true, profileVersion: true },
    });
    return new Map(rows.map((r) => [r.uri, r]));
  }

  /**
   * Writes one table with its columns, embeddings and edges in ONE transaction, replacing an
   * older version of it if given: a crash mid-ingest leaves the old version or the new one,
   * never half of either.
   */
  async writeTable(w: TableWrite): Promise<void> {
    const { table: t } = w;
    const p = t.profile;
    await this.db.prisma.$transaction(
      async (tx) => {
        if (w.replaces) await tx.lakeTable.deleteMany({ where: { id: w.replaces } });
        await tx.lakeTable.create({
          data: {
            id: t.id,
            sourceId: t.sourceId,
            name: clean(p.name),
            uri: t.uri,
            format: p.format,
            rowCount: BigInt(p.rowCount),
            profiledRows: BigInt(p.profiledRows),
            columnCount: p.columns.length,
            fingerprint: p.fingerprint,
            // Without its vectors the table is not complete: invisible until they are written.
            state: hasAllEmbeddings(w) ? TableState.ready : TableState.pending,
            warnings: p.warnings,
            // JSON of plain strings and booleans: how fused SQL and previews read the file again.
            ...(p.csv ? { csvOptions: { ...p.csv } } : {}),
            profileVersion: PROFILE_VERSION,
          },
        });
        if (p.columns.length > 0) {
          await tx.lakeColumn.createMany({
            data: p.columns.map((c, i) => ({
              id: t.columnIds[i],
              tableId: t.id,
              name: clean(c.name),
              ordinal: c.ordinal,
              logicalType: c.logicalType,
              nullShare: c.nullShare,
              distinctEstimate: c.distinctEstimate,
              uniqueness: c.uniqueness,
              sampleValues: c.sampleValues.map(clean),
              topValues: c.topValues.map(clean),
              valueHashes: c.valueHashes ? encodeValueHashes(c.valueHashes) : null,
              minhash: c.minhash,
              numericMin: finiteOrNull(c.numericMin),
              numericMax: finiteOrNull(c.numericMax),
              avgLength: c.avgLength,
            })),
          });
        }
        if (w.embeddings && w.embeddings.vectors.length > 0) {
          await insertEmbeddings(tx, t.columnIds, w.embeddings.model, w.embeddings.vectors);
        }
        if (w.joins.length > 0) await tx.joinEdge.createMany({ data: w.joins.map(joinEdgeRow), skipDuplicates: true });
        if (w.unions.length > 0) await tx.unionEdge.createMany({ data: w.unions.map(unionEdgeRow), skipDuplicates: true });
      },
      { timeout: 120_000, maxWait: 60_000 },
    );
  }

  /** A catalog-state value (see `CatalogState`), or null when never set. */
  async stateValue(key: string): Promise<string | null> {
    const row = await this.db.prisma.catalogState.findUnique({ where: { key } });
    return row?.value ?? null;
  }

  /**
   * Replaces every stored join and union edge by `edges` and records `rulesVersion` as their
   * origin, in ONE transaction: readers see the old edge set or the new one, never a mix.
   */
  async replaceAllEdges(edges: GraphEdges, rulesVersion: string): Promise<void> {
    const CHUNK = 1000;
    await this.db.prisma.$transaction(
      async (tx) => {
        await tx.joinEdge.deleteMany({});
        await tx.unionEdge.deleteMany({});
        for (let i = 0; i < edges.joins.length; i += CHUNK) {
          await tx.joinEdge.createMany({ data: edges.joins.slice(i, i + CHUNK).map(joinEdgeRow), skipDuplicates: true });
        }
        for (let i = 0; i < edges.unions.length; i += CHUNK) {
          await tx.unionEdge.createMany({ data: edges.unions.slice(i, i + CHUNK).map(unionEdgeRow), skipDuplicates: true });
        }
        await tx.catalogState.upsert({
          where: { key: GRAPH_RULES_STATE_KEY },
          create: { key: GRAPH_RULES_STATE_KEY, value: rulesVersion },
          update: { value: rulesVersion },
        });
      },
      { timeout: 300_000, maxWait: 60_000 },
    );
  }

  /** Replaces the embeddings of many columns (used when the embedder's statistics change). */
  async replaceEmbeddings(model: string, columnIds: string[], vectors: ArrayLike<number>[]): Promise<void> {
    const CHUNK = 500;
    for (let i = 0; i < columnIds.length; i += CHUNK) {
      const ids = columnIds.slice(i, i + CHUNK);
      const vs = vectors.slice(i, i + CHUNK);
      await this.db.prisma.$transaction(async (tx) => {
        await tx.columnEmbedding.deleteMany({ where: { columnId: { in: ids } } });
        await insertEmbeddings(tx, ids, model, vs);
      });
    }
  }

  async deleteTable(id: string): Promise<boolean> {
    const r = await this.db.prisma.lakeTable.deleteMany({ where: { id } });
    return r.count > 0;
  }

  async pendingTableCount(): Promise<number> {
    return this.db.prisma.lakeTable.count({ where: { state: TableState.pending } });
  }

  /** Makes visible every pending table all of whose columns now have a vector. */
  async markEmbeddedTablesReady(): Promise<number> {
    return this.db.prisma.$executeRawUnsafe(
      `UPDATE lake_table t SET state = '${TableState.ready}' WHERE t.state = '${TableState.pending}' AND NOT EXISTS (
         SELECT 1 FROM lake_column c LEFT JOIN column_embedding e ON e.column_id = c.id WHERE c.table_id = t.id AND e.column_id IS NULL)`,
    );
  }

  /**
   * Every stored table with its columns, as graph discovery sees them: pending ones too, since
   * their edges are stored and a re-run keeps them (only their vectors are still to come).
   */
  async loadGraphTables(): Promise<GraphTable[]> {
    const tables = await this.db.prisma.lakeTable.findMany({
      orderBy: { uri: 'asc' },
      // The value hashes are no statistic of discovery: not read (8 bytes a value).
      include: { columns: { orderBy: { ordinal: 'asc' }, omit: { valueHashes: true } } },
    });
    return tables.map((t) => ({
      id: t.id,
      name: t.name,
      rowCount: Number(t.rowCount),
      columns: t.columns.map((c) => toGraphColumn(c.id, t.id, { ...c, logicalType: c.logicalType as GraphColumn['logicalType'] })),
    }));
  }

}

function joinEdgeRow(e: JoinEdgeCandidate) {
  return {
    fromColumnId: e.fromColumnId,
    toColumnId: e.toColumnId,
    fromTableId: e.fromTableId,
    toTableId: e.toTableId,
    containmentFromTo: e.containmentFromInTo,
    containmentToFrom: e.containmentToInFrom,
    jaccard: e.jaccard,
    nameSimilarity: e.nameSimilarity,
    typeCompatible: e.typeCompatible,
    score: e.score,
  };
}

/** Each unordered pair is stored once, smaller table id first (alignment flipped to match). */
function unionEdgeRow(u: UnionEdgeCandidate) {
  const flip = u.tableAId > u.tableBId;
  return {
    tableAId: flip ? u.tableBId : u.tableAId,
    tableBId: flip ? u.tableAId : u.tableBId,
    score: u.score,
    alignment: u.alignment.map((a) => (flip ? { columnAId: a.columnBId, columnBId: a.columnAId, score: a.score } : a)),
  };
}

function hasAllEmbeddings(w: TableWrite): boolean {
  const n = w.table.profile.columns.length;
  if (n === 0) return true;
  const v = w.embeddings?.vectors;
  return !!v && v.length >= n && Array.from({ length: n }, (_, i) => v[i]).every(Boolean);
}

function finiteOrNull(x: number | null): number | null {
  return x !== null && Number.isFinite(x) ? x : null;
}

type RawTx = { $executeRawUnsafe(sql: string, ...values: unknown[]): Promise<number> };

async function insertEmbeddings(tx: RawTx, columnIds: string[], model: string, vectors: ArrayLike<number>[]) {
  const values: unknown[] = [];
  const rows: string[] = [];
  columnIds.forEach((id, i) => {
    const v = vectors[i];
    if (!v) return;
    values.push(id, model, toVectorLiteral(v));
    const k = values.length;
    rows.push(`($${k - 2}::uuid, $${k - 1}, $${k}::vector)`);
  });
  if (rows.length === 0) return;
  await tx.$executeRawUnsafe(
    `INSERT INTO column_embedding (column_id, model, embedding) VALUES ${rows.join(', ')}`,
    ...values,
  );
}
