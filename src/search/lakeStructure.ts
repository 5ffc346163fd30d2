import { normalisePieceUnit, type ContentPiece, type NormalisedPieceUnit } from '../igms/index.js';
import { EMPTY_SLOT, jaccard } from '../sketch/minhash.js';
import type { LakeSnapshot, SnapshotTable } from './snapshot.js';

/** MinHash slots used as content pieces: 32 of the 128 tell copies (all shared) from shards (none), 4x cheaper. */
const CONTENT_SLOTS = 32;

/** Content of one table: its pieces plus, per slot, an interned id of the piece for O(slots) overlap. */
interface TableContent {
  pieces: ContentPiece[];
  /** The pieces validated, with their evidence shares (what the IGMS state consumes). */
  normalised: NormalisedPieceUnit['pieces'];
  /** Interned id of the piece of each slot (piece keys embed the slot, so only equal slots can match). */
  slotIds: Int32Array;
  /** Σ of the piece masses, summed in piece order. */
  totalMass: number;
}

/** A column this unique is a key of its table (for telling row shards from pieces of copies). */
const KEY_UNIQUENESS = 0.95;

/**
 * Question-independent facts about the tables of one snapshot that the search asks for over and
 * over: content pieces, content overlap, shard pairs, multi-hop reachability. They depend only
 * on the snapshot (immutable for a catalog version), so one instance per snapshot is shared by
 * every question's SynthesisModel instead of being rebuilt per question.
 */
export class LakeStructure {
  private static readonly bySnapshot = new WeakMap<LakeSnapshot, LakeStructure>();

  /** The structure of a snapshot, built lazily and cached for the snapshot's lifetime. */
  static of(snapshot: LakeSnapshot): LakeStructure {
    let s = LakeStructure.bySnapshot.get(snapshot);
    if (!s) LakeStructure.bySnapshot.set(snapshot, (s = new LakeStructure(snapshot)));
    return s;
  }

  private readonly contents = new Map<string, TableContent>();
  private readonly pieceIds = new Map<string, number>();
  private readonly shardPairs = new Map<string, boolean>();
  private readonly reach = new Map<string, { list: { id: string; strength: number }[]; strengthOf: Map<string, number> }>();

  private constructor(readonly snapshot: LakeSnapshot) {}

  private table(id: string): SnapshotTable {
    const t = this.snapshot.tableById.get(id);
    if (!t) throw new Error(`table ${id} is not in the snapshot`);
    return t;
  }

