import { cosine } from '../embed/index.js';
import { tokeniseIdentifier } from '../graph/index.js';
import { isNoiseToken, type IntentAtom } from '../intent/index.js';
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

export function labelTokens(label: string): Set<string> {
  return new Set(tokeniseIdentifier(label).filter((t) => (t.length > 1 || /\d/.test(t)) && !isNoiseToken(t)));
}

/** Share of `label` tokens found in `name` tokens (0 when the label has none). */
export function tokenCoverage(label: Set<string>, name: Set<string>): number {
  if (label.size === 0) return 0;
  let hit = 0;
  for (const t of label) if (name.has(t)) hit++;
  return hit / label.size;
}

export class SupportScorer {
  private readonly tableTokens = new Map<string, Set<string>>();
  private readonly columnTokens = new Map<string, Set<string>>();

  constructor(
    readonly snapshot: LakeSnapshot,
    readonly atoms: AtomContext[],
    readonly options: SupportOptions = DEFAULT_SUPPORT_OPTIONS,
  ) {}

  private tokensOfTable(t: SnapshotTable): Set<string> {
    let s = this.tableTokens.get(t.id);
    if (!s) this.tableTokens.set(t.id, (s = labelTokens(t.name)));
    return s;
  }

  private tokensOfColumn(id: string, name: string): Set<string> {
    let s = this.columnTokens.get(id);
    if (!s) this.columnTokens.set(id, (s = labelTokens(name)));
    return s;
  }

  /** Support of every node atom by table t (relation atoms get 0: they depend on the set). */
  row(t: SnapshotTable): Float64Array {
    const out = new Float64Array(this.atoms.length);
    // Entities first, then attributes (gated by entity), then values (gated by attribute).
    for (const kind of ['entity', 'attribute', 'value'] as const) {
      this.atoms.forEach((ctx, j) => {
        if (ctx.atom.kind !== kind) return;
        const direct = this.direct(t, ctx);
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
      });
    }
    return out;
  }

  private direct(t: SnapshotTable, ctx: AtomContext): number {
    let best = ctx.groundedTables.get(t.id) ?? 0;
    if (ctx.atom.kind === 'value') return best;
    const o = this.options;
    if (ctx.atom.kind === 'entity') {
      // "player" names the table player fully but player_club_map only in part: weigh how much
      // of the table's name the label accounts for, so the entity's own table wins over tables
      // that merely mention it.
      const name = this.tokensOfTable(t);
      const labelCovered = tokenCoverage(ctx.tokens, name);
      if (labelCovered > 0) best = Math.max(best, labelCovered * (0.5 + 0.5 * tokenCoverage(name, ctx.tokens)));
    }
    for (const c of t.columns) {
      let s = tokenCoverage(ctx.tokens, this.tokensOfColumn(c.id, c.name));
      if (ctx.embedding && c.embedding) {
        const cos = cosine(ctx.embedding, c.embedding);
        if (cos > o.semanticFloor) s = Math.max(s, o.semanticWeight * cos);
      }
      if (ctx.atom.kind === 'entity') s *= o.entityFromColumn;
      if (s > best) best = s;
    }
    // The extractor already matched the label against every name, synonym and value of the
    // catalog; when it grounded the atom, our own looser lexical/semantic evidence for tables it
    // did not pick counts at half weight.
    const grounded = ctx.groundedTables.get(t.id);
    if (ctx.groundedTables.size > 0 && grounded === undefined) best *= o.ungroundedFactor;
    return Math.min(1, Math.max(best, grounded ?? 0));
  }
}
