import type { CatalogDatabase } from './database.js';
import type { CachedColumn, CatalogReadCache } from './readCache.js';
import { hashedValueCountSql } from './valueHashes.js';
import { visibleTableSql } from './visibility.js';

/**
 * A caller's access condition in SQL (the API's GrantScope is one): appends its parameters to
 * `params` and returns a condition on the lake_table alias `t` joined to its source alias `s`.
 */
export interface SqlScope {
  sql(params: unknown[], t?: string, s?: string): string;
  /** The same condition on one table (for rows served from a CatalogReadCache). */
  allows(sourceRoot: string, tableName: string): boolean;
}

/** Every visible table: what a shared CatalogReadCache's by-id maps are filled with. */
const UNSCOPED: SqlScope = { sql: () => 'TRUE', allows: () => true };

/** Sort key of a table page: (name, id). */
export type TableKey = [name: string, id: string];
/** Sort key of a column page: (table name, table id, ordinal). */
export type ColumnKey = [tableName: string, tableId: string, ordinal: number];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids that are not uuids match no row: they are dropped before they reach a `::uuid` cast. */
export function isUuid(s: string): boolean {
  return UUID.test(s);
}

/**
 * Grant-scoped catalog reads, one page or one batch at a time (what the GraphQL API serves;
 * api/catalog/reader.ts is its name there). Every statement carries the caller's scope in SQL,
 * so an ungranted table never leaves the database: not as a row, not as a neighbour, not in a
 * count. Each method is ONE statement whatever the number of ids (the DataLoaders batch into
 * them), which is what keeps a page of tables with columns and neighbours at a bounded number
 * of round trips. (Loading the whole catalog into memory goes through read.ts instead.)
 */

export interface TableRow {
  id: string;
  sourceId: string;
  /** Absolute root path of the source; grants match its basename. */
  sourceRoot: string;
  name: string;
  uri: string;
  format: string;
  rowCount: number;
  profiledRows: number;
  columnCount: number;
  fingerprint: string;
  state: string;
  warnings: string[];
  ingestedAt: Date;
}

export interface ColumnRow {
  id: string;
  tableId: string;
  tableName: string;
  name: string;
  ordinal: number;
  logicalType: string;
  nullShare: number;
  distinctEstimate: number;
  uniqueness: number;
  sampleValues: string[];
  topValues: string[];
  /** Distinct values the catalog keeps as hashes (`lake_column.value_hashes`; 0 when the top values hold them all). */
  hashedValues: number;
  numericMin: number | null;
  numericMax: number | null;
  avgLength: number;
}

export interface JoinNeighbourRow {
  /** The table asked about. */
  localTableId: string;
  tableId: string;
  tableName: string;
  localColumnId: string;
  localColumn: string;
  remoteColumnId: string;
  remoteColumn: string;
  score: number;
  /** Share of the local column's values found in the remote column. */
  containment: number;
  /** Share of the remote column's values found in the local column. */
  reverseContainment: number;
  jaccard: number;
  nameSimilarity: number;
  typeCompatible: boolean;
}

export interface UnionNeighbourRow {
  localTableId: string;
  tableId: string;
  tableName: string;
  score: number;
  /** Column pairs, local column first. */
  alignment: { localColumnId: string; remoteColumnId: string; score: number }[];
}

export interface TableFilterInputLike {
  nameContains?: string | null;
  source?: string | null;
  format?: string | null;
}

export interface ColumnFilterInputLike {
  nameContains?: string | null;
  logicalType?: string | null;
}

const TABLE_SELECT = `t.id::text AS id, t.source_id::text AS source_id, s.root_path, t.name, t.uri, t.format,
  t.row_count::float8 AS row_count, t.profiled_rows::float8 AS profiled_rows, t.column_count, t.fingerprint,
  t.state, t.warnings, t.ingested_at`;

const COLUMN_SELECT = `c.id::text AS id, c.table_id::text AS table_id, t.name AS table_name, c.name, c.ordinal,
  c.logical_type, c.null_share, c.distinct_estimate, c.uniqueness, c.sample_values, c.top_values,
  ${hashedValueCountSql('c')} AS hashed_values, c.numeric_min, c.numeric_max, c.avg_length`;

type Raw = Record<string, unknown>;

function json<T>(v: unknown, fallback: T): T {
  if (v === null || v === undefined) return fallback;
  if (typeof v === 'string') {
    try {
      return JSON.parse(v) as T;
    } catch {
      return fallback;
    }
  }
  return v as T;
}