  private tableContent(tableId: string): TableContent {
    let c = this.contents.get(tableId);
    if (!c) {
      const cols = [...this.table(tableId).columns].sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()));
      const slots = Math.min(CONTENT_SLOTS, cols[0]?.minhash.length ?? 0);
      const pieces: ContentPiece[] = [];
      const slotIds = new Int32Array(slots);
      let totalMass = 0;
      for (let s = 0; s < slots; s++) {
        let key = `${s}`;
        for (const col of cols) key += `|${col.name.toLowerCase()}=${col.minhash[s] ?? EMPTY_SLOT}`;
        let id = this.pieceIds.get(key);
        if (id === undefined) this.pieceIds.set(key, (id = this.pieceIds.size));
        slotIds[s] = id;
        const mass = 1 / slots;
        pieces.push({ piece: key, mass });
        totalMass += mass;
      }
      const normalised = normalisePieceUnit({ id: tableId, support: [], content: pieces }, 0).pieces;
      c = { pieces, normalised, slotIds, totalMass };
      this.contents.set(tableId, c);
    }
    return c;
  }

  /**
   * Content pieces: one per MinHash slot, keyed by the slot's values in EVERY column (columns in
   * name order). Two tables share a piece only where all their columns agree, which happens with
   * probability about the product of the column Jaccards: copies share all pieces, row shards
   * (disjoint in at least one column) almost none, tables with other schemas none.
   */
  content(tableId: string): ContentPiece[] {
    return this.tableContent(tableId).pieces;
  }

  /** The content pieces of a table as `normalisePieceUnit` returns them (unit id = table id). */
  normalisedContent(tableId: string): NormalisedPieceUnit['pieces'] {
    return this.tableContent(tableId).normalised;
  }

  /** Content overlap of two tables in [0,1]: the share of a's piece mass that b holds too. */
  redundancy(a: string, b: string): number {
    const ca = this.tableContent(a);
    if (ca.totalMass === 0) return 0;
    const cb = this.tableContent(b);
    const n = Math.min(ca.slotIds.length, cb.slotIds.length);
    let shared = 0;
    for (let s = 0; s < n; s++) if (ca.slotIds[s] === cb.slotIds[s]) shared += ca.pieces[s].mass ?? 0;
    return shared / ca.totalMass;
  }

  /**
   * How far the smaller table's rows are held by the other, read off their key-like columns
   * (aligned by the union edge, nearly all values distinct): the largest containment of one key
   * column's values in the other's, from the MinHash Jaccard J and the distinct counts,
   * |A n B| = J (|A| + |B|) / (1 + J). A piece of another copy of the same table shares its keys
   * (containment near 1); a true row shard holds other keys (near 0). 0 without a union edge.
   */
  containment(a: string, b: string): number {
    const u = this.snapshot.unionBetween(a, b);
    if (!u) return 0;
    let best = 0;
    for (const al of u.alignment) {
      const ca = this.snapshot.columnById.get(al.columnAId);
      const cb = this.snapshot.columnById.get(al.columnBId);
      if (!ca || !cb || ca.uniqueness < KEY_UNIQUENESS || cb.uniqueness < KEY_UNIQUENESS) continue;
      const j = jaccard(ca.minhash, cb.minhash);
      const smaller = Math.min(ca.distinctEstimate, cb.distinctEstimate);
      if (j > 0 && smaller > 0) best = Math.max(best, Math.min(1, (j * (ca.distinctEstimate + cb.distinctEstimate)) / ((1 + j) * smaller)));
    }
    return best;
  }

  /** See SynthesisModel.isShardPair (memoised per ordered pair: it reads column sketches of the alignment). */
  isShardPair(a: string, b: string): boolean {
    const key = `${a}|${b}`;
    let v = this.shardPairs.get(key);
    if (v === undefined) this.shardPairs.set(key, (v = this.computeShardPair(a, b)));
    return v;
  }

  private computeShardPair(a: string, b: string): boolean {
    const u = this.snapshot.unionBetween(a, b);
    if (!u || this.redundancy(a, b) >= 0.5 || this.containment(a, b) >= 0.5) return false;
    const col = (id: string) => this.snapshot.columnById.get(id);
    let textAligned = 0;
    let textShared = 0;
    let disjointKey = false;
    for (const al of u.alignment) {
      const ca = col(al.columnAId);
      const cb = col(al.columnBId);
      if (!ca || !cb) continue;
      if (ca.uniqueness >= KEY_UNIQUENESS && cb.uniqueness >= KEY_UNIQUENESS && jaccard(ca.minhash, cb.minhash) === 0) disjointKey = true;
      if (ca.numericMin !== null && ca.numericMax !== null && cb.numericMin !== null && cb.numericMax !== null) {
        if (ca.distinctEstimate >= 3 && cb.distinctEstimate >= 3 && (ca.numericMax < cb.numericMin || cb.numericMax < ca.numericMin)) return true;
      } else if (ca.logicalType === 'text' && cb.logicalType === 'text') {
        textAligned++;
        if (jaccard(ca.minhash, cb.minhash) >= 0.05) textShared++;
      }
    }
    if (textAligned > 0 && textShared * 2 >= textAligned) return true;
    // Rows cut from one table in storage order: their keys are disjoint but interleave (no
    // disjoint ranges); one shared text domain, or a piece too small to show one, says same table.
    const smaller = Math.min(this.table(a).rowCount, this.table(b).rowCount);
    return disjointKey && (textShared > 0 || textAligned === 0 || smaller <= 3);
  }

  /** Tables within `hops` edges of `from` with the best path strength to each, as a list and a lookup. */
  reachable(from: string, hops: number): { list: { id: string; strength: number }[]; strengthOf: Map<string, number> } {
    const key = `${from}/${hops}`;
    let out = this.reach.get(key);
    if (!out) {
      const best = new Map<string, number>([[from, 1]]);
      let frontier = [from];
      for (let h = 0; h < hops; h++) {
        const next: string[] = [];
        for (const f of frontier) {
          const sf = best.get(f)!;
          for (const n of this.snapshot.neighbours(f)) {
            const s = sf * n.score;
            if (s > (best.get(n.tableId) ?? 0)) {
              if (!best.has(n.tableId)) next.push(n.tableId);
              best.set(n.tableId, s);
            }
          }
        }
        frontier = next;
      }
      best.delete(from);
      out = { list: [...best].map(([id, strength]) => ({ id, strength })), strengthOf: best };
      this.reach.set(key, out);
    }
    return out;
  }
}
