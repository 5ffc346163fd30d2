/**
 * Incremental join / union discovery over a lake's column profiles.
 *
 * Each column is filed under LSH / token keys that depend on that column alone; a new table is
 * only compared with indexed columns and tables that share a key, and every pair verdict is a
 * symmetric function of the pair. Hence ingesting tables one by one, in any order, yields the
 * same edge set as a bulk build, and no step compares all pairs.
 */
import { BadInputError, NotFoundError } from '../util/errors.js';
import { bestJoin } from './joinRules.js';
import { minhashBandKeys, PostingIndex, simhashBandKeys } from './lsh.js';
import { headerSignature, prepareTable, type PreparedColumn, type PreparedTable } from './prepared.js';
import { scoreUnion } from './unionRules.js';
import {
  DEFAULT_GRAPH_OPTIONS,
  type GraphEdges,
  type GraphOptions,
  type GraphTable,
  type JoinEdgeCandidate,
  type UnionEdgeCandidate,
} from './types.js';

interface IndexedColumn {
  handle: number;
  prepared: PreparedColumn;
  tableHandle: number;
  /** Value LSH keys (only join-eligible columns with specific values). */
  valueKeys: number[];
  /** Embedding LSH keys (only join-eligible columns with an embedding). */
  embeddingKeys: number[];
  /** family|token for the non-generic tokens of the column name. */
  nameTokenKeys: string[];
  /** family|token for the non-generic tokens of column name + table name (key-like columns). */
  keyTokenKeys: string[];
  /** `oneToOneKey` (count and range) of a join-eligible unique integer column; empty otherwise. */
  oneToOneKeys: string[];
}

interface IndexedTable {
  handle: number;
  prepared: PreparedTable;
  columns: IndexedColumn[];
  headerKeys: number[];
}

const SEP = '\u0001';

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function joinKey(e: JoinEdgeCandidate): string {
  return e.fromColumnId + SEP + e.toColumnId;
}

function unionKey(e: UnionEdgeCandidate): string {
  return e.tableAId + SEP + e.tableBId;
}

function sortJoins(edges: JoinEdgeCandidate[]): JoinEdgeCandidate[] {
  return edges.sort((x, y) => compareStrings(x.fromColumnId, y.fromColumnId) || compareStrings(x.toColumnId, y.toColumnId));
}

function sortUnions(edges: UnionEdgeCandidate[]): UnionEdgeCandidate[] {
  return edges.sort((x, y) => compareStrings(x.tableAId, y.tableAId) || compareStrings(x.tableBId, y.tableBId));
}

function checkUnit(value: number, field: string, where: string): void {
  if (!(typeof value === 'number' && value >= 0 && value <= 1)) {
    throw new BadInputError(`${where}: ${field} must be a number in [0,1], got ${String(value)}`, { field });
  }
}

export class LakeGraphIndex {
  readonly options: Readonly<GraphOptions>;
  /** Cumulative work counters: column pairs verified, table pairs scored (shows LSH pruning). */
  readonly stats = { joinPairsVerified: 0, unionPairsScored: 0 };
  private readonly tables = new Map<string, IndexedTable>();
  private readonly tablesByHandle = new Map<number, IndexedTable>();
  private readonly columns = new Map<number, IndexedColumn>();
  private readonly columnIds = new Set<string>();
  private nextHandle = 1;
  private signatureLength: number | null = null;
  private embeddingLength: number | null = null;

  // Value and embedding buckets hold every column ("any") and, separately, key-like columns
  // ("key"): a join needs a key side, so a new column looks up keys as a foreign column and,
  // when key-like itself, any column. Two non-key columns are never compared.
  private readonly valueAnyIndex = new PostingIndex<number>();
  private readonly valueKeyIndex = new PostingIndex<number>();
  private readonly embeddingAnyIndex = new PostingIndex<number>();
  private readonly embeddingKeyIndex = new PostingIndex<number>();
  private readonly nameTokenIndex = new PostingIndex<string>();
  private readonly keyTokenIndex = new PostingIndex<string>();
  private readonly headerIndex = new PostingIndex<number>();
  private readonly headerShapeIndex = new PostingIndex<string>();
  /** Unique integer columns by count and range (`oneToOneKey`): their values say nothing specific, so the value LSH leaves them out. */
  private readonly oneToOneIndex = new PostingIndex<string>();

  private readonly joins = new Map<string, JoinEdgeCandidate>();
  private readonly unions = new Map<string, UnionEdgeCandidate>();
  /** table id -> keys of its edges ('j' + joinKey, 'u' + unionKey), for removal. */
  private readonly edgeKeysByTable = new Map<string, Set<string>>();