function toTable(r: Raw): TableRow {
  return {
    id: String(r.id),
    sourceId: String(r.source_id),
    sourceRoot: String(r.root_path),
    name: String(r.name),
    uri: String(r.uri),
    format: String(r.format),
    rowCount: Number(r.row_count),
    profiledRows: Number(r.profiled_rows),
    columnCount: Number(r.column_count),
    fingerprint: String(r.fingerprint),
    state: String(r.state),
    warnings: json<unknown[]>(r.warnings, []).map(String),
    ingestedAt: r.ingested_at instanceof Date ? r.ingested_at : new Date(String(r.ingested_at)),
  };
}

function toColumn(r: Raw): ColumnRow {
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    id: String(r.id),
    tableId: String(r.table_id),
    tableName: String(r.table_name),
    name: String(r.name),
    ordinal: Number(r.ordinal),
    logicalType: String(r.logical_type),
    nullShare: Number(r.null_share),
    distinctEstimate: Number(r.distinct_estimate),
    uniqueness: Number(r.uniqueness),
    sampleValues: (r.sample_values as string[] | null) ?? [],
    topValues: (r.top_values as string[] | null) ?? [],
    hashedValues: Number(r.hashed_values),
    numericMin: num(r.numeric_min),
    numericMax: num(r.numeric_max),
    avgLength: Number(r.avg_length),
  };
}

