/**
 * The catalog as the benchmark's retrieval methods see it, loaded once per run: tables with
 * their columns (names, types, sample/top values, embeddings), a table vector each, and the
 * join/union graph. Restricted to the tables of one lake folder, so a catalog that also holds
 * other lakes still benchmarks only the lake under test.
 */
import path from 'node:path';
import type { CatalogDatabase } from '../catalog/database.js';
import { readColumnCorpus, readColumnEmbeddings, readJoinEdges, readReadyTables, readUnionEdges } from '../catalog/read.js';
import { columnEmbeddingText, type Embedder } from '../embed/index.js';
import { isCorpusFitted } from '../ingest/refreshEmbeddings.js';

export interface ViewColumn {
  id: string;
  name: string;
  ordinal: number;
  logicalType: string;
  uniqueness: number;
  distinctEstimate: number;
  sampleValues: string[];
  topValues: string[];
  embedding: Float32Array | null;
}

export interface ViewTable {
  id: string;
  /** Catalog name (for a lake file: its stem). */
  name: string;
  uri: string;
  /** File stem of the uri: the name gold sets use. */
  stem: string;
  rowCount: number;
  columns: ViewColumn[];
  /** Mean of the column embeddings, re-normalised; null when no column has one. */
  vector: Float32Array | null;
}

export interface ViewJoin {
  fromTableId: string;
  toTableId: string;
  fromColumnId: string;
  toColumnId: string;
  score: number;
}

export interface ViewUnion {
  tableAId: string;
  tableBId: string;
  score: number;
}

/** Strongest join and union evidence between two tables. */
export interface TableLink {
  join: number;
  union: number;
}

export class CatalogView {
  readonly tableById = new Map<string, ViewTable>();
  readonly tableByStem = new Map<string, ViewTable>();
  private readonly links = new Map<string, Map<string, TableLink>>();

  constructor(
    readonly tables: ViewTable[],
    readonly joins: ViewJoin[],
    readonly unions: ViewUnion[],
    /** Embedder id of the vectors in this view. */
    readonly embedderId: string,
  ) {
    for (const t of tables) {
      this.tableById.set(t.id, t);
      this.tableByStem.set(t.stem, t);
      this.links.set(t.id, new Map());
    }
    const link = (a: string, b: string): TableLink | undefined => {
      const m = this.links.get(a);
      if (!m || !this.links.has(b) || a === b) return undefined;
      let l = m.get(b);
      if (!l) m.set(b, (l = { join: 0, union: 0 }));
      return l;
    };
    for (const j of joins) {
      for (const [a, b] of [[j.fromTableId, j.toTableId], [j.toTableId, j.fromTableId]]) {
        const l = link(a, b);
        if (l) l.join = Math.max(l.join, j.score);
      }
    }
    for (const u of unions) {
      for (const [a, b] of [[u.tableAId, u.tableBId], [u.tableBId, u.tableAId]]) {
        const l = link(a, b);
        if (l) l.union = Math.max(l.union, u.score);
      }
    }
  }

  /** Join / union strength between two tables (0, 0 when unlinked). */
  link(a: string, b: string): TableLink {
    return this.links.get(a)?.get(b) ?? { join: 0, union: 0 };
  }

  /** Neighbours of a table with their link strengths. */
  neighbours(id: string): ReadonlyMap<string, TableLink> {
    return this.links.get(id) ?? new Map();
  }

  /**
   * Loads the ready tables of the catalog (only those under `lakeDir` when given). Column
   * vectors are the stored ones when the catalog was embedded by `embedder`; otherwise (or
   * for columns without one) they are computed here, in memory. A corpus-fitted embedder is
   * fitted on every column text of the catalog first, exactly as ingest does, so questions
   * and stored columns share one space.
   */
  static async load(db: CatalogDatabase, embedder: Embedder, opts: { lakeDir?: string } = {}): Promise<CatalogView> {
    const all = await readReadyTables(db);
    if (isCorpusFitted(embedder)) {
      // Same corpus and order as refreshEmbeddings: every column of the catalog.
      embedder.fit((await readColumnCorpus(db)).map((r) => columnEmbeddingText(r.tableName, r)));
    }
    const root = opts.lakeDir ? path.resolve(opts.lakeDir) + path.sep : null;
    const chosen = root ? all.filter((t) => t.uri.startsWith(root)) : all;
    const ids = new Set(chosen.map((t) => t.id));

    const stored = await readColumnEmbeddings(db, embedder.id);
    const missing: { tableName: string; col: { id: string; name: string; sampleValues: string[] } }[] = [];
    for (const t of chosen) for (const c of t.columns) if (!stored.has(c.id)) missing.push({ tableName: t.name, col: c });
    const computed = new Map<string, Float32Array>();
    for (let i = 0; i < missing.length; i += 256) {
      const batch = missing.slice(i, i + 256);
      const vs = await embedder.embed(batch.map((m) => columnEmbeddingText(m.tableName, m.col)));
      batch.forEach((m, k) => computed.set(m.col.id, vs[k]));
    }

    const tables: ViewTable[] = chosen.map((t) => {
      const columns: ViewColumn[] = t.columns.map((c) => {
        const s = stored.get(c.id);
        return {
          id: c.id,
          name: c.name,
          ordinal: c.ordinal,
          logicalType: c.logicalType,
          uniqueness: c.uniqueness,
          distinctEstimate: c.distinctEstimate,
          sampleValues: c.sampleValues,
          topValues: c.topValues,
          embedding: s ?? computed.get(c.id) ?? null,
        };
      });
      return {
        id: t.id,
        name: t.name,
        uri: t.uri,
        stem: uriStem(t.uri),
        rowCount: Number(t.rowCount),
        columns,
        vector: meanVector(columns.map((c) => c.embedding)),
      };
    });
    const joins = (await readJoinEdges(db)).filter((j) => ids.has(j.fromTableId) && ids.has(j.toTableId));
    const unions = (await readUnionEdges(db)).filter((u) => ids.has(u.tableAId) && ids.has(u.tableBId));
    return new CatalogView(tables, joins, unions, embedder.id);
  }
}

/** `…/singer_1a2b3c4d.parquet` -> `singer_1a2b3c4d`; `db.sqlite#t` -> `t`. */
export function uriStem(uri: string): string {
  const hash = uri.lastIndexOf('#');
  if (hash >= 0) return uri.slice(hash + 1);
  const base = path.basename(uri);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

/** Mean of unit vectors, re-normalised to unit length; null when there is none. */
export function meanVector(vs: (ArrayLike<number> | null)[]): Float32Array | null {
  const present = vs.filter((v): v is ArrayLike<number> => v !== null && v.length > 0);
  if (present.length === 0) return null;
  const dim = present[0].length;
  const acc = new Float64Array(dim);
  for (const v of present) for (let i = 0; i < dim; i++) acc[i] += v[i];
  let sq = 0;
  for (let i = 0; i < dim; i++) sq += acc[i] * acc[i];
  if (sq === 0) return null;
  const inv = 1 / Math.sqrt(sq);
  const out = new Float32Array(dim);
  for (let i = 0; i < dim; i++) out[i] = acc[i] * inv;
  return out;
}

export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}
