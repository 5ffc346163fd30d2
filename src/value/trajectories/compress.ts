/**
 * Stage 3 of the self-generated trajectory data (GRAFT Algorithm 2): canonical compression of a
 * sampled table set into the intent graph a user asking for exactly these tables would write.
 * Users name entities, not shards (union-connected tables merge into one entity) and not
 * link tables (a table whose kept columns are all join keys is a bridge: the question never
 * names it, it only connects two entities, so it becomes part of a cross-tree edge).
 */
import { parseIntentGraph, type IntentGraph, type IntentTree } from '../../intent/index.js';
import type { LakeSnapshot } from '../../search/snapshot.js';
import type { SampledSubgraph } from './sampler.js';

export interface PseudoIntentAttribute {
  attributeId: string;
  label: string;
  /** Kept columns (of the cluster's tables) the attribute stands for. */
  columnIds: string[];
}

export interface PseudoIntentCluster {
  /** `c<i>`, numbered by the cluster's first table in added order. */
  id: string;
  /** Its tables in added order. */
  tables: string[];
  /** Entity of the intent tree; null for a bridge. */
  entityId: string | null;
  attributes: PseudoIntentAttribute[];
}

export interface PseudoIntentEdge {
  /** Entity ids (as in the intent graph's edge). */
  from: string;
  to: string;
  /** Bridge tables on the shortest join path between the two clusters, in path order. */
  via: string[];
}

export interface PseudoIntent {
  intent: IntentGraph;
  clusters: PseudoIntentCluster[];
  /** Tables of the removed bridge clusters, in added order. */
  bridges: string[];
  /** One per intent edge, same order (edge `x<i>` is `crossEdges[i]`). */
  crossEdges: PseudoIntentEdge[];
}

const FILE_EXTENSION = /\.(csv|tsv|txt|json|jsonl|ndjson|parquet|pq|arrow|feather|orc|avro|xlsx?|sqlite3?|db)(\.(gz|bz2|zst|xz))?$/i;
/** Lake file stems carry a uniqueness hash (`singer_48d1c03c`): 8+ hex digits, at least one a digit. */
const HASH_SUFFIX = /[_-](?=[0-9a-f]*\d)[0-9a-f]{8,}$/i;

/** `singer_48d1c03c.csv` -> `singer`: the name a user would use for the table's entity. */
export function entityLabel(tableName: string): string {
  const stem = tableName.replace(FILE_EXTENSION, '').replace(HASH_SUFFIX, '');
  return stem.trim() === '' ? tableName : stem;
}

function treeLabel(snapshot: LakeSnapshot, tableId: string): string {
  const label = entityLabel(snapshot.tableById.get(tableId)?.name ?? '');
  return label.trim() === '' ? tableId : label;
}

/** Union-find over strings. */
class Partition {
  private parent = new Map<string, string>();
  find(x: string): string {
    let root = x;
    while (this.parent.has(root) && this.parent.get(root) !== root) root = this.parent.get(root)!;
    this.parent.set(x, root);
    return root;
  }
  union(a: string, b: string): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent.set(rb, ra);
  }
}

/**
 * Compress a sampled sub-graph into a pseudo intent graph:
 * 1. union edges between sampled tables merge their tables into clusters;
 * 2. a cluster whose kept columns are all join keys is a bridge and is removed;
 * 3. every pair of surviving clusters linked by a join path through bridges only (or by a direct
 *    join) gets one cross-tree edge, `via` the bridge tables on the shortest such path;
 * 4. each surviving cluster becomes a tree: entity = the first table's name (hash suffix and
 *    extension stripped); attributes = its kept columns that are not join keys (sampled ones and
 *    the union-aligned ones, which are the merged entity's shared columns), one per distinct
 *    name (case-insensitive, first spelling kept); an attribute with a recorded value gets an
 *    `=` value leaf (the first recorded among its columns).
 * Ids are positional and deterministic: `e<i>`, `e<i>.a<j>`, `e<i>.a<j>.v`, `x<k>`. No grounding
 * is set: the engine grounds labels in the catalog itself.
 * Returns null when no cluster survives (everything was a bridge): the caller skips the sample.
 */
