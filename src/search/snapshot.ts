import path from 'node:path';
import type { CatalogDatabase } from '../catalog/database.js';
import {
  decodeValueHashes,
  readColumnEmbeddings,
  readJoinEdges,
  readMajorityEmbeddingModel,
  readReadyTables,
  readUnionEdges,
  type StoredJoinEdge,
  type StoredUnionEdge,
} from '../catalog/read.js';
import type { TableFilter } from '../catalog/visibility.js';
import { InMemoryVocabulary, type InMemoryVocabularyTable } from '../intent/index.js';
import { readsAsFolder } from '../lake/source.js';
import type { CsvReadOptions, LakeFormat } from '../lake/types.js';

export interface SnapshotColumn {
  id: string;
  tableId: string;
  name: string;
  ordinal: number;
  logicalType: string;
  uniqueness: number;
  distinctEstimate: number;
  sampleValues: string[];
  topValues: string[];
  /** Hashes of its values beyond `topValues` (`ColumnProfile.valueHashes`, ascending); absent or null when `topValues` holds them all. */
  valueHashes?: Float64Array | null;
  minhash: number[];
  numericMin: number | null;
  numericMax: number | null;
  embedding: Float32Array | null;
}

export interface SnapshotTable {
  id: string;
  name: string;
  uri: string;
  format: LakeFormat;
  /** Basename of the lake root the table came from (what API grants match against). */
  sourceRoot: string;
  /**
   * The lake root's recorded path (`LakeSource.rootPath`): fused SQL and previews read the
   * table's files only within it (src/lake/confine.ts). Absent in snapshots built by hand.
   */
  sourceRootPath?: string;
  rowCount: number;
  /** For CSV: the read options profiling settled on; absent = sniff the file when reading it. */
  csv?: CsvReadOptions;
  /**
   * Whether the table read as a partitioned folder when the snapshot was loaded (`readsAsFolder`:
   * a CSV or Parquet uri that is a folder; false for every other format), so the fused SQL of
   * every answer need not look again. Absent (snapshots built by hand): looked at when planned.
   */
  folder?: boolean;
  columns: SnapshotColumn[];
}

/** Edges as stored (the fusion planner takes them in the same shape, unchanged). */
export type SnapshotJoin = StoredJoinEdge;
export type SnapshotUnion = StoredUnionEdge;

/** One neighbour of a table in the lake graph, with the strongest edge that links them. */
export interface Neighbour {
  tableId: string;
  kind: 'join' | 'union';
  score: number;
}

/**
 * The catalog held in memory for question answering: tables, columns with embeddings, and the
 * join/union graph with adjacency lists. Loaded once and reused across questions (the search
 * must not touch the database per question); `restrict` gives the view a caller may see.
 */
export class LakeSnapshot {
  readonly tableById = new Map<string, SnapshotTable>();
  readonly columnById = new Map<string, SnapshotColumn>();
  readonly adjacency = new Map<string, Neighbour[]>();
  /** Position of each table in uri order: ties break on it, so answers do not depend on generated ids. */
  readonly rank = new Map<string, number>();
  private vocabularyCache?: InMemoryVocabulary;
  private unionIndex?: Map<string, Map<string, SnapshotUnion>>;
  private referenceIndex?: Map<string, SnapshotJoin[]>;

