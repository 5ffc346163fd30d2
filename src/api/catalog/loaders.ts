import DataLoader from 'dataloader';
import type { CatalogReader, ColumnRow, JoinNeighbourRow, TableRow, UnionNeighbourRow } from './reader.js';

/**
 * Per-request DataLoaders over a CatalogReader. Resolvers ask for one table's columns or
 * neighbours; the loaders collect every such ask made in one tick and answer them with a single
 * statement, so N tables cost one query per kind of relation, not N. They live for one request
 * only: their cache is never stale across requests and never crosses callers' grants.
 */
export interface CatalogLoaders {
  tableById: DataLoader<string, TableRow | null>;
  columnById: DataLoader<string, ColumnRow | null>;
  columnsByTableId: DataLoader<string, ColumnRow[]>;
  joinNeighboursByTableId: DataLoader<string, JoinNeighbourRow[]>;
  unionNeighboursByTableId: DataLoader<string, UnionNeighbourRow[]>;
  /** Seeds the table cache with rows a page query already returned. */
  primeTables(rows: TableRow[]): void;
  primeColumns(rows: ColumnRow[]): void;
}

function groupBy<T>(rows: T[], key: (r: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}

export function createLoaders(reader: CatalogReader): CatalogLoaders {
  // Several hundred ids in one `= ANY($1)` array is one round trip; cap batches anyway so a
  // single statement's parameter stays reasonable.
  const opts = { maxBatchSize: 1000 };
  const tableById = new DataLoader<string, TableRow | null>(async (ids) => {
    const byId = new Map((await reader.tablesByIds(ids)).map((t) => [t.id, t]));
    return ids.map((id) => byId.get(id) ?? null);
  }, opts);
  const columnById = new DataLoader<string, ColumnRow | null>(async (ids) => {
    const byId = new Map((await reader.columnsByIds(ids)).map((c) => [c.id, c]));
    return ids.map((id) => byId.get(id) ?? null);
  }, opts);
  const columnsByTableId = new DataLoader<string, ColumnRow[]>(async (ids) => {
    const rows = await reader.columnsOfTables(ids);
    for (const c of rows) columnById.prime(c.id, c);
    const byTable = groupBy(rows, (c) => c.tableId);
    return ids.map((id) => byTable.get(id) ?? []);
  }, opts);
  const joinNeighboursByTableId = new DataLoader<string, JoinNeighbourRow[]>(async (ids) => {
    const byTable = groupBy(await reader.joinNeighbours(ids), (n) => n.localTableId);
    return ids.map((id) => byTable.get(id) ?? []);
  }, opts);
  const unionNeighboursByTableId = new DataLoader<string, UnionNeighbourRow[]>(async (ids) => {
    const byTable = groupBy(await reader.unionNeighbours(ids), (n) => n.localTableId);
    return ids.map((id) => byTable.get(id) ?? []);
  }, opts);
  return {
    tableById,
    columnById,
    columnsByTableId,
    joinNeighboursByTableId,
    unionNeighboursByTableId,
    primeTables(rows) {
      for (const t of rows) tableById.prime(t.id, t);
    },
    primeColumns(rows) {
      for (const c of rows) columnById.prime(c.id, c);
    },
  };
}
