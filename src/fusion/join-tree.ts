/**
 * The join tree: union groups are the nodes, join edges between tables of different groups the
 * candidate arcs. Per group pair only the best edge counts; a maximum-score spanning tree
 * (Prim, per connected component) picks which pairs are joined and in which order. Components
 * that no edge connects stay apart; the SQL covers the largest one.
 */
import { valueKind } from './logical-types.js';
import { DisjointSets } from './union-groups.js';
import type { FusionJoinEdge, FusionTable, JoinStep, UnionGroup } from './types.js';

export interface JoinTree {
  /** Group ids of the joined component: root first, then in step order. */
  joinedGroupIds: string[];
  steps: JoinStep[];
  /** Every other component, as group ids (input order). */
  otherComponents: string[][];
  warnings: string[];
}

interface ResolvedEdge {
  edge: FusionJoinEdge;
  fromGroup: number;
  toGroup: number;
  order: number;
}

/** Edge preference: score, then containment of the foreign side, then input order. */
function better(a: ResolvedEdge, b: ResolvedEdge): boolean {
  if (a.edge.score !== b.edge.score) return a.edge.score > b.edge.score;
  const ca = Number.isFinite(a.edge.containmentFromTo) ? a.edge.containmentFromTo : 0;
  const cb = Number.isFinite(b.edge.containmentFromTo) ? b.edge.containmentFromTo : 0;
  if (ca !== cb) return ca > cb;
  return a.order < b.order;
}

export function buildJoinTree(
  tables: FusionTable[],
  groups: UnionGroup[],
  groupOfTable: Map<string, string>,
  groupColumnOf: Map<string, string>,
  joins: FusionJoinEdge[],
): JoinTree {
  const warnings: string[] = [];
  const groupIndex = new Map(groups.map((g, i) => [g.id, i]));
  const columnInfo = new Map<string, { tableId: string; name: string; logicalType: string }>();
  for (const t of tables) for (const c of t.columns) columnInfo.set(c.id, { tableId: t.id, name: c.name, logicalType: c.logicalType });
  const groupColumnType = new Map<string, string>();
  for (const g of groups) for (const col of g.columnMapping) groupColumnType.set(`${g.id}\u0000${col.name}`, col.logicalType);

  // Best edge per unordered group pair.
  const bestByPair = new Map<string, ResolvedEdge>();
  let unresolved = 0;
  joins.forEach((edge, order) => {
    const from = columnInfo.get(edge.fromColumnId);
    const to = columnInfo.get(edge.toColumnId);
    if (!from || !to || from.tableId !== edge.fromTableId || to.tableId !== edge.toTableId || !Number.isFinite(edge.score)) {
      unresolved++;
      return;
    }
    const fromGroup = groupIndex.get(groupOfTable.get(from.tableId)!)!;
    const toGroup = groupIndex.get(groupOfTable.get(to.tableId)!)!;
    if (fromGroup === toGroup) return; // inside a union group (shard to shard, table to itself)
    const key = fromGroup < toGroup ? `${fromGroup}:${toGroup}` : `${toGroup}:${fromGroup}`;
    const candidate: ResolvedEdge = { edge, fromGroup, toGroup, order };
    const current = bestByPair.get(key);
    if (!current || better(candidate, current)) bestByPair.set(key, candidate);
  });
  if (unresolved > 0) {
    warnings.push(`${unresolved} join edge(s) name columns or tables outside the input set (or have no score) and were ignored`);
  }

  // Components over the pair edges.
  const sets = new DisjointSets(groups.length);
  for (const e of bestByPair.values()) sets.union(e.fromGroup, e.toGroup);
  const components = new Map<number, number[]>();
  groups.forEach((_, i) => {
    const r = sets.find(i);
    const list = components.get(r);
    if (list) list.push(i);
    else components.set(r, [i]);
  });
  const tableCount = (members: number[]): number => members.reduce((n, gi) => n + groups[gi]!.tableIds.length, 0);
  // Largest by tables, ties to the component holding the earliest table (its root is smallest).
  const ordered = [...components.entries()].sort((a, b) => tableCount(b[1]) - tableCount(a[1]) || a[0] - b[0]);
  if (ordered.length === 0) return { joinedGroupIds: [], steps: [], otherComponents: [], warnings };
  const chosen = ordered[0]![1];
  const otherComponents = ordered
    .slice(1)
    .sort((a, b) => a[0] - b[0])
    .map(([, members]) => members.map((gi) => groups[gi]!.id));

  // Prim from the component's first group: every step attaches one new group by the best arc.
  const inTree = new Set<number>([chosen[0]!]);
  const joinedGroupIds = [groups[chosen[0]!]!.id];
  const steps: JoinStep[] = [];
  const pairEdges = [...bestByPair.values()];
  while (inTree.size < chosen.length) {
    let pick: ResolvedEdge | null = null;
    for (const e of pairEdges) {
      if (inTree.has(e.fromGroup) === inTree.has(e.toGroup)) continue;
      if (!pick || better(e, pick)) pick = e;
    }
    if (!pick) break; // cannot happen inside a component
    const fromIsLeft = inTree.has(pick.fromGroup);
    const leftColumnId = fromIsLeft ? pick.edge.fromColumnId : pick.edge.toColumnId;
    const rightColumnId = fromIsLeft ? pick.edge.toColumnId : pick.edge.fromColumnId;
    const leftGroup = groups[fromIsLeft ? pick.fromGroup : pick.toGroup]!;
    const rightGroup = groups[fromIsLeft ? pick.toGroup : pick.fromGroup]!;
    const ref = (columnId: string) => {
      const info = columnInfo.get(columnId)!;
      return { tableId: info.tableId, columnId, name: info.name, groupColumn: groupColumnOf.get(columnId)! };
    };
    const leftColumn = ref(leftColumnId);
    const rightColumn = ref(rightColumnId);
    const lk = valueKind(groupColumnType.get(`${leftGroup.id}\u0000${leftColumn.groupColumn}`) ?? 'text');
    const rk = valueKind(groupColumnType.get(`${rightGroup.id}\u0000${rightColumn.groupColumn}`) ?? 'text');
    const castToText = lk !== rk;
    if (castToText) {
      warnings.push(
        `join ${leftGroup.name}.${leftColumn.groupColumn} = ${rightGroup.name}.${rightColumn.groupColumn} compares ${lk} with ${rk}: both sides cast to text`,
      );
    }
    steps.push({
      leftGroupId: leftGroup.id,
      leftColumn,
      rightGroupId: rightGroup.id,
      rightColumn,
      score: pick.edge.score,
      containment: Number.isFinite(pick.edge.containmentFromTo) ? pick.edge.containmentFromTo : 0,
      castToText,
    });
    const added = fromIsLeft ? pick.toGroup : pick.fromGroup;
    inTree.add(added);
    joinedGroupIds.push(groups[added]!.id);
  }
  return { joinedGroupIds, steps, otherComponents, warnings };
}
