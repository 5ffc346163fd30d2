import { intentLaplacian, PieceIgmsState, type ContentPiece, type IgmsPrior, type PieceUnit } from '../igms/index.js';
import type { IntentAtom } from '../intent/index.js';
import { LakeStructure } from './lakeStructure.js';
import type { LakeSnapshot, Neighbour, SnapshotTable } from './snapshot.js';
import type { SupportScorer } from './support.js';

/**
 * IGMS of a candidate synthesis (a set of tables) for one intent graph.
 *
 * Units are tables. A unit's M row holds its node-atom supports (fixed per table, from
 * `SupportScorer`) and, for each relation atom, a support that depends on the SET: it is
 * non-zero only when the set contains a join/union path, through lake-graph edges among the
 * chosen tables, from a table witnessing one end tree to a table witnessing the other; every
 * table on that path (bridges included) gets the path's strength. Content redundancy comes from
 * the content-piece model of src/igms: each table's pieces are MinHash slot values of its most
 * row-identifying column (keyed by column name), so row shards of one table are complementary
 * and copies redundant.
 */
export interface SynthesisModelOptions {
  /** Node support at which a table counts as witnessing an atom (and as covering it). */
  witnessThreshold: number;
  /** Longest path (in edges) that may realise a relation atom inside a set. */
  maxRelationPathEdges: number;
  /** GMRF coupling of relation atoms to their endpoints (0 disables the prior). */
  priorCoupling: number;
  /** ψ of the content-piece model: how strongly copies of the same content are discounted. */
  contentNoise: number;
}

export const DEFAULT_SYNTHESIS_OPTIONS: SynthesisModelOptions = {
  witnessThreshold: 0.35,
  maxRelationPathEdges: 4,
  priorCoupling: 0.5,
  contentNoise: 4,
};

const PATH_HOP_DISCOUNT = 0.85;

export interface RelationRealisation {
  atomIndex: number;
  /** Tables on the realising path, end witnesses included. */
  path: string[];
  strength: number;
}

export class SynthesisModel {
  readonly numAtoms: number;
  readonly relationAtoms: number[];
  readonly nodeAtoms: number[];
  /** Node atoms under each entity atom's tree (entity itself included), by entity atom index. */
  private readonly treeAtoms = new Map<string, number[]>();
  private readonly rows = new Map<string, Float64Array>();
  /** Question-independent table facts (content, overlap, shards, reachability), shared across questions. */
  private readonly structure: LakeStructure;
  readonly prior?: IgmsPrior;
  /** IGMS state reset to the empty set for every U(S): the prior is factored once, storage reused. */
  private igmsState?: PieceIgmsState;

  constructor(
    readonly snapshot: LakeSnapshot,
    readonly atoms: IntentAtom[],
    readonly scorer: SupportScorer,
    readonly options: SynthesisModelOptions = DEFAULT_SYNTHESIS_OPTIONS,
  ) {
    this.structure = LakeStructure.of(snapshot);
    this.numAtoms = atoms.length;
    this.relationAtoms = atoms.flatMap((a, i) => (a.kind === 'relation' ? [i] : []));
    this.nodeAtoms = atoms.flatMap((a, i) => (a.kind !== 'relation' ? [i] : []));
    const index = new Map(atoms.map((a, i) => [a.id, i]));
    const entityOf = (i: number): string | undefined => {
      let a = atoms[i];
      while (a && a.kind !== 'entity') a = atoms[index.get(a.parentIds[0]) ?? -1];
      return a?.id;
    };
    for (const i of this.nodeAtoms) {
      const e = entityOf(i);
      if (!e) continue;
      if (!this.treeAtoms.has(e)) this.treeAtoms.set(e, []);
      this.treeAtoms.get(e)!.push(i);
    }
    if (options.priorCoupling > 0 && this.relationAtoms.length > 0) {
      const edges: [number, number][] = [];
      for (const r of this.relationAtoms) {
        for (const p of atoms[r].parentIds) {
          const j = index.get(p);
          if (j !== undefined) edges.push([r, j]);
        }
      }
      this.prior = { laplacian: intentLaplacian(this.numAtoms, edges), kappa: options.priorCoupling };
    }
  }

  /** Tables within `hops` edges of `from` with the best path strength to each (cached per snapshot). */
  reachable(from: string, hops: number): { id: string; strength: number }[] {
    return this.structure.reachable(from, hops).list;
  }

  /** The same as `reachable`, as a lookup from table id to path strength. */
  reachableStrength(from: string, hops: number): ReadonlyMap<string, number> {
    return this.structure.reachable(from, hops).strengthOf;
  }

  private witnessLists?: string[][];

  /**
   * Tables of the snapshot with non-zero support for node atom `atomIndex` (so at least the
   * witness threshold), in snapshot order. Built once per question from every table's row.
   */
  witnessesOf(atomIndex: number): readonly string[] {
    if (!this.witnessLists) {
      const lists: string[][] = Array.from({ length: this.numAtoms }, () => []);
      for (const t of this.snapshot.tables) {
        const r = this.row(t.id);
        for (const j of this.nodeAtoms) if (r[j] > 0) lists[j].push(t.id);
      }
      this.witnessLists = lists;
    }
    return this.witnessLists[atomIndex] ?? [];
  }