/** ILIKE pattern for "contains", with the user's `%`, `_` and `\` taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, '\\$&')}%`;
}

export class CatalogReader {
  /** `cache`: a process-wide CatalogReadCache every read goes through (the API server's). */
  constructor(
    readonly db: CatalogDatabase,
    readonly scope: SqlScope,
    private readonly cache?: CatalogReadCache,
  ) {}

  private query(sql: string, params: unknown[]): Promise<Raw[]> {
    return this.cache ? this.cache.statement(sql, params, () => this.read(sql, params)) : this.read(sql, params);
  }

  private read(sql: string, params: unknown[]): Promise<Raw[]> {
    return this.db.sql.query<Raw>(sql, params);
  }

  private tableWhere(params: unknown[], filter: TableFilterInputLike | undefined): string {
    const conds = [visibleTableSql('t'), this.scope.sql(params)];
    if (filter?.nameContains) {
      params.push(containsPattern(filter.nameContains));
      conds.push(`t.name ILIKE $${params.length}`);
    }
    if (filter?.source) {
      params.push(filter.source);
      conds.push(`regexp_replace(s.root_path, '^.*/', '') = $${params.length}`);
    }
    if (filter?.format) {
      params.push(filter.format);
      conds.push(`t.format = $${params.length}`);
    }
    return conds.join(' AND ');
  }

  /** One page of granted tables ordered by (name, id), `limit + 1` rows to tell if more follow. */
  async tablePage(filter: TableFilterInputLike | undefined, limit: number, after?: TableKey): Promise<{ rows: TableRow[]; hasNext: boolean }> {
    const params: unknown[] = [];
    let where = this.tableWhere(params, filter);
    if (after) {
      params.push(after[0], after[1]);
      where += ` AND (t.name, t.id) > ($${params.length - 1}, $${params.length}::uuid)`;
    }
    params.push(limit + 1);
    const rows = await this.query(
      `SELECT ${TABLE_SELECT} FROM lake_table t JOIN source s ON s.id = t.source_id WHERE ${where}
       ORDER BY t.name, t.id LIMIT $${params.length}`,
      params,
    );
    return { rows: rows.slice(0, limit).map(toTable), hasNext: rows.length > limit };
  }

  async tableCount(filter: TableFilterInputLike | undefined): Promise<number> {
    const params: unknown[] = [];
    const where = this.tableWhere(params, filter);
    const [r] = await this.query(`SELECT count(*)::int AS n FROM lake_table t JOIN source s ON s.id = t.source_id WHERE ${where}`, params);
    return Number(r?.n ?? 0);
  }

  async tablesByIds(ids: readonly string[]): Promise<TableRow[]> {
    const valid = [...new Set(ids.filter(isUuid))];
    if (valid.length === 0) return [];
    if (!this.cache) return this.readTablesByIds(valid, this.scope);
    const rows = await this.cache.tablesByIds(valid, (missing) => this.readTablesByIds(missing, UNSCOPED));
    return rows.filter((t) => this.scope.allows(t.sourceRoot, t.name));
  }

  private async readTablesByIds(ids: string[], scope: SqlScope): Promise<TableRow[]> {
    const params: unknown[] = [ids];
    const rows = await this.read(
      `SELECT ${TABLE_SELECT} FROM lake_table t JOIN source s ON s.id = t.source_id
       WHERE t.id = ANY($1::uuid[]) AND ${visibleTableSql('t')} AND ${scope.sql(params)}`,
      params,
    );
    return rows.map(toTable);
  }

  private columnWhere(params: unknown[], tableId: string | undefined, filter: ColumnFilterInputLike | undefined): string {
    const conds = [visibleTableSql('t'), this.scope.sql(params)];
    if (tableId !== undefined) {
      params.push(tableId);
      conds.push(`c.table_id = $${params.length}::uuid`);
    }
    if (filter?.nameContains) {
      params.push(containsPattern(filter.nameContains));
      conds.push(`c.name ILIKE $${params.length}`);
    }
    if (filter?.logicalType) {
      params.push(filter.logicalType);
      conds.push(`c.logical_type = $${params.length}`);
    }
    return conds.join(' AND ');
  }

  /** Granted columns ordered by (table name, table id, ordinal). */
  async columnPage(
    tableId: string | undefined,
    filter: ColumnFilterInputLike | undefined,
    limit: number,
    after?: ColumnKey,
  ): Promise<{ rows: ColumnRow[]; hasNext: boolean }> {
    if (tableId !== undefined && !isUuid(tableId)) return { rows: [], hasNext: false };
    const params: unknown[] = [];
    let where = this.columnWhere(params, tableId, filter);
    if (after) {
      params.push(after[0], after[1], after[2]);
      where += ` AND (t.name, t.id, c.ordinal) > ($${params.length - 2}, $${params.length - 1}::uuid, $${params.length}::int)`;
    }
    params.push(limit + 1);
    const rows = await this.query(
      `SELECT ${COLUMN_SELECT} FROM lake_column c JOIN lake_table t ON t.id = c.table_id JOIN source s ON s.id = t.source_id
       WHERE ${where} ORDER BY t.name, t.id, c.ordinal LIMIT $${params.length}`,
      params,
    );
    return { rows: rows.slice(0, limit).map(toColumn), hasNext: rows.length > limit };
  }

  async columnCount(tableId: string | undefined, filter: ColumnFilterInputLike | undefined): Promise<number> {
    if (tableId !== undefined && !isUuid(tableId)) return 0;
    const params: unknown[] = [];
    const where = this.columnWhere(params, tableId, filter);
    const [r] = await this.query(
      `SELECT count(*)::int AS n FROM lake_column c JOIN lake_table t ON t.id = c.table_id JOIN source s ON s.id = t.source_id WHERE ${where}`,
      params,
    );
    return Number(r?.n ?? 0);
  }

  /** Columns of many tables, in ordinal order. */
  async columnsOfTables(tableIds: readonly string[]): Promise<ColumnRow[]> {
    const valid = [...new Set(tableIds.filter(isUuid))];
    if (valid.length === 0) return [];
    const params: unknown[] = [valid];
    const rows = await this.query(
      `SELECT ${COLUMN_SELECT} FROM lake_column c JOIN lake_table t ON t.id = c.table_id JOIN source s ON s.id = t.source_id
       WHERE c.table_id = ANY($1::uuid[]) AND ${visibleTableSql('t')} AND ${this.scope.sql(params)} ORDER BY c.table_id, c.ordinal`,
      params,
    );
    return rows.map(toColumn);
  }

  async columnsByIds(ids: readonly string[]): Promise<ColumnRow[]> {
    const valid = [...new Set(ids.filter(isUuid))];
    if (valid.length === 0) return [];
    if (!this.cache) return (await this.readColumnsByIds(valid, this.scope)).map((c) => c.row);
    const rows = await this.cache.columnsByIds(valid, (missing) => this.readColumnsByIds(missing, UNSCOPED));
    return rows.filter((c) => this.scope.allows(c.sourceRoot, c.row.tableName)).map((c) => c.row);
  }

  /** Columns by id, each with its table's source root (what a grant matches). */
  private async readColumnsByIds(ids: string[], scope: SqlScope): Promise<CachedColumn[]> {
    const params: unknown[] = [ids];
    const rows = await this.read(
      `SELECT ${COLUMN_SELECT}, s.root_path FROM lake_column c JOIN lake_table t ON t.id = c.table_id JOIN source s ON s.id = t.source_id
       WHERE c.id = ANY($1::uuid[]) AND ${visibleTableSql('t')} AND ${scope.sql(params)}`,
      params,
    );
    return rows.map((r) => ({ row: toColumn(r), sourceRoot: String(r.root_path) }));
  }

  /**
   * Join neighbours of many tables, both edge directions, best first. The grant condition is
   * on the NEIGHBOUR: a granted table never reveals an ungranted one. (The tables asked about
   * are granted already: callers only pass ids of rows this reader returned.)
   */
  async joinNeighbours(tableIds: readonly string[]): Promise<JoinNeighbourRow[]> {
    const valid = [...new Set(tableIds.filter(isUuid))];
    if (valid.length === 0) return [];
    const params: unknown[] = [valid];
    const grant = `${visibleTableSql('nt')} AND ${this.scope.sql(params, 'nt', 'ns')}`;
    const half = (local: 'from' | 'to') => {
      const remote = local === 'from' ? 'to' : 'from';
      return `SELECT e.${local}_table_id::text AS local_table_id, e.${remote}_table_id::text AS table_id, nt.name AS table_name,
          e.${local}_column_id::text AS local_column_id, lc.name AS local_column,
          e.${remote}_column_id::text AS remote_column_id, rc.name AS remote_column, e.score,
          e.containment_${local}_${remote} AS containment, e.containment_${remote}_${local} AS reverse_containment,
          e.jaccard, e.name_similarity, e.type_compatible
        FROM join_edge e
        JOIN lake_table nt ON nt.id = e.${remote}_table_id JOIN source ns ON ns.id = nt.source_id
        JOIN lake_column lc ON lc.id = e.${local}_column_id JOIN lake_column rc ON rc.id = e.${remote}_column_id
        WHERE e.${local}_table_id = ANY($1::uuid[]) AND ${grant}`;
    };
    const rows = await this.query(`${half('from')} UNION ALL ${half('to')} ORDER BY score DESC, table_id, local_column_id`, params);
    return rows.map((r) => ({
      localTableId: String(r.local_table_id),
      tableId: String(r.table_id),
      tableName: String(r.table_name),
      localColumnId: String(r.local_column_id),
      localColumn: String(r.local_column),
      remoteColumnId: String(r.remote_column_id),
      remoteColumn: String(r.remote_column),
      score: Number(r.score),
      containment: Number(r.containment),
      reverseContainment: Number(r.reverse_containment),
      jaccard: Number(r.jaccard),
      nameSimilarity: Number(r.name_similarity),
      typeCompatible: Boolean(r.type_compatible),
    }));
  }

  /** Union neighbours of many tables, best first; the grant condition is on the neighbour. */
  async unionNeighbours(tableIds: readonly string[]): Promise<UnionNeighbourRow[]> {
    const valid = [...new Set(tableIds.filter(isUuid))];
    if (valid.length === 0) return [];
    const params: unknown[] = [valid];
    const grant = `${visibleTableSql('nt')} AND ${this.scope.sql(params, 'nt', 'ns')}`;
    const half = (local: 'a' | 'b') => {
      const remote = local === 'a' ? 'b' : 'a';
      return `SELECT e.table_${local}_id::text AS local_table_id, e.table_${remote}_id::text AS table_id, nt.name AS table_name,
          e.score, e.alignment, '${local}' AS side
        FROM union_edge e JOIN lake_table nt ON nt.id = e.table_${remote}_id JOIN source ns ON ns.id = nt.source_id
        WHERE e.table_${local}_id = ANY($1::uuid[]) AND ${grant}`;
    };
    const rows = await this.query(`${half('a')} UNION ALL ${half('b')} ORDER BY score DESC, table_id`, params);
    return rows.map((r) => {
      const aSide = r.side === 'a';
      const alignment = json<{ columnAId: string; columnBId: string; score: number }[]>(r.alignment, []);
      return {
        localTableId: String(r.local_table_id),
        tableId: String(r.table_id),
        tableName: String(r.table_name),
        score: Number(r.score),
        alignment: alignment.map((p) => ({
          localColumnId: aSide ? p.columnAId : p.columnBId,
          remoteColumnId: aSide ? p.columnBId : p.columnAId,
          score: Number(p.score),
        })),
      };
    });
  }
}
