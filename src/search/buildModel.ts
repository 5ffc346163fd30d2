import type { CatalogDatabase } from '../catalog/database.js';
import { columnEmbeddingText, type Embedder } from '../embed/index.js';
import { memoInto } from '../util/boundedMemo.js';
import { isCorpusFitted } from '../ingest/refreshEmbeddings.js';
import { intentAtoms, type IntentAtom, type IntentGraph } from '../intent/index.js';
import { labelTokens, SupportScorer, type AtomContext } from './support.js';
import { SynthesisModel } from './synthesisModel.js';
import { LakeSnapshot } from './snapshot.js';

/**
 * Builds the synthesis model of a grounded intent graph over a snapshot: one atom context per
 * intent atom (label tokens, label embedding, grounded tables, parent). Lives in search so that
 * both the engine and value training (trajectory replay) build models the same way without
 * value depending on the engine.
 */
export async function buildSynthesisModel(graph: IntentGraph, snapshot: LakeSnapshot, embedder: Embedder): Promise<{ model: SynthesisModel; atoms: IntentAtom[] }> {
  const atoms = intentAtoms(graph);
  const index = new Map(atoms.map((a, i) => [a.id, i]));
  const labels = atoms.map((a) => (a.kind === 'relation' ? '' : a.label));
  const vectors = await labelVectors(snapshot, embedder, labels.map((l) => l || ' '));
  const contexts: AtomContext[] = atoms.map((atom, i) => {
    const groundedTables = new Map<string, number>();
    for (const g of atom.grounding) {
      if (!snapshot.tableById.has(g.tableId)) continue;
      groundedTables.set(g.tableId, Math.max(groundedTables.get(g.tableId) ?? 0, g.score));
    }
    return {
      atom,
      tokens: labelTokens(atom.label),
      embedding: atom.kind === 'relation' || snapshot.embedderId !== embedder.id ? null : vectors[i],
      groundedTables,
      parent: atom.kind === 'attribute' || atom.kind === 'value' ? (index.get(atom.parentIds[0]) ?? -1) : -1,
    };
  });
  const scorer = new SupportScorer(snapshot, contexts);
  return { model: new SynthesisModel(snapshot, atoms, scorer), atoms };
}

/** Most label vectors kept per snapshot (256 floats each). */
const MAX_LABEL_VECTORS = 10_000;
const labelVectorCache = new WeakMap<LakeSnapshot, Map<string, Float32Array>>();

/**
 * The embeddings of intent labels, remembered per snapshot (whose column statistics the question
 * embedder was fitted to): labels such as "name", "player", "department" recur across questions,
 * and embedding one costs more than the rest of building the model's atoms.
 */
async function labelVectors(snapshot: LakeSnapshot, embedder: Embedder, labels: string[]): Promise<Float32Array[]> {
  let cache = labelVectorCache.get(snapshot);
  if (!cache) labelVectorCache.set(snapshot, (cache = new Map()));
  const key = (label: string) => `${embedder.id}\u0000${label}`;
  const found = new Map<string, Float32Array>();
  for (const l of labels) {
    const v = cache.get(key(l));
    if (v) found.set(l, v);
  }
  const missing = [...new Set(labels.filter((l) => !found.has(l)))];
  if (missing.length > 0) {
    const vectors = await embedder.embed(missing);
    missing.forEach((l, i) => found.set(l, memoInto(cache, key(l), MAX_LABEL_VECTORS, () => vectors[i])));
  }
  return labels.map((l) => found.get(l)!);
}

/**
 * Fits a corpus-fitted embedder to the snapshot's column texts: questions must be embedded with
 * the IDF statistics the column vectors were made with.
 */
export function fitQuestionEmbedder(snapshot: LakeSnapshot, embedder: Embedder): LakeSnapshot {
  if (isCorpusFitted(embedder)) embedder.fit(snapshot.tables.flatMap((t) => t.columns.map((c) => columnEmbeddingText(t.name, c))));
  return snapshot;
}

/** The lake snapshot of a catalog with the question embedder fitted to it (engine and value training). */
export async function loadLakeSnapshot(db: CatalogDatabase, embedder: Embedder): Promise<LakeSnapshot> {
  return fitQuestionEmbedder(await LakeSnapshot.load(db), embedder);
}