  /**
   * Node-atom supports of a table (cached). Support below the witness threshold is dropped: many
   * weak mentions (a foreign key, a loosely similar header) must not add up to evidence.
   */
  row(tableId: string): Float64Array {
    let r = this.rows.get(tableId);
    if (!r) {
      r = this.scorer.row(this.table(tableId));
      for (let j = 0; j < r.length; j++) if (r[j] < this.options.witnessThreshold) r[j] = 0;
      this.rows.set(tableId, r);
    }
    return r;
  }

  private table(id: string): SnapshotTable {
    const t = this.snapshot.tableById.get(id);
    if (!t) throw new Error(`table ${id} is not in the snapshot`);
    return t;
  }

  /**
   * Content pieces: one per MinHash slot, keyed by the slot's values in EVERY column (columns in
   * name order). Two tables share a piece only where all their columns agree, which happens with
   * probability about the product of the column Jaccards: copies share all pieces, row shards
   * (disjoint in at least one column) almost none, tables with other schemas none. Cached per
   * snapshot (they do not depend on the question).
   */
  content(tableId: string): ContentPiece[] {
    return this.structure.content(tableId);
  }

  /** Best node support of the set for each atom. */
  coverage(tableIds: readonly string[]): Float64Array {
    const best = new Float64Array(this.numAtoms);
    for (const id of tableIds) {
      const r = this.row(id);
      for (const j of this.nodeAtoms) if (r[j] > best[j]) best[j] = r[j];
    }
    return best;
  }

  /** Does table t witness the tree of entity atom `entityId`? Strength of the best atom of that tree. */
  witnessStrength(tableId: string, entityId: string): number {
    const r = this.row(tableId);
    let best = 0;
    for (const j of this.treeAtoms.get(entityId) ?? []) if (r[j] > best) best = r[j];
    return best;
  }

  /** Relation atoms realised by join/union paths inside the set. */
  realisations(tableIds: readonly string[]): RelationRealisation[] {
    const inSet = new Set(tableIds);
    // The lake graph induced on the set, built as the path searches reach each table: they
    // share it across relation atoms and sources instead of re-filtering whole neighbour lists.
    const induced = new Map<string, Neighbour[]>();
    const neighboursInSet = (t: string) => {
      let list = induced.get(t);
      if (!list) induced.set(t, (list = this.snapshot.neighbours(t).filter((n) => inSet.has(n.tableId))));
      return list;
    };
    const out: RelationRealisation[] = [];
    for (const r of this.relationAtoms) {
      const [from, to] = this.atoms[r].parentIds;
      const sources = tableIds.filter((t) => this.witnessStrength(t, from) >= this.options.witnessThreshold);
      const targets = new Set(tableIds.filter((t) => this.witnessStrength(t, to) >= this.options.witnessThreshold));
      if (sources.length === 0 || targets.size === 0) continue;
      const found = this.strongestPath(sources, targets, neighboursInSet);
      if (found) out.push({ atomIndex: r, ...found });
    }
    return out;
  }

  /**
   * Best path (max product of edge scores, ties to fewer edges) from any source to any target
   * through tables of the set (`neighboursInSet`: a table's lake-graph neighbours inside the set,
   * in adjacency order). A table witnessing both ends realises the relation by itself, at a
   * discount (one table standing in for two entities).
   */
  private strongestPath(sources: string[], targets: Set<string>, neighboursInSet: (t: string) => Neighbour[]): { path: string[]; strength: number } | null {
    let best: { path: string[]; strength: number } | null = null;
    for (const s of sources) {
      if (targets.has(s)) {
        if (!best || 0.6 > best.strength) best = { path: [s], strength: 0.6 };
      }
      // Max-product best-first search, bounded in hops; a table is expanded again only when
      // reached with a larger strength (sets of same-schema tables are near-cliques: without the
      // pruning the number of paths explodes).
      const bestAt = new Map<string, number>([[s, 1]]);
      const frontier: { at: string; path: string[]; strength: number }[] = [{ at: s, path: [s], strength: 1 }];
      while (frontier.length > 0) {
        // The strongest entry, the earliest queued among equals (what a stable sort would put first).
        let top = 0;
        for (let i = 1; i < frontier.length; i++) if (frontier[i].strength > frontier[top].strength) top = i;
        const cur = frontier.splice(top, 1)[0];
        if (cur.strength < (bestAt.get(cur.at) ?? 0)) continue;
        if (cur.path.length - 1 >= this.options.maxRelationPathEdges) continue;
        for (const n of neighboursInSet(cur.at)) {
          if (cur.path.includes(n.tableId)) continue;
          // Each extra hop costs: a longer path is a weaker reading of "these two are related".
          const strength = cur.strength * n.score * (cur.path.length > 1 ? PATH_HOP_DISCOUNT : 1);
          if (strength <= (bestAt.get(n.tableId) ?? 0)) continue;
          bestAt.set(n.tableId, strength);
          const path = [...cur.path, n.tableId];
          if (targets.has(n.tableId)) {
            if (!best || strength > best.strength) best = { path, strength };
          } else frontier.push({ at: n.tableId, path, strength });
        }
      }
    }
    return best;
  }

