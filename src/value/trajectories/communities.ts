/**
 * Stage 1 of the self-generated trajectory data (GRAFT Algorithm 1): pick seed tables spread
 * over the whole lake, so that the sampled sub-graphs cover every region and every degree range
 * rather than piling up around the few hub tables.
 *
 * The paper partitions the lake graph with METIS. METIS is a C library with no maintained Node
 * binding, so we use Louvain community detection (graphology-communities-louvain) instead and
 * then balance its output ourselves: Louvain finds natural clusters but knows nothing about a
 * target count K, and its communities can be one giant hub region plus many singletons.
 */
import { UndirectedGraph } from 'graphology';
import louvainImport from 'graphology-communities-louvain';
import type { LakeSnapshot } from '../../search/snapshot.js';

// The package is CommonJS with an ESM-style .d.ts: under NodeNext TypeScript types the default
// import as the module object, while Node hands over module.exports (the function). Accept both.
type Louvain = typeof louvainImport.default;
const louvain: Louvain = ((louvainImport as unknown as { default?: Louvain }).default ?? louvainImport) as Louvain;

export interface SeedOptions {
  /** Target number of communities K. */
  communities: number;
  /** Degree quantiles Q per community: one seed is drawn from each non-empty quantile. */
  quantiles: number;
}

/** Louvain refuses nothing, but a zero total weight makes its modularity gain 0/0: floor weights. */
const MIN_EDGE_WEIGHT = 1e-9;

/**
 * The lake graph as Louvain takes it: every table a node (in uri order, so Louvain's node
 * iteration, and with it the result, does not depend on generated ids), join and union edges
 * between two tables merged into one undirected edge whose weight is the sum of their scores.
 */
export function lakeGraph(snapshot: LakeSnapshot): UndirectedGraph<Record<string, never>, { weight: number }> {
  const graph = new UndirectedGraph<Record<string, never>, { weight: number }>();
  for (const t of [...snapshot.tables].sort((a, b) => snapshot.compare(a.id, b.id))) graph.addNode(t.id);
  const add = (a: string, b: string, score: number): void => {
    if (a === b || !graph.hasNode(a) || !graph.hasNode(b)) return;
    const w = Math.max(score, MIN_EDGE_WEIGHT);
    if (graph.hasEdge(a, b)) graph.updateEdgeAttribute(a, b, 'weight', (old) => (old ?? 0) + w);
    else graph.addEdge(a, b, { weight: w });
  };
  for (const j of snapshot.joins) add(j.fromTableId, j.toTableId, j.score);
  for (const u of snapshot.unions) add(u.tableAId, u.tableBId, u.score);
  return graph;
}

/**
 * Partition the lake's tables into about K balanced communities.
 *
 * "Balanced" here means exactly:
 *  - every community holds at most `cap = ceil(n / K)` tables (n = number of tables);
 *  - a community with fewer than `ceil(cap / 2)` tables ("tiny") survives only when no merge
 *    can absorb it without breaking the cap.
 * Hence the count lies between ceil(n / cap) (≈ K) and about 2K, and each table is in exactly one
 * community.
 *
 * Steps: (1) Louvain with the seeded `rand` (its random walk order is the only randomness);
 * (2) split each community larger than `cap` into ceil(size / cap) pieces of near-equal size,
 * cut from its BFS order (started at its highest-degree table), so pieces stay mostly connected;
 * (3) merge tiny communities, smallest first, into the neighbouring community they share the most
 * edge weight with, if the union stays within `cap`; (4) tiny communities left (isolated tables,
 * tiny ones hemmed in by full neighbours) are packed together first-fit up to `cap`: they
 * have no connection to honour, and leaving them apart would inflate the count far past K.
 *
 * Result: communities with their tables in uri order, sorted by their first table.
 */
export function partitionCommunities(snapshot: LakeSnapshot, k: number, rand: () => number): string[][] {
  const n = snapshot.tables.length;
  if (n === 0) return [];
  const target = Math.max(1, Math.min(Math.floor(k), n));
  const cap = Math.ceil(n / target);
  const tinyBelow = Math.ceil(cap / 2);
  const graph = lakeGraph(snapshot);
  const byId = (a: string, b: string): number => snapshot.compare(a, b);

  // (1) Louvain.
  const mapping = louvain(graph, { getEdgeWeight: 'weight', rng: rand });
  const louvainGroups = new Map<number, string[]>();
  graph.forEachNode((node) => {
    const c = mapping[node];
    const list = louvainGroups.get(c) ?? [];
    list.push(node);
    louvainGroups.set(c, list);
  });

  // (2) Split oversized communities along BFS order.
  let groups: string[][] = [];
  for (const members of louvainGroups.values()) {
    if (members.length <= cap) {
      groups.push(members);
      continue;
    }
    const order = bfsOrder(graph, members, byId);
    const pieces = Math.ceil(order.length / cap);
    for (let p = 0; p < pieces; p++) {
      groups.push(order.slice(Math.floor((p * order.length) / pieces), Math.floor(((p + 1) * order.length) / pieces)));
    }
  }

  // (3) Merge tiny communities into their most-connected neighbour while the cap allows.
  groups = mergeTiny(graph, groups, cap, tinyBelow, byId);

  // (4) Pack the tiny leftovers together.
  const keep: string[][] = [];
  const bins: string[][] = [];
  for (const g of sortGroups(groups, byId)) {
    if (g.length >= tinyBelow) {
      keep.push(g);
      continue;
    }
    const bin = bins.find((b) => b.length + g.length <= cap);
    if (bin) bin.push(...g);
    else bins.push([...g]);
  }
  return sortGroups([...keep, ...bins], byId);
}