  constructor(options: Partial<GraphOptions> = {}) {
    const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
    this.options = Object.freeze({ ...DEFAULT_GRAPH_OPTIONS, ...given });
  }

  /** Index all tables (in the given order; the resulting edge set does not depend on it). */
  static build(tables: Iterable<GraphTable>, options: Partial<GraphOptions> = {}): LakeGraphIndex {
    const index = new LakeGraphIndex(options);
    for (const t of tables) index.addTable(t);
    return index;
  }

  get size(): number {
    return this.tables.size;
  }

  has(tableId: string): boolean {
    return this.tables.has(tableId);
  }

  tableIds(): string[] {
    return [...this.tables.keys()].sort(compareStrings);
  }

  /**
   * Compute the edges between `table` and the tables already indexed, then index it.
   * Returns only the new edges (joins sorted by from/to column id, unions by table ids).
   */
  addTable(table: GraphTable): GraphEdges {
    this.validate(table);
    const opts = this.options;
    const prepared = prepareTable(table, opts);
    const tableHandle = this.nextHandle++;
    const indexed: IndexedTable = { handle: tableHandle, prepared, columns: [], headerKeys: [] };
    for (const pc of prepared.columns) indexed.columns.push(this.describeColumn(pc, tableHandle));
    const headerSig = headerSignature(prepared, opts.headerLshBands * opts.headerLshRows);
    indexed.headerKeys = headerSig ? minhashBandKeys(headerSig, opts.headerLshBands, opts.headerLshRows) : [];

    // Joins: each new column against indexed columns sharing a value, name or embedding key.
    const newJoins: JoinEdgeCandidate[] = [];
    const unionCandidates = new Set<number>();
    for (const c of indexed.columns) {
      if (!c.prepared.joinEligible) continue;
      const seen = new Set<number>();
      const visit = (handle: number) => {
        if (seen.has(handle)) return;
        seen.add(handle);
        const other = this.columns.get(handle)!;
        this.stats.joinPairsVerified++;
        const edge = bestJoin(c.prepared, other.prepared, opts);
        if (edge) newJoins.push(edge);
      };
      const keyLike = c.prepared.keyLike;
      for (const key of c.valueKeys) {
        for (const h of this.valueKeyIndex.get(key) ?? []) {
          unionCandidates.add(this.columns.get(h)!.tableHandle);
          visit(h);
        }
        if (!keyLike) continue;
        for (const h of this.valueAnyIndex.get(key) ?? []) {
          unionCandidates.add(this.columns.get(h)!.tableHandle);
          visit(h);
        }
      }
      for (const key of c.oneToOneKeys) for (const h of this.oneToOneIndex.get(key) ?? []) visit(h);
      for (const key of c.nameTokenKeys) for (const h of this.keyTokenIndex.get(key) ?? []) visit(h);
      for (const key of c.keyTokenKeys) for (const h of this.nameTokenIndex.get(key) ?? []) visit(h);
      for (const key of c.embeddingKeys) {
        for (const h of this.embeddingKeyIndex.get(key) ?? []) visit(h);
        if (keyLike) for (const h of this.embeddingAnyIndex.get(key) ?? []) visit(h);
      }
    }

    // Unions: tables with a similar header (LSH over non-generic name tokens), an identical
    // header, or a specific-value bucket shared with a key-like column (collected above).
    // Tables sharing only generic names are not candidates: unless their headers are
    // identical, such a union scores at most genericOnlyUnionFactor (< unionMinScore).
    for (const key of indexed.headerKeys) for (const h of this.headerIndex.get(key) ?? []) unionCandidates.add(h);
    for (const h of this.headerShapeIndex.get(prepared.headerShape) ?? []) unionCandidates.add(h);
    const newUnions: UnionEdgeCandidate[] = [];
    // Aligned columns of one table's row shards or copies (every column of both aligned, or one
    // name) are the same attribute, not a join. Two tables of their own that share some columns
    // are not: a table of residents' services repeats the resident's id and move-in date, and
    // refers to the residents table by that id.
    const aligned = new Set<string>();
    for (const h of unionCandidates) {
      const other = this.tablesByHandle.get(h)!;
      const [a, b] = compareStrings(table.id, other.prepared.table.id) < 0 ? [prepared, other.prepared] : [other.prepared, prepared];
      this.stats.unionPairsScored++;
      const edge = scoreUnion(a, b, opts);
      if (!edge) continue;
      newUnions.push(edge);
      const oneSchema = edge.alignment.length === a.columns.length && edge.alignment.length === b.columns.length;
      if (!oneSchema && !sameWords(a.stemTokens, b.stemTokens)) continue;
      for (const p of edge.alignment) {
        aligned.add(p.columnAId + SEP + p.columnBId);
        aligned.add(p.columnBId + SEP + p.columnAId);
      }
    }
    const joins = newJoins.filter((e) => !aligned.has(joinKey(e)));

    this.insert(indexed);
    for (const e of joins) this.storeEdge('j' + joinKey(e), e.fromTableId, e.toTableId, () => this.joins.set(joinKey(e), e));
    for (const e of newUnions) this.storeEdge('u' + unionKey(e), e.tableAId, e.tableBId, () => this.unions.set(unionKey(e), e));
    return { joins: sortJoins(joins), unions: sortUnions(newUnions) };
  }