  /** The IGMS units of a set: node supports plus set-dependent relation supports. */
  units(tableIds: readonly string[]): PieceUnit[] {
    return this.unitSupports(tableIds).map((support, i) => ({ id: tableIds[i], support, content: this.content(tableIds[i]) }));
  }

  /** The M rows of `units(tableIds)`, in the same order. */
  private unitSupports(tableIds: readonly string[]): Float64Array[] {
    const relationSupport = new Map<string, Float64Array>();
    for (const real of this.realisations(tableIds)) {
      for (const t of real.path) {
        let v = relationSupport.get(t);
        if (!v) relationSupport.set(t, (v = new Float64Array(this.numAtoms)));
        v[real.atomIndex] = Math.max(v[real.atomIndex], real.strength);
      }
    }
    // The homomorphism: each node atom maps to ONE witness, the set's best supporter of it,
    // together with that table's shards and copies. Another table that merely supports the same
    // atom (the same-named table of another source, the usual lake confusion) adds nothing for it.
    const rows = tableIds.map((id) => this.row(id));
    const supports = rows.map(() => new Float64Array(this.numAtoms));
    for (const j of this.nodeAtoms) {
      let best = -1;
      for (let i = 0; i < tableIds.length; i++) {
        const v = rows[i][j];
        if (v <= 0) continue;
        const cur = best < 0 ? -1 : rows[best][j];
        if (v > cur + 1e-12 || (Math.abs(v - cur) <= 1e-12 && this.snapshot.compare(tableIds[i], tableIds[best]) < 0)) best = i;
      }
      if (best < 0) continue;
      for (let i = 0; i < tableIds.length; i++) {
        if (i === best || tableIds[i] === tableIds[best] || this.sameContentGroup(tableIds[i], tableIds[best])) supports[i][j] = rows[i][j];
      }
    }
    tableIds.forEach((id, i) => {
      const rel = relationSupport.get(id);
      for (const j of this.relationAtoms) supports[i][j] = rel ? rel[j] : rows[i][j];
    });
    return supports;
  }

  /** Content overlap of two tables in [0,1] (1 = same rows, 0 = disjoint, e.g. row shards). */
  redundancy(a: string, b: string): number {
    return this.structure.redundancy(a, b);
  }

  /**
   * Row shards of `tableId`: tables reachable through strong union edges whose content does not
   * overlap (copies are not shards). A synthesis takes a table together with its shards: a
   * question about the table needs all of its rows.
   */
  shardClosure(tableId: string, shardThreshold: number, allowed?: Set<string>): string[] {
    return this.structure.shardClosure(tableId, shardThreshold, allowed);
  }

  /** The join of two tables with their row shards read as one table each (`LakeStructure.wholeTableJoinScore`). */
  wholeTableJoinScore(a: string, b: string, shardThreshold: number): number {
    return this.structure.wholeTableJoinScore(a, b, shardThreshold);
  }

  /** Utility evaluations actually computed (memo misses), for search statistics. */
  evaluations = 0;
  private readonly memo = new Map<string, number>();

  /** Shards or copies of one table: they witness the same atoms together. */
  sameContentGroup(a: string, b: string): boolean {
    return this.snapshot.unionBetween(a, b) !== undefined && (this.redundancy(a, b) >= 0.5 || this.isShardPair(a, b));
  }

  /**
   * Are two union-compatible tables row shards of ONE table, rather than copies or same-schema
   * tables of different sources (the lake-wide "customers" of many systems)? Shards split one
   * row set drawn from one source: either some aligned numeric column has disjoint ranges (a
   * sequence cut in pieces), or most aligned text columns share values (one domain: the same
   * airlines, airports, categories). Another source's same-named table has its own text values;
   * a copy shares everything (content redundancy) and is not a shard.
   */
  isShardPair(a: string, b: string): boolean {
    return this.structure.isShardPair(a, b);
  }

  /** U(S); memoised per set, since beam and rerank revisit the same sets many times. */
  utility(tableIds: readonly string[]): number {
    if (tableIds.length === 0 || this.numAtoms === 0) return 0;
    const key = [...tableIds].sort().join(',');
    let u = this.memo.get(key);
    if (u === undefined) {
      this.evaluations++;
      // Same computation as igmsPieceUtility (units added in order to an empty state), without
      // refactoring the prior or re-validating the tables' content pieces for every set.
      const state = (this.igmsState ??= new PieceIgmsState(this.numAtoms, { prior: this.prior, contentNoise: this.options.contentNoise }));
      state.reset();
      const supports = this.unitSupports(tableIds);
      state.addAll(tableIds.map((id, i) => ({ id, support: supports[i], pieces: this.structure.normalisedContent(id) })));
      u = state.value();
      this.memo.set(key, u);
    }
    return u;
  }
}