export function compressToIntent(snapshot: LakeSnapshot, sub: SampledSubgraph): PseudoIntent | null {
  const order = new Map(sub.tables.map((t, i) => [t, i]));
  const sampled = (t: string): boolean => order.has(t);

  // 1. Clusters.
  const partition = new Partition();
  for (const u of snapshot.unions) {
    if (sampled(u.tableAId) && sampled(u.tableBId)) partition.union(u.tableAId, u.tableBId);
  }
  const byRoot = new Map<string, string[]>();
  for (const t of sub.tables) {
    const root = partition.find(t);
    const list = byRoot.get(root) ?? [];
    list.push(t);
    byRoot.set(root, list);
  }
  // Map iteration follows first insertion, i.e. each cluster's first table in added order.
  const clusterTables = [...byRoot.values()];
  const clusterOf = new Map<string, number>();
  clusterTables.forEach((tables, i) => tables.forEach((t) => clusterOf.set(t, i)));

  // 2. Bridges.
  const kept = (t: string) => sub.keptColumns.get(t) ?? [];
  const isBridge = clusterTables.map((tables) => tables.every((t) => kept(t).every((c) => c.role === 'join')));
  const entityIndex = new Map<number, number>();
  clusterTables.forEach((_, i) => {
    if (!isBridge[i]) entityIndex.set(i, entityIndex.size);
  });
  if (entityIndex.size === 0) return null;
  const entityId = (cluster: number): string => `e${entityIndex.get(cluster)}`;

  // 3. Cross-tree edges over the cluster-level join graph.
  const adjacent = clusterTables.map(() => new Set<number>());
  for (const j of snapshot.joins) {
    if (!sampled(j.fromTableId) || !sampled(j.toTableId)) continue;
    const a = clusterOf.get(j.fromTableId)!;
    const b = clusterOf.get(j.toTableId)!;
    if (a === b) continue;
    adjacent[a].add(b);
    adjacent[b].add(a);
  }
  const crossEdges: PseudoIntentEdge[] = [];
  const linked = new Set<string>();
  for (const start of entityIndex.keys()) {
    const parent = new Map<number, number>([[start, -1]]);
    const queue = [start];
    for (let q = 0; q < queue.length; q++) {
      const u = queue[q];
      for (const v of [...adjacent[u]].sort((x, y) => x - y)) {
        if (parent.has(v)) continue;
        parent.set(v, u);
        if (isBridge[v]) {
          queue.push(v);
          continue;
        }
        // A surviving cluster ends the path: paths may pass through bridges only.
        const pair = start < v ? `${start}|${v}` : `${v}|${start}`;
        if (linked.has(pair)) continue;
        linked.add(pair);
        const between: number[] = [];
        for (let w = parent.get(v)!; w !== start; w = parent.get(w)!) between.unshift(w);
        crossEdges.push({ from: entityId(start), to: entityId(v), via: between.flatMap((c) => clusterTables[c]) });
      }
    }
  }

  // 4. Trees.
  const clusters: PseudoIntentCluster[] = [];
  const trees: IntentTree[] = [];
  clusterTables.forEach((tables, i) => {
    if (isBridge[i]) {
      clusters.push({ id: `c${i}`, tables, entityId: null, attributes: [] });
      return;
    }
    const eid = entityId(i);
    const attributes: PseudoIntentAttribute[] = [];
    const byName = new Map<string, PseudoIntentAttribute>();
    for (const t of tables) {
      for (const k of kept(t)) {
        if (k.role === 'join') continue;
        const column = snapshot.columnById.get(k.columnId);
        const name = column?.name.trim().toLowerCase();
        if (!column || !name) continue;
        let attr = byName.get(name);
        if (!attr) {
          attr = { attributeId: `${eid}.a${attributes.length}`, label: column.name, columnIds: [] };
          byName.set(name, attr);
          attributes.push(attr);
        }
        attr.columnIds.push(k.columnId);
      }
    }
    clusters.push({ id: `c${i}`, tables, entityId: eid, attributes });
    trees.push({
      entity: { id: eid, label: treeLabel(snapshot, tables[0]) },
      attributes: attributes.map((a) => {
        const value = a.columnIds.map((c) => sub.values.get(c)).find((v) => v !== undefined);
        return value === undefined
          ? { id: a.attributeId, label: a.label }
          : { id: a.attributeId, label: a.label, value: { id: `${a.attributeId}.v`, operator: '=' as const, literal: value } };
      }),
    });
  });

  const intent = parseIntentGraph({
    version: 1,
    trees,
    edges: crossEdges.map((e, k) => ({ id: `x${k}`, from: e.from, to: e.to })),
  });
  const bridges = clusterTables.filter((_, i) => isBridge[i]).flat().sort((a, b) => order.get(a)! - order.get(b)!);
  return { intent, clusters, bridges, crossEdges };
}
