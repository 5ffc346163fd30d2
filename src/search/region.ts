import type { SynthesisModel } from './synthesisModel.js';

export interface RegionOptions {
  /** Top-K tables per node atom (anchors). */
  anchorsPerAtom: number;
  /** Hops of structural closure around the anchors (the paper's L-1, capped). */
  hops: number;
  /** Most tables kept in the region (closest and strongest first). */
  maxTables: number;
}

export interface Region {
  seeds: string[];
  tables: Set<string>;
  /** Best node support of each table over all atoms (the anchor score). */
  relevance: Map<string, number>;
}

/**
 * Anchor reachability: for every node atom the K tables that support it best become seeds; the
 * candidate region is their structural closure over join/union edges. Only tables in the
 * region are ever considered by the search.
 */
export function anchorRegion(model: SynthesisModel, opts: RegionOptions): Region {
  const { snapshot } = model;
  const relevance = new Map<string, number>();
  const perAtom: { id: string; s: number }[][] = model.nodeAtoms.map(() => []);
  for (const t of snapshot.tables) {
    const row = model.row(t.id);
    let best = 0;
    model.nodeAtoms.forEach((j, k) => {
      if (row[j] > 0) perAtom[k].push({ id: t.id, s: row[j] });
      if (row[j] > best) best = row[j];
    });
    if (best > 0) relevance.set(t.id, best);
  }
  const seeds = new Set<string>();
  for (const list of perAtom) {
    list.sort((a, b) => b.s - a.s || snapshot.compare(a.id, b.id));
    const top = list.filter((x) => x.s >= model.options.witnessThreshold).slice(0, opts.anchorsPerAtom);
    for (const x of top) seeds.add(x.id);
  }
  const tables = new Set(seeds);
  let frontier = [...seeds];
  for (let hop = 0; hop < opts.hops && frontier.length > 0 && tables.size < opts.maxTables; hop++) {
    const next: { id: string; s: number }[] = [];
    for (const id of frontier) {
      for (const n of snapshot.neighbours(id)) {
        if (!tables.has(n.tableId)) next.push({ id: n.tableId, s: n.score + (relevance.get(n.tableId) ?? 0) });
      }
    }
    next.sort((a, b) => b.s - a.s || snapshot.compare(a.id, b.id));
    frontier = [];
    for (const x of next) {
      if (tables.size >= opts.maxTables) break;
      if (tables.has(x.id)) continue;
      tables.add(x.id);
      frontier.push(x.id);
    }
  }
  return { seeds: [...seeds], tables, relevance };
}
