import { cosine } from '../embed/index.js';
import { identifierTerms } from '../graph/index.js';
import type { IntentAtom } from '../intent/index.js';
import { tableTerms, type TableTerms } from './recall.js';
import type { LakeSnapshot, SnapshotTable } from './snapshot.js';

/**
 * How strongly one table supports one node atom (entity, attribute or value), in [0,1].
 *
 * Three kinds of evidence, the strongest wins:
 *  - grounding: the extractor matched the atom to this table/column (table name, column name,
 *    WordNet synonym, value index) and gave that match a score;
 *  - lexical: the atom label's tokens against the table's / columns' name tokens (coverage of
 *    the label's tokens, singularised), so LLM or decomposition intents without grounding work;
 *  - semantic: cosine of the label's embedding and a column's embedding, damped (hashed n-gram
 *    vectors are noisy) and only above a floor.
 * Attributes are gated by their entity (an attribute "name" of "player" is weak evidence in a
 * table that is not about players), values by their attribute.
 */
export interface SupportOptions {
  /** Factor on evidence for an ENTITY found in a column (a foreign key like player_id mentions players, it does not describe them). */
  entityFromColumn: number;
  semanticWeight: number;
  semanticFloor: number;
  /** Share of an attribute's support that does not depend on the table also witnessing its entity. */
  attributeBase: number;
  /** Factor on lexical/semantic evidence for a table the extractor's grounding did not name. */
  ungroundedFactor: number;
}

export const DEFAULT_SUPPORT_OPTIONS: SupportOptions = { entityFromColumn: 0.3, semanticWeight: 0.75, semanticFloor: 0.35, attributeBase: 0.6, ungroundedFactor: 0.5 };

export interface AtomContext {
  atom: IntentAtom;
  tokens: Set<string>;
  embedding: Float32Array | null;
  /** Grounding score per table id (best over the atom's groundings for that table). */
  groundedTables: Map<string, number>;
  /** Index of the parent node atom (entity for attributes, attribute for values), or -1. */
  parent: number;
}

/** A label's words, read like the tables' names (`identifierTerms`, as `tableTerms`: hash-like parts and single letters dropped). */
export function labelTokens(label: string): Set<string> {
  return new Set(identifierTerms(label));
}

/** Share of `label` tokens found in `name` tokens (0 when the label has none). */
export function tokenCoverage(label: Set<string>, name: Set<string>): number {
  if (label.size === 0) return 0;
  let hit = 0;
  for (const t of label) if (name.has(t)) hit++;
  return hit / label.size;
}


/**
 * The column embeddings of a snapshot as an inverted index over dimensions, so that a label is
 * compared with every column at once by visiting only the non-zero entries of both (hashed
 * n-gram vectors are mostly zeros). Gives `cosine` bit for bit: per column the same products are
 * summed in the same (dimension) order; the skipped terms are exact zeros.
 */
class ColumnVectorIndex {
  private static readonly bySnapshot = new WeakMap<LakeSnapshot, ColumnVectorIndex>();

  static of(snapshot: LakeSnapshot): ColumnVectorIndex {
    let index = ColumnVectorIndex.bySnapshot.get(snapshot);
    if (!index) ColumnVectorIndex.bySnapshot.set(snapshot, (index = new ColumnVectorIndex(snapshot)));
    return index;
  }

  /** Length of the indexed vectors (columns whose vector has another length are not indexed). */
  readonly dim: number;
  readonly size: number;
  /** Position in the index of each column of each table (−1: not indexed). */
  private readonly positions = new Map<string, Int32Array>();
  private readonly normSq: Float64Array;
  /** Per dimension: positions of the columns with a non-zero entry there, ascending, and the entries. */
  private readonly entries: { positions: Int32Array; values: Float64Array }[];

  private constructor(snapshot: LakeSnapshot) {
    this.dim = snapshot.tables.flatMap((t) => t.columns).find((c) => c.embedding)?.embedding?.length ?? 0;
    const vectors: Float32Array[] = [];
    for (const t of snapshot.tables) {
      this.positions.set(
        t.id,
        Int32Array.from(t.columns, (c) => {
          if (!c.embedding || c.embedding.length !== this.dim) return -1;
          vectors.push(c.embedding);
          return vectors.length - 1;
        }),
      );
    }
    this.size = vectors.length;
    this.normSq = new Float64Array(vectors.length);
    const counts = new Int32Array(this.dim);
    vectors.forEach((v, p) => {
      let normSq = 0;
      for (let i = 0; i < this.dim; i++) {
        normSq += v[i] * v[i];
        if (v[i] !== 0) counts[i]++;
      }
      this.normSq[p] = normSq;
    });
    this.entries = Array.from(counts, (n) => ({ positions: new Int32Array(n), values: new Float64Array(n) }));
    const filled = new Int32Array(this.dim);
    vectors.forEach((v, p) => {
      for (let i = 0; i < this.dim; i++) {
        if (v[i] === 0) continue;
        const k = filled[i]++;
        this.entries[i].positions[k] = p;
        this.entries[i].values[k] = v[i];
      }
    });
  }

