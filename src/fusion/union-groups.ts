/**
 * Union groups: tables whose rows stack (season shards, duplicates) become one node of the
 * join tree. Groups are the connected components of the union edges at or above the threshold;
 * inside a group the members' columns are aligned through the stored alignments.
 */
import { mergeLogicalTypes } from './logical-types.js';
import type { FusionTable, FusionUnionEdge, GroupColumn, UnionGroup } from './types.js';

class DisjointSets {
  private readonly parent: number[];
  constructor(n: number) {
    this.parent = Array.from({ length: n }, (_, i) => i);
  }
  find(i: number): number {
    let root = i;
    while (this.parent[root] !== root) root = this.parent[root]!;
    while (this.parent[i] !== root) {
      const next = this.parent[i]!;
      this.parent[i] = root;
      i = next;
    }
    return root;
  }
  /** Joins the sets; the smaller root stays root, so a set's root is its earliest member. */
  union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra < rb) this.parent[rb] = ra;
    else if (rb < ra) this.parent[ra] = rb;
  }
}

export { DisjointSets };

interface MemberColumnState {
  /** Output column index per member column id. */
  assigned: Map<string, number>;
  /** Output column indexes already taken by this member. */
  used: Set<number>;
}

const lower = (s: string): string => s.toLowerCase();

/** A name not yet in `taken` (case-insensitive): `name`, `name_2`, `name_3`, ... */
export function uniqueName(name: string, taken: Set<string>): string {
  if (!taken.has(lower(name))) return name;
  for (let i = 2; ; i++) {
    const candidate = `${name}_${i}`;
    if (!taken.has(lower(candidate))) return candidate;
  }
}

/**
 * Readable group name: the member names' common prefix without trailing digits and separators
 * (`game_results_2021`, `game_results_2022` -> `game_results`), else the first member's name.
 */
function groupName(names: string[]): string {
  const first = names[0]!;
  if (names.length === 1) return first;
  let prefix = first;
  for (const n of names.slice(1)) {
    let i = 0;
    while (i < prefix.length && i < n.length && prefix[i] === n[i]) i++;
    prefix = prefix.slice(0, i);
  }
  prefix = prefix.replace(/[\d_\-. ]+$/, '');
  return prefix.length > 0 ? prefix : first;
}

export interface UnionGrouping {
  groups: UnionGroup[];
  /** Group id per table id. */
  groupOfTable: Map<string, string>;
  /** Group output column name per member column id. */
  groupColumnOf: Map<string, string>;
  warnings: string[];
}

/**
 * Groups `tables` by the union edges with `score >= threshold`. Group ids follow the input order
 * of each group's first member; members keep input order.
 *
 * Column alignment: the first member's columns name the group's output columns. Other members
 * are added one by one, each time the one with the best edge to the members already placed; a
 * member column maps onto the output column its best-scoring alignment partner (among placed
 * members) feeds, one-to-one per member. Unaligned columns fall back to an output column of the
 * same name (case-insensitive, as UNION BY NAME would), else become new output columns that
 * other members fill with NULL.
 */
export function buildUnionGroups(tables: FusionTable[], unions: FusionUnionEdge[], threshold: number): UnionGrouping {
  const warnings: string[] = [];
  const indexOf = new Map(tables.map((t, i) => [t.id, i]));
  const tableOfColumn = new Map<string, string>();
  for (const t of tables) for (const c of t.columns) tableOfColumn.set(c.id, t.id);

  const sets = new DisjointSets(tables.length);
  const usable: FusionUnionEdge[] = [];
  let foreign = 0;
  for (const e of unions) {
    const a = indexOf.get(e.tableAId);
    const b = indexOf.get(e.tableBId);
    if (a === undefined || b === undefined) {
      foreign++;
      continue;
    }
    if (a === b || !(e.score >= threshold)) continue;
    usable.push(e);
    sets.union(a, b);
  }
  if (foreign > 0) warnings.push(`${foreign} union edge(s) name tables outside the input set and were ignored`);

  const membersByRoot = new Map<number, number[]>();
  tables.forEach((_, i) => {
    const r = sets.find(i);
    const list = membersByRoot.get(r);
    if (list) list.push(i);
    else membersByRoot.set(r, [i]);
  });

  const groups: UnionGroup[] = [];
  const groupOfTable = new Map<string, string>();
  const groupColumnOf = new Map<string, string>();
  const takenGroupNames = new Set<string>();
  const roots = [...membersByRoot.keys()].sort((x, y) => x - y);
  roots.forEach((root, gi) => {
    const members = membersByRoot.get(root)!.map((i) => tables[i]!);
    const id = `g${gi + 1}`;
    const name = uniqueName(groupName(members.map((m) => m.name)), takenGroupNames);
    takenGroupNames.add(lower(name));
    const memberIds = new Set(members.map((m) => m.id));
    const edges = usable.filter((e) => memberIds.has(e.tableAId) && memberIds.has(e.tableBId));
    const columns = alignGroup(members, edges, tableOfColumn, name, warnings);
    for (const m of members) groupOfTable.set(m.id, id);
    for (const col of columns) for (const src of col.columns) groupColumnOf.set(src.columnId, col.name);
    groups.push({ id, name, tableIds: members.map((m) => m.id), columnMapping: columns });
  });
  return { groups, groupOfTable, groupColumnOf, warnings };
}

