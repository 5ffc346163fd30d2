/**
 * When a table is visible. An ingest with a corpus-fitted embedder writes each table (columns,
 * edges) in its own transaction but embeds all of them only after the whole run; until then
 * the table is `pending`, and a run killed before that leaves it pending. Every read path
 * (CLI queries, the API reader and column search, the search snapshot, the bench view) shows
 * ready tables only, so a half-written table is never visible.
 */
export const TableState = { pending: 'pending', ready: 'ready' } as const;
export type TableState = (typeof TableState)[keyof typeof TableState];

/** Prisma `where` on lake_table for what readers may see. */
export const visibleTable = { state: TableState.ready };

/** The same condition in SQL, on a lake_table alias. */
export function visibleTableSql(alias = 't'): string {
  return `${alias}.state = '${TableState.ready}'`;
}

/**
 * Which tables one caller may see (an API grant, a worker's id set), as a predicate on a
 * table's identity. Applied to the in-memory snapshot (`LakeSnapshot.restrict`); the API's
 * SQL reads carry the same grant as a SQL condition instead.
 */
export type TableFilter = (table: { id: string; name: string; uri: string; sourceRoot: string }) => boolean;