function sortGroups(groups: string[][], byId: (a: string, b: string) => number): string[][] {
  const sorted = groups.map((g) => [...g].sort(byId));
  return sorted.sort((a, b) => byId(a[0], b[0]));
}

/** Members in BFS order over the induced sub-graph, each component started at its highest-degree table. */
function bfsOrder(graph: UndirectedGraph, members: string[], byId: (a: string, b: string) => number): string[] {
  const inside = new Set(members);
  const starts = [...members].sort((a, b) => graph.degree(b) - graph.degree(a) || byId(a, b));
  const seen = new Set<string>();
  const order: string[] = [];
  for (const start of starts) {
    if (seen.has(start)) continue;
    seen.add(start);
    const queue = [start];
    for (let i = 0; i < queue.length; i++) {
      const node = queue[i];
      order.push(node);
      const next = graph.neighbors(node).filter((m) => inside.has(m) && !seen.has(m)).sort(byId);
      for (const m of next) {
        seen.add(m);
        queue.push(m);
      }
    }
  }
  return order;
}

function mergeTiny(
  graph: UndirectedGraph<Record<string, never>, { weight: number }>,
  groups: string[][],
  cap: number,
  tinyBelow: number,
  byId: (a: string, b: string) => number,
): string[][] {
  const live = new Map<number, string[]>();
  const owner = new Map<string, number>();
  sortGroups(groups, byId).forEach((g, i) => {
    live.set(i, g);
    for (const t of g) owner.set(t, i);
  });
  const blocked = new Set<number>();
  for (;;) {
    // Smallest tiny community not yet known to be stuck; ties on the first table.
    let pick: number | undefined;
    for (const [id, g] of live) {
      if (g.length >= tinyBelow || blocked.has(id)) continue;
      const cur = pick === undefined ? undefined : live.get(pick)!;
      if (!cur || g.length < cur.length || (g.length === cur.length && byId(g[0], cur[0]) < 0)) pick = id;
    }
    if (pick === undefined) break;
    const members = live.get(pick)!;
    const weight = new Map<number, number>();
    for (const t of members) {
      graph.forEachEdge(t, (_edge, attrs, source, target) => {
        const other = owner.get(source === t ? target : source)!;
        if (other !== pick) weight.set(other, (weight.get(other) ?? 0) + attrs.weight);
      });
    }
    let best: number | undefined;
    for (const [other, w] of weight) {
      const og = live.get(other)!;
      if (og.length + members.length > cap) continue;
      const bw = best === undefined ? -1 : weight.get(best)!;
      if (w > bw || (w === bw && byId(og[0], live.get(best!)![0]) < 0)) best = other;
    }
    if (best === undefined) {
      blocked.add(pick);
      continue;
    }
    const into = live.get(best)!;
    into.push(...members);
    for (const t of members) owner.set(t, best);
    live.delete(pick);
    // The grown community may now fit fewer merges, never more: stuck ones stay stuck.
  }
  return [...live.values()];
}

/** Number of distinct neighbour tables (join or union). */
export function tableDegree(snapshot: LakeSnapshot, tableId: string): number {
  return snapshot.neighbours(tableId).length;
}

/**
 * Stage 1 seeds: inside each community, tables sorted by degree (ascending, uri order on ties)
 * are cut into Q contiguous degree quantiles (quantile q takes positions
 * [floor(q·m/Q), floor((q+1)·m/Q)) of the m candidates) and one seed is drawn uniformly from
 * each non-empty quantile. Isolated tables (degree 0) can never grow into a connected set and
 * are not candidates. Seeds come out community by community, low-degree quantile first.
 */
export function sampleSeeds(snapshot: LakeSnapshot, options: SeedOptions, rand: () => number): string[] {
  const quantiles = Math.max(1, Math.floor(options.quantiles));
  const seeds: string[] = [];
  for (const community of partitionCommunities(snapshot, options.communities, rand)) {
    const candidates = community
      .filter((t) => tableDegree(snapshot, t) > 0)
      .sort((a, b) => tableDegree(snapshot, a) - tableDegree(snapshot, b) || snapshot.compare(a, b));
    const m = candidates.length;
    for (let q = 0; q < quantiles; q++) {
      const bin = candidates.slice(Math.floor((q * m) / quantiles), Math.floor(((q + 1) * m) / quantiles));
      if (bin.length > 0) seeds.push(bin[Math.floor(rand() * bin.length)]);
    }
  }
  return seeds;
}
