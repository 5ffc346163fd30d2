/** `planFusion`: a chosen table set plus its edges -> union groups, join tree, filters, SQL. */
import { BadInputError } from '../util/errors.js';
import { FilterBindError, filterPredicate, qualified } from './filters.js';
import { buildJoinTree } from './join-tree.js';
import { tableSourceExpression } from './source.js';
import { fusedSql } from './sql.js';
import {
  DEFAULT_UNION_THRESHOLD,
  type BoundFilter,
  type FusionInput,
  type FusionPlan,
  type FusionTable,
  type OutputColumn,
  type UnboundFilter,
} from './types.js';
import { buildUnionGroups, uniqueName } from './union-groups.js';

function validate(input: FusionInput): void {
  if (!input || !Array.isArray(input.tables)) throw new BadInputError('fusion input: tables must be an array');
  if (!Array.isArray(input.joins)) throw new BadInputError('fusion input: joins must be an array');
  if (!Array.isArray(input.unions)) throw new BadInputError('fusion input: unions must be an array');
  if (input.filters !== undefined && !Array.isArray(input.filters)) throw new BadInputError('fusion input: filters must be an array');
  const t = input.unionThreshold;
  if (t !== undefined && !(typeof t === 'number' && Number.isFinite(t))) {
    throw new BadInputError(`fusion input: unionThreshold must be a finite number, got ${String(t)}`);
  }
  const tableIds = new Set<string>();
  const columnIds = new Set<string>();
  for (const table of input.tables) {
    if (tableIds.has(table.id)) throw new BadInputError(`fusion input: duplicate table id ${table.id}`, { field: 'tables.id' });
    tableIds.add(table.id);
    if (!['csv', 'parquet', 'sqlite', 'iceberg'].includes(table.format)) {
      throw new BadInputError(`fusion input: table ${table.name} has unknown format ${String(table.format)}`, { field: 'tables.format' });
    }
    if (!Array.isArray(table.columns)) throw new BadInputError(`fusion input: table ${table.name} has no columns array`);
    for (const c of table.columns) {
      if (columnIds.has(c.id)) throw new BadInputError(`fusion input: duplicate column id ${c.id}`, { field: 'tables.columns.id' });
      columnIds.add(c.id);
    }
  }
}

/**
 * Plans the fusion of `input.tables`. Never invents a join: groups that no join edge connects
 * are reported in `disconnected` and left out of the SQL, which covers the largest connected
 * component (most tables; ties go to the component with the earliest input table).
 */