  /** Remove a table, its columns and every edge touching it. */
  removeTable(tableId: string): void {
    const t = this.tables.get(tableId);
    if (!t) throw new NotFoundError(`table ${tableId} is not indexed`, { tableId });
    for (const c of t.columns) {
      for (const k of c.valueKeys) {
        this.valueAnyIndex.remove(k, c.handle);
        if (c.prepared.keyLike) this.valueKeyIndex.remove(k, c.handle);
      }
      for (const k of c.embeddingKeys) {
        this.embeddingAnyIndex.remove(k, c.handle);
        if (c.prepared.keyLike) this.embeddingKeyIndex.remove(k, c.handle);
      }
      for (const k of c.nameTokenKeys) this.nameTokenIndex.remove(k, c.handle);
      for (const k of c.keyTokenKeys) this.keyTokenIndex.remove(k, c.handle);
      for (const k of c.oneToOneKeys) this.oneToOneIndex.remove(k, c.handle);
      this.columns.delete(c.handle);
      this.columnIds.delete(c.prepared.col.id);
    }
    for (const k of t.headerKeys) this.headerIndex.remove(k, t.handle);
    this.headerShapeIndex.remove(t.prepared.headerShape, t.handle);
    for (const key of this.edgeKeysByTable.get(tableId) ?? []) {
      const edge = key[0] === 'j' ? this.joins.get(key.slice(1)) : this.unions.get(key.slice(1));
      if (!edge) continue;
      const [x, y] = 'fromTableId' in edge ? [edge.fromTableId, edge.toTableId] : [edge.tableAId, edge.tableBId];
      const other = x === tableId ? y : x;
      this.edgeKeysByTable.get(other)?.delete(key);
      if (key[0] === 'j') this.joins.delete(key.slice(1));
      else this.unions.delete(key.slice(1));
    }
    this.edgeKeysByTable.delete(tableId);
    this.tables.delete(tableId);
    this.tablesByHandle.delete(t.handle);
  }

  /** Every edge among the indexed tables, sorted as addTable sorts them. */
  allEdges(): GraphEdges {
    return { joins: sortJoins([...this.joins.values()]), unions: sortUnions([...this.unions.values()]) };
  }

  /** Edges touching one table. */
  edgesOf(tableId: string): GraphEdges {
    if (!this.tables.has(tableId)) throw new NotFoundError(`table ${tableId} is not indexed`, { tableId });
    const joins: JoinEdgeCandidate[] = [];
    const unions: UnionEdgeCandidate[] = [];
    for (const key of this.edgeKeysByTable.get(tableId) ?? []) {
      if (key[0] === 'j') joins.push(this.joins.get(key.slice(1))!);
      else unions.push(this.unions.get(key.slice(1))!);
    }
    return { joins: sortJoins(joins), unions: sortUnions(unions) };
  }

  private describeColumn(pc: PreparedColumn, tableHandle: number): IndexedColumn {
    const opts = this.options;
    const handle = this.nextHandle++;
    const fam = pc.joinFamily + '|';
    const eligible = pc.joinEligible;
    const valueKeys =
      eligible && pc.specificity >= opts.specificityMin
        ? minhashBandKeys(pc.col.minhash, opts.valueLshBands, opts.valueLshRows, pc.joinFamilyIndex)
        : [];
    const embeddingKeys =
      eligible && pc.embedding
        ? simhashBandKeys(pc.embedding, opts.embeddingLshBands, opts.embeddingLshBits, pc.joinFamilyIndex)
        : [];
    // The whole name too (as `=letters`): `stuid` finds `StuID`, which splits into other tokens.
    const compact = pc.genericOnly ? [] : [`=${pc.compactName}`];
    const nameTokenKeys = eligible ? [...pc.coreTokens, ...compact].map((t) => fam + t) : [];
    let keyTokenKeys: string[] = [];
    if (eligible && pc.keyLike) {
      // Words closing a compound table name too: `hero_id` finds superhero.`id`.
      keyTokenKeys = [...new Set([...pc.coreTokens, ...pc.table.coreNameTokens, ...pc.table.compoundTails, ...compact])].map((t) => fam + t);
    }
    const oneToOneKeys = eligible && pc.oneToOneKey !== null ? [pc.oneToOneKey] : [];
    return { handle, prepared: pc, tableHandle, valueKeys, embeddingKeys, nameTokenKeys, keyTokenKeys, oneToOneKeys };
  }

