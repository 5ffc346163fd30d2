/**
 * The fused statement: one CTE per union group, then the joins in tree order.
 *
 *   WITH "g1" AS (
 *     SELECT "a", "b" FROM read_csv(...)
 *   ),
 *   "g2" AS (
 *     SELECT "x", "y" FROM read_parquet(...)
 *     UNION ALL BY NAME
 *     SELECT "x", "yy" AS "y" FROM read_parquet(...)
 *   )
 *   SELECT "g1"."a" AS "a", ...
 *   FROM "g1"
 *   JOIN "g2" ON "g1"."a" = "g2"."x"
 *   WHERE (...) AND (...)
 */
import { sqlIdent } from '../lake/index.js';
import { qualified } from './filters.js';
import type { FusionPlan, JoinStep, OutputColumn, UnionGroup } from './types.js';

/** `SELECT ... FROM src` for one member, renaming its columns to the group's names. */
function memberSelect(group: UnionGroup, tableId: string, source: string): string {
  const items: string[] = [];
  for (const col of group.columnMapping) {
    const src = col.columns.find((c) => c.tableId === tableId);
    if (!src) continue; // UNION ALL BY NAME fills it with NULL
    items.push(src.columnName === col.name ? sqlIdent(col.name) : `${sqlIdent(src.columnName)} AS ${sqlIdent(col.name)}`);
  }
  return `SELECT ${items.join(', ')} FROM ${source}`;
}

/** `sources`: table id -> the table expression to read it with. */
export function groupSql(group: UnionGroup, sources: Map<string, string>): string {
  return group.tableIds
    .map((id) => memberSelect(group, id, sources.get(id)!))
    .join('\n    UNION ALL BY NAME\n    ');
}

function joinCondition(step: JoinStep): string {
  const l = qualified(step.leftGroupId, step.leftColumn.groupColumn);
  const r = qualified(step.rightGroupId, step.rightColumn.groupColumn);
  return step.castToText ? `CAST(${l} AS VARCHAR) = CAST(${r} AS VARCHAR)` : `${l} = ${r}`;
}

export function fusedSql(
  groups: UnionGroup[],
  joinedGroupIds: string[],
  steps: JoinStep[],
  output: OutputColumn[],
  predicates: string[],
  sources: Map<string, string>,
  joinKind: 'inner' | 'left' = 'inner',
): string {
  const byId = new Map(groups.map((g) => [g.id, g]));
  const ctes = joinedGroupIds.map((id) => `${sqlIdent(id)} AS (\n    ${groupSql(byId.get(id)!, sources)}\n)`);
  const select = output.map((o) => `${qualified(o.groupId, o.column)} AS ${sqlIdent(o.name)}`).join(',\n       ');
  const lines = [`WITH ${ctes.join(',\n')}`, `SELECT ${select}`, `FROM ${sqlIdent(joinedGroupIds[0]!)}`];
  for (const step of steps) lines.push(`${joinKind === 'left' ? 'LEFT JOIN' : 'JOIN'} ${sqlIdent(step.rightGroupId)} ON ${joinCondition(step)}`);
  if (predicates.length > 0) lines.push(`WHERE ${predicates.map((p) => `(${p})`).join('\n  AND ')}`);
  return lines.join('\n');
}

/** `plan.sql` again with other table expressions (the executor's copies of SQLite tables). */
export function planSqlWith(plan: FusionPlan, sources: Map<string, string>): string {
  return fusedSql(
    plan.unionGroups,
    plan.joinedGroupIds,
    plan.joinSteps,
    plan.outputColumns,
    plan.filters.bound.map((b) => b.sql),
    sources,
    plan.joinKind,
  );
}