export function planFusion(input: FusionInput): FusionPlan {
  validate(input);
  const warnings: string[] = [];
  const tables: FusionTable[] = [];
  for (const t of input.tables) {
    if (t.columns.length === 0) warnings.push(`table ${t.name} lists no columns and was left out`);
    else tables.push(t);
  }
  const tableById = new Map(tables.map((t) => [t.id, t]));
  const threshold = input.unionThreshold ?? DEFAULT_UNION_THRESHOLD;

  const grouping = buildUnionGroups(tables, input.unions, threshold);
  warnings.push(...grouping.warnings);
  const { groups, groupOfTable, groupColumnOf } = grouping;
  const groupById = new Map(groups.map((g) => [g.id, g]));

  const tree = buildJoinTree(tables, groups, groupOfTable, groupColumnOf, input.joins);
  warnings.push(...tree.warnings);
  const joined = new Set(tree.joinedGroupIds);
  const tablesOfGroups = (ids: string[]) => ids.flatMap((id) => groupById.get(id)!.tableIds);
  const disconnected = tree.otherComponents.map(tablesOfGroups);
  if (disconnected.length > 0) {
    const names = (ids: string[]) => ids.map((id) => tableById.get(id)!.name).join(', ');
    warnings.push(
      `no join edge connects ${disconnected.map((c) => `[${names(c)}]`).join(' and ')} to [${names(tablesOfGroups(tree.joinedGroupIds))}]; ` +
        'the SQL covers only the latter',
    );
  }

  // Filters.
  const tableOfColumn = new Map<string, FusionTable>();
  for (const t of tables) for (const c of t.columns) tableOfColumn.set(c.id, t);
  const bound: BoundFilter[] = [];
  const unbound: UnboundFilter[] = [];
  for (const filter of input.filters ?? []) {
    const table = tableOfColumn.get(filter?.columnId);
    if (!table) {
      unbound.push({ filter, reason: `unknown column ${String(filter?.columnId)}: not a column of any input table` });
      continue;
    }
    const groupId = groupOfTable.get(table.id)!;
    if (!joined.has(groupId)) {
      unbound.push({ filter, reason: `table ${table.name} is not in the joined component (no join edge reaches it)` });
      continue;
    }
    const group = groupById.get(groupId)!;
    const column = groupColumnOf.get(filter.columnId)!;
    const groupColumn = group.columnMapping.find((c) => c.name === column)!;
    try {
      const sql = filterPredicate(filter, qualified(groupId, column), groupColumn.logicalType);
      bound.push({ filter, groupId, tableId: table.id, column, sql });
      if (groupColumn.columns.length < group.tableIds.length) {
        warnings.push(`filter on ${group.name}.${column}: only some members of the union group have it; rows of the others drop out`);
      }
    } catch (err) {
      if (!(err instanceof FilterBindError)) throw err;
      unbound.push({ filter, reason: err.message });
    }
  }
  if (unbound.length > 0) warnings.push(`${unbound.length} filter(s) could not be applied (see filters.unbound)`);

  // Output columns: every group column in join order, minus each attached group's join key
  // (equal to the left key by the INNER JOIN); clashing names get the group name as prefix.
  const droppedKey = new Map(tree.steps.map((s) => [s.rightGroupId, s.rightColumn.groupColumn]));
  const picked: { groupId: string; column: string }[] = [];
  for (const gid of tree.joinedGroupIds) {
    for (const col of groupById.get(gid)!.columnMapping) {
      if (droppedKey.get(gid) === col.name) continue;
      picked.push({ groupId: gid, column: col.name });
    }
  }
  const counts = new Map<string, number>();
  for (const p of picked) counts.set(p.column.toLowerCase(), (counts.get(p.column.toLowerCase()) ?? 0) + 1);
  const taken = new Set<string>();
  const outputColumns: OutputColumn[] = picked.map((p) => {
    const wanted = (counts.get(p.column.toLowerCase()) ?? 0) > 1 ? `${groupById.get(p.groupId)!.name}__${p.column}` : p.column;
    const name = uniqueName(wanted, taken);
    taken.add(name.toLowerCase());
    return { name, groupId: p.groupId, column: p.column };
  });

  // Sources; SQLite has no offline DuckDB reader, so such a plan is not executable.
  const sources = new Map<string, string>();
  let executable = tree.joinedGroupIds.length > 0 && outputColumns.length > 0;
  if (tree.joinedGroupIds.length === 0) warnings.push('no tables to fuse');
  for (const id of tablesOfGroups(tree.joinedGroupIds)) {
    const table = tableById.get(id)!;
    const source = tableSourceExpression(table);
    if (source === null) {
      executable = false;
      warnings.push(
        `table ${table.name} (${table.uri}) is ${table.format}: DuckDB has no offline reader for it, so the plan is not executable`,
      );
    } else sources.set(id, source);
  }

  const sql = executable
    ? fusedSql(groups, tree.joinedGroupIds, tree.steps, outputColumns, bound.map((b) => b.sql), tableById, sources)
    : null;

  return {
    unionGroups: groups,
    joinSteps: tree.steps,
    joinedGroupIds: tree.joinedGroupIds,
    disconnected,
    filters: { bound, unbound },
    outputColumns,
    sql,
    executable,
    warnings,
  };
}