  constructor(
    readonly tables: SnapshotTable[],
    readonly joins: SnapshotJoin[],
    readonly unions: SnapshotUnion[],
    readonly embedderId: string | null,
  ) {
    [...tables].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0)).forEach((t, i) => this.rank.set(t.id, i));
    for (const t of tables) {
      this.tableById.set(t.id, t);
      this.adjacency.set(t.id, []);
      for (const c of t.columns) this.columnById.set(c.id, c);
    }
    const best = new Map<string, Neighbour>();
    const link = (a: string, b: string, kind: 'join' | 'union', score: number) => {
      const key = `${a}|${b}`;
      const cur = best.get(key);
      // A union edge describes the closer relation (same schema) and wins over a join of equal score.
      if (!cur || score > cur.score || (kind === 'union' && cur.kind === 'join' && score >= cur.score * 0.9)) {
        best.set(key, { tableId: b, kind, score });
      }
    };
    for (const j of joins) {
      if (!this.tableById.has(j.fromTableId) || !this.tableById.has(j.toTableId)) continue;
      link(j.fromTableId, j.toTableId, 'join', j.score);
      link(j.toTableId, j.fromTableId, 'join', j.score);
    }
    for (const u of unions) {
      if (!this.tableById.has(u.tableAId) || !this.tableById.has(u.tableBId)) continue;
      link(u.tableAId, u.tableBId, 'union', u.score);
      link(u.tableBId, u.tableAId, 'union', u.score);
    }
    for (const [key, n] of best) this.adjacency.get(key.split('|')[0])!.push(n);
    for (const list of this.adjacency.values()) list.sort((x, y) => y.score - x.score || this.compare(x.tableId, y.tableId));
  }

  static async load(db: CatalogDatabase): Promise<LakeSnapshot> {
    const tables = await readReadyTables(db);
    // Vectors of different models live in different spaces: keep the majority model's only.
    const model = await readMajorityEmbeddingModel(db);
    const embeddings = model ? await readColumnEmbeddings(db, model) : new Map<string, Float32Array>();
    const [joins, unions] = [await readJoinEdges(db), await readUnionEdges(db)];
    return new LakeSnapshot(
      tables.map((t) => ({
        id: t.id,
        name: t.name,
        uri: t.uri,
        format: t.format as LakeFormat,
        sourceRoot: path.basename(t.source.rootPath),
        sourceRootPath: t.source.rootPath,
        rowCount: Number(t.rowCount),
        ...(t.csvOptions ? { csv: t.csvOptions as CsvReadOptions } : {}),
        folder: readsAsFolder({ path: t.uri, format: t.format as LakeFormat }),
        columns: t.columns.map((c) => ({
          id: c.id,
          tableId: t.id,
          name: c.name,
          ordinal: c.ordinal,
          logicalType: c.logicalType,
          uniqueness: c.uniqueness,
          distinctEstimate: c.distinctEstimate,
          sampleValues: c.sampleValues,
          topValues: c.topValues,
          valueHashes: decodeValueHashes(c.valueHashes),
          minhash: c.minhash,
          numericMin: c.numericMin,
          numericMax: c.numericMax,
          embedding: embeddings.get(c.id) ?? null,
        })),
      })),
      joins,
      unions,
      model,
    );
  }

  /** The part of the lake a caller may see; edges to hidden tables disappear with them. */
  restrict(allow?: TableFilter): LakeSnapshot {
    if (!allow) return this;
    const tables = this.tables.filter((t) => allow({ id: t.id, name: t.name, uri: t.uri, sourceRoot: t.sourceRoot }));
    const keep = new Set(tables.map((t) => t.id));
    return new LakeSnapshot(
      tables,
      this.joins.filter((j) => keep.has(j.fromTableId) && keep.has(j.toTableId)),
      this.unions.filter((u) => keep.has(u.tableAId) && keep.has(u.tableBId)),
      this.embedderId,
    );
  }

  /** Deterministic tie-break between two tables (uri order). */
  compare(a: string, b: string): number {
    return (this.rank.get(a) ?? 0) - (this.rank.get(b) ?? 0);
  }

  neighbours(tableId: string): Neighbour[] {
    return this.adjacency.get(tableId) ?? [];
  }

  /** Tables, column names and text values, for grounding an intent graph in this lake. */
  vocabulary(): InMemoryVocabulary {
    if (!this.vocabularyCache) {
      const vt: InMemoryVocabularyTable[] = this.tables.map((t) => ({
        id: t.id,
        name: t.name,
        columns: t.columns.map((c) => ({
          id: c.id,
          name: c.name,
          logicalType: c.logicalType,
          values: c.logicalType === 'text' ? c.topValues : [],
          valueHashes: c.logicalType === 'text' ? c.valueHashes : null,
        })),
      }));
      this.vocabularyCache = new InMemoryVocabulary(vt);
    }
    return this.vocabularyCache;
  }

  /** The union edge between two tables, if any. */
  unionBetween(a: string, b: string): SnapshotUnion | undefined {
    if (!this.unionIndex) {
      // Nested by table (no pair-key strings): the search asks this for many pairs per set.
      const index = new Map<string, Map<string, SnapshotUnion>>();
      const put = (x: string, y: string, u: SnapshotUnion) => {
        let m = index.get(x);
        if (!m) index.set(x, (m = new Map()));
        m.set(y, u);
      };
      for (const u of this.unions) {
        put(u.tableAId, u.tableBId, u);
        put(u.tableBId, u.tableAId, u);
      }
      this.unionIndex = index;
    }
    return this.unionIndex.get(a)?.get(b);
  }

  /** The joins from this column into a key of another table (it is `f` of `f -> k`), strongest first. */
  referencesFrom(columnId: string): readonly SnapshotJoin[] {
    if (!this.referenceIndex) {
      const index = new Map<string, SnapshotJoin[]>();
      for (const j of this.joins) {
        if (!this.tableById.has(j.fromTableId) || !this.tableById.has(j.toTableId)) continue;
        let list = index.get(j.fromColumnId);
        if (!list) index.set(j.fromColumnId, (list = []));
        list.push(j);
      }
      for (const list of index.values()) list.sort((x, y) => y.score - x.score || this.compare(x.toTableId, y.toTableId));
      this.referenceIndex = index;
    }
    return this.referenceIndex.get(columnId) ?? [];
  }
}