  private insert(t: IndexedTable): void {
    this.tables.set(t.prepared.table.id, t);
    this.tablesByHandle.set(t.handle, t);
    this.edgeKeysByTable.set(t.prepared.table.id, new Set());
    for (const k of t.headerKeys) this.headerIndex.add(k, t.handle);
    this.headerShapeIndex.add(t.prepared.headerShape, t.handle);
    for (const c of t.columns) {
      this.columns.set(c.handle, c);
      this.columnIds.add(c.prepared.col.id);
      for (const k of c.valueKeys) {
        this.valueAnyIndex.add(k, c.handle);
        if (c.prepared.keyLike) this.valueKeyIndex.add(k, c.handle);
      }
      for (const k of c.embeddingKeys) {
        this.embeddingAnyIndex.add(k, c.handle);
        if (c.prepared.keyLike) this.embeddingKeyIndex.add(k, c.handle);
      }
      for (const k of c.nameTokenKeys) this.nameTokenIndex.add(k, c.handle);
      for (const k of c.keyTokenKeys) this.keyTokenIndex.add(k, c.handle);
      for (const k of c.oneToOneKeys) this.oneToOneIndex.add(k, c.handle);
    }
  }

  private storeEdge(key: string, tableX: string, tableY: string, put: () => void): void {
    put();
    this.edgeKeysByTable.get(tableX)!.add(key);
    this.edgeKeysByTable.get(tableY)!.add(key);
  }

  private validate(table: GraphTable): void {
    if (typeof table.id !== 'string' || table.id === '') {
      throw new BadInputError(`table ${JSON.stringify(table.name)}: id must be a non-empty string`, { field: 'id' });
    }
    const where = `table ${table.id}`;
    if (this.tables.has(table.id)) {
      throw new BadInputError(`${where}: already indexed (remove it first to replace it)`, { tableId: table.id });
    }
    if (!Array.isArray(table.columns)) throw new BadInputError(`${where}: columns must be an array`, { field: 'columns' });
    const ids = new Set<string>();
    let sigLength = this.signatureLength;
    let embLength = this.embeddingLength;
    for (const c of table.columns) {
      const cw = `${where}, column ${c.id} (${c.name})`;
      if (typeof c.id !== 'string' || c.id === '') throw new BadInputError(`${where}: column id must be a non-empty string`, { field: 'columns.id' });
      if (ids.has(c.id) || this.columnIds.has(c.id)) throw new BadInputError(`${cw}: duplicate column id`, { field: 'columns.id' });
      ids.add(c.id);
      if (c.tableId !== table.id) throw new BadInputError(`${cw}: tableId is ${c.tableId}, expected ${table.id}`, { field: 'columns.tableId' });
      checkUnit(c.uniqueness, 'uniqueness', cw);
      checkUnit(c.nullShare, 'nullShare', cw);
      if (!(c.distinctEstimate >= 0)) throw new BadInputError(`${cw}: distinctEstimate must be >= 0`, { field: 'distinctEstimate' });
      if (!Array.isArray(c.minhash)) throw new BadInputError(`${cw}: minhash must be an array`, { field: 'minhash' });
      if (c.minhash.length > 0) {
        if (sigLength === null) sigLength = c.minhash.length;
        else if (c.minhash.length !== sigLength) {
          throw new BadInputError(`${cw}: minhash has ${c.minhash.length} slots, the index uses ${sigLength}`, { field: 'minhash' });
        }
      }
      if (c.embedding && c.embedding.length > 0) {
        if (embLength === null) embLength = c.embedding.length;
        else if (c.embedding.length !== embLength) {
          throw new BadInputError(`${cw}: embedding has ${c.embedding.length} dimensions, the index uses ${embLength}`, { field: 'embedding' });
        }
      }
    }
    this.signatureLength = sigLength;
    this.embeddingLength = embLength;
  }
}

function sameWords(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((w) => b.has(w));
}