  /** Index positions of the columns of a table, in column order. */
  positionsOf(tableId: string): Int32Array | undefined {
    return this.positions.get(tableId);
  }

  /** cosine(label, column) for every indexed column, by position; null when the label has another length. */
  cosines(label: Float32Array): Float64Array | null {
    if (label.length !== this.dim) return null;
    const dot = new Float64Array(this.size);
    let labelNormSq = 0;
    for (let i = 0; i < this.dim; i++) {
      const a = label[i];
      labelNormSq += a * a;
      if (a === 0) continue;
      const { positions, values } = this.entries[i];
      for (let k = 0; k < positions.length; k++) dot[positions[k]] += a * values[k];
    }
    for (let p = 0; p < this.size; p++) dot[p] = labelNormSq === 0 || this.normSq[p] === 0 ? 0 : dot[p] / Math.sqrt(labelNormSq * this.normSq[p]);
    return dot;
  }
}

export class SupportScorer {
  private readonly vectors: ColumnVectorIndex;
  /** Per atom: cosine of its label embedding with every indexed column (computed on first use). */
  private labelCosines?: (Float64Array | null)[];
  /** Atom indices in scoring order: entities, then attributes (gated by entity), then values (gated by attribute). */
  private readonly scoringOrder: number[];

  constructor(
    readonly snapshot: LakeSnapshot,
    readonly atoms: AtomContext[],
    readonly options: SupportOptions = DEFAULT_SUPPORT_OPTIONS,
  ) {
    this.vectors = ColumnVectorIndex.of(snapshot);
    this.scoringOrder = (['entity', 'attribute', 'value'] as const).flatMap((kind) => atoms.flatMap((ctx, j) => (ctx.atom.kind === kind ? [j] : [])));
  }

  /** Support of every node atom by table t (relation atoms get 0: they depend on the set). */
  row(t: SnapshotTable): Float64Array {
    const out = new Float64Array(this.atoms.length);
    const tokens = tableTerms(t);
    const positions = this.vectors.positionsOf(t.id);
    this.labelCosines ??= this.atoms.map((ctx) => (ctx.embedding && ctx.atom.kind !== 'value' ? this.vectors.cosines(ctx.embedding) : null));
    for (const j of this.scoringOrder) {
      const ctx = this.atoms[j];
      const kind = ctx.atom.kind;
      const direct = this.direct(t, tokens, positions, ctx, this.labelCosines[j]);
      if (kind === 'entity') out[j] = direct;
      else {
        const parentSupport = ctx.parent >= 0 ? out[ctx.parent] : 1;
        const base = kind === 'attribute' ? this.options.attributeBase : 0.5;
        out[j] = direct * (base + (1 - base) * parentSupport);
        if (kind === 'value' && direct === 0 && ctx.parent >= 0) {
          // A literal with no value-index hit still needs the column it constrains.
          out[j] = 0.5 * out[ctx.parent];
        }
      }
    }
    return out;
  }

  private direct(t: SnapshotTable, tokens: TableTerms, positions: Int32Array | undefined, ctx: AtomContext, cosines: Float64Array | null): number {
    let best = ctx.groundedTables.get(t.id) ?? 0;
    if (ctx.atom.kind === 'value') return best;
    const o = this.options;
    if (ctx.atom.kind === 'entity') {
      // "player" names the table player fully but player_club_map only in part: weigh how much
      // of the table's name the label accounts for, so the entity's own table wins over tables
      // that merely mention it.
      const name = tokens.name;
      const labelCovered = tokenCoverage(ctx.tokens, name);
      if (labelCovered > 0) best = Math.max(best, labelCovered * (0.5 + 0.5 * tokenCoverage(name, ctx.tokens)));
    }
    t.columns.forEach((c, k) => {
      let s = tokenCoverage(ctx.tokens, tokens.perColumn[k]);
      if (ctx.embedding && c.embedding) {
        const position = positions ? positions[k] : -1;
        const cos = cosines && position >= 0 ? cosines[position] : cosine(ctx.embedding, c.embedding);
        if (cos > o.semanticFloor) s = Math.max(s, o.semanticWeight * cos);
      }
      if (ctx.atom.kind === 'entity') s *= o.entityFromColumn;
      if (s > best) best = s;
    });
    // The extractor already matched the label against every name, synonym and value of the
    // catalog; when it grounded the atom, our own looser lexical/semantic evidence for tables it
    // did not pick counts at half weight.
    const grounded = ctx.groundedTables.get(t.id);
    if (ctx.groundedTables.size > 0 && grounded === undefined) best *= o.ungroundedFactor;
    return Math.min(1, Math.max(best, grounded ?? 0));
  }
}