function alignGroup(
  members: FusionTable[],
  edges: FusionUnionEdge[],
  tableOfColumn: Map<string, string>,
  name: string,
  warnings: string[],
): GroupColumn[] {
  const out: { name: string; types: string[]; columns: GroupColumn['columns'] }[] = [];
  const outNames = new Set<string>();
  /** Output column index per member column id, over all placed members. */
  const outOfColumn = new Map<string, number>();

  const addColumn = (table: FusionTable, state: MemberColumnState, colIndex: number, target: number | null): void => {
    const col = table.columns[colIndex]!;
    let idx = target;
    if (idx === null) {
      const nm = uniqueName(col.name, outNames);
      outNames.add(lower(nm));
      out.push({ name: nm, types: [], columns: [] });
      idx = out.length - 1;
    }
    out[idx]!.types.push(col.logicalType);
    out[idx]!.columns.push({ tableId: table.id, columnId: col.id, columnName: col.name });
    outOfColumn.set(col.id, idx);
    state.assigned.set(col.id, idx);
    state.used.add(idx);
  };

  const placed = new Set<string>();
  const place = (table: FusionTable): void => {
    const state: MemberColumnState = { assigned: new Map(), used: new Set() };
    // Alignment candidates: (member column, output column, score) through placed partners.
    const candidates: { columnId: string; target: number; score: number }[] = [];
    for (const e of edges) {
      const other = e.tableAId === table.id ? e.tableBId : e.tableBId === table.id ? e.tableAId : null;
      if (other === null || !placed.has(other)) continue;
      for (const a of e.alignment ?? []) {
        // Orientation is checked against the columns' tables rather than trusted.
        let mine: string | undefined;
        let theirs: string | undefined;
        if (tableOfColumn.get(a.columnAId) === table.id && tableOfColumn.get(a.columnBId) === other) {
          mine = a.columnAId;
          theirs = a.columnBId;
        } else if (tableOfColumn.get(a.columnBId) === table.id && tableOfColumn.get(a.columnAId) === other) {
          mine = a.columnBId;
          theirs = a.columnAId;
        }
        if (mine === undefined || theirs === undefined) continue;
        const target = outOfColumn.get(theirs);
        if (target === undefined) continue;
        candidates.push({ columnId: mine, target, score: Number.isFinite(a.score) ? a.score : 0 });
      }
    }
    candidates.sort((x, y) => y.score - x.score);
    const colIndexById = new Map(table.columns.map((c, i) => [c.id, i]));
    for (const c of candidates) {
      if (state.assigned.has(c.columnId) || state.used.has(c.target)) continue;
      addColumn(table, state, colIndexById.get(c.columnId)!, c.target);
    }
    // Same-name fallback, then new columns.
    table.columns.forEach((col, i) => {
      if (state.assigned.has(col.id)) return;
      const same = out.findIndex((o, oi) => !state.used.has(oi) && lower(o.name) === lower(col.name));
      addColumn(table, state, i, same >= 0 && placed.size > 0 ? same : null);
    });
    placed.add(table.id);
  };

  place(members[0]!);
  const pending = new Set(members.slice(1).map((m) => m.id));
  while (pending.size > 0) {
    // The pending member with the best edge to a placed one (input order breaks ties).
    let best: FusionTable | null = null;
    let bestScore = -Infinity;
    for (const m of members) {
      if (!pending.has(m.id)) continue;
      for (const e of edges) {
        const other = e.tableAId === m.id ? e.tableBId : e.tableBId === m.id ? e.tableAId : null;
        if (other !== null && placed.has(other) && e.score > bestScore) {
          best = m;
          bestScore = e.score;
        }
      }
    }
    if (!best) break; // cannot happen: a group is connected
    pending.delete(best.id);
    place(best);
  }

  const partial = out.filter((o) => new Set(o.columns.map((c) => c.tableId)).size < members.length);
  if (members.length > 1 && partial.length > 0) {
    warnings.push(
      `union group ${name}: column(s) ${partial.map((o) => o.name).join(', ')} exist in only some members (NULL elsewhere)`,
    );
  }
  return out.map((o) => ({ name: o.name, logicalType: mergeLogicalTypes(o.types), columns: o.columns }));
}
