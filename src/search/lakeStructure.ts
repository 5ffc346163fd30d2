import { normalisePieceUnit, type ContentPiece, type NormalisedPieceUnit } from '../igms/index.js';
import { JOIN_SCORE_WEIGHTS } from '../graph/index.js';
import { containment, EMPTY_SLOT, jaccard } from '../sketch/minhash.js';
import type { LakeSnapshot, SnapshotColumn, SnapshotJoin, SnapshotTable } from './snapshot.js';

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
 * over: content pieces, content overlap, shard pairs and groups, joins of tables read with their
 * row shards, multi-hop reachability. They depend only on the snapshot (immutable for a catalog
 * version), so one instance per snapshot is shared by every question's SynthesisModel instead of
 * being rebuilt per question.
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
  private readonly wholeJoins = new Map<string, number>();

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
   * column's values in the other's (the smaller column's, by the sketch's `containment`). A piece
   * of another copy of the same table shares its keys (containment near 1); a true row shard holds
   * other keys (near 0). 0 without a union edge.
   */
  containment(a: string, b: string): number {
    const u = this.snapshot.unionBetween(a, b);
    if (!u) return 0;
    let best = 0;
    for (const al of u.alignment) {
      const ca = this.snapshot.columnById.get(al.columnAId);
      const cb = this.snapshot.columnById.get(al.columnBId);
      if (!ca || !cb || ca.uniqueness < KEY_UNIQUENESS || cb.uniqueness < KEY_UNIQUENESS) continue;
      const [small, large] = ca.distinctEstimate <= cb.distinctEstimate ? [ca, cb] : [cb, ca];
      best = Math.max(best, containment(small.minhash, small.distinctEstimate, large.minhash, large.distinctEstimate));
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

  /** Row shards of `tableId` (see SynthesisModel.shardClosure), the table first; `allowed` limits them. */
  shardClosure(tableId: string, shardThreshold: number, allowed?: Set<string>): string[] {
    const out = [tableId];
    for (let i = 0; i < out.length; i++) {
      for (const n of this.snapshot.neighbours(out[i])) {
        if (n.kind !== 'union' || n.score < shardThreshold || out.includes(n.tableId)) continue;
        if (allowed && !allowed.has(n.tableId)) continue;
        if (!out.every((t) => !this.snapshot.unionBetween(t, n.tableId) || this.isShardPair(t, n.tableId))) continue;
        out.push(n.tableId);
      }
    }
    return out;
  }

  /**
   * The strongest join between tables `a` and `b` with each read together with its row shards:
   * a key table cut into pieces holds a part of the keys in each, so a column referring to it is
   * contained in no one piece, and the join rules score the edge to each piece low (the
   * containment weighs most; src/graph/joinRules.ts), lower than a same-named table of another
   * source whose small ids hold the column by chance. Here the key column is read as the union
   * of its aligned columns across the pieces (slot-wise minimum of their MinHash signatures,
   * distinct counts summed: the pieces hold other rows), the referring column likewise, and the
   * edge's containment terms are scored again on them, the rest of its score kept. At least the
   * edge's own score; 0 when no join edge links the two tables.
   */
  wholeTableJoinScore(a: string, b: string, shardThreshold: number): number {
    const key = `${a}|${b}|${shardThreshold}`;
    let score = this.wholeJoins.get(key);
    if (score === undefined) {
      score = 0;
      for (const j of this.joinsBetween(a, b)) score = Math.max(score, this.rescoreOverShards(j, shardThreshold));
      this.wholeJoins.set(key, score);
      this.wholeJoins.set(`${b}|${a}|${shardThreshold}`, score);
    }
    return score;
  }

  /** The join edges between two tables, either direction (read through the per-column reference index). */
  private joinsBetween(a: string, b: string): SnapshotJoin[] {
    const out: SnapshotJoin[] = [];
    for (const [from, to] of [[a, b], [b, a]]) {
      for (const c of this.snapshot.tableById.get(from)?.columns ?? []) for (const j of this.snapshot.referencesFrom(c.id)) if (j.toTableId === to) out.push(j);
    }
    return out;
  }

  private rescoreOverShards(j: SnapshotJoin, shardThreshold: number): number {
    const f = this.snapshot.columnById.get(j.fromColumnId);
    const k = this.snapshot.columnById.get(j.toColumnId);
    if (!f || !k) return j.score;
    const from = this.acrossShards(j.fromTableId, f, shardThreshold);
    const to = this.acrossShards(j.toTableId, k, shardThreshold);
    if (from.pieces === 1 && to.pieces === 1) return j.score;
    const cFK = containment(from.signature, from.distinct, to.signature, to.distinct);
    const cKF = containment(to.signature, to.distinct, from.signature, from.distinct);
    const w = JOIN_SCORE_WEIGHTS;
    const rescored = j.score + w.containment * (cFK - j.containmentFromTo) + w.keyCoverage * (cKF - j.containmentToFrom);
    return Math.max(j.score, Math.min(1, rescored));
  }

  /**
   * A column read across its table's row shards: the MinHash of the union of its aligned columns,
   * their summed distinct counts, how many pieces. A piece's column is found through the union
   * edge to any piece read before it (the shard closure reaches a piece through another piece).
   */
  private acrossShards(tableId: string, col: SnapshotColumn, shardThreshold: number): { signature: number[]; distinct: number; pieces: number } {
    const signature = [...col.minhash];
    let distinct = Math.max(1, col.distinctEstimate);
    const read = new Map<string, SnapshotColumn>([[tableId, col]]);
    for (const other of this.shardClosure(tableId, shardThreshold).slice(1)) {
      for (const [piece, pieceCol] of read) {
        const aligned = this.snapshot.unionBetween(piece, other)?.alignment.find((x) => x.columnAId === pieceCol.id || x.columnBId === pieceCol.id);
        const c = aligned && this.snapshot.columnById.get(aligned.columnAId === pieceCol.id ? aligned.columnBId : aligned.columnAId);
        if (!c) continue;
        for (let s = 0; s < signature.length; s++) signature[s] = Math.min(signature[s], c.minhash[s] ?? EMPTY_SLOT);
        distinct += Math.max(1, c.distinctEstimate);
        read.set(other, c);
        break;
      }
    }
    return { signature, distinct, pieces: read.size };
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
