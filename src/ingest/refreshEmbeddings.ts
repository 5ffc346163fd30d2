import type { CatalogStore } from '../catalog/store.js';
import { columnEmbeddingText, type Embedder } from '../embed/index.js';

/** An embedder whose vectors depend on corpus statistics (the built-in TF-IDF one). */
export interface CorpusFittedEmbedder extends Embedder {
  /** Recomputes corpus statistics (document frequencies) from every column text in the catalog. */
  fit(texts: string[]): void;
}

export function isCorpusFitted(e: Embedder): e is CorpusFittedEmbedder {
  return typeof (e as Partial<CorpusFittedEmbedder>).fit === 'function';
}

/**
 * Makes every stored vector consistent with the catalog as it now is.
 *
 * For a corpus-fitted embedder the IDF weights depend on all column headers, so after an
 * ingest changed the catalog every vector is recomputed from the final statistics: the result
 * depends only on what the catalog holds, not on ingest order (a killed and re-run ingest
 * converges to the same vectors). Columns embedded by another model are re-embedded too.
 * For stateless embedders only columns lacking a vector of this model are (re)embedded.
 */
export async function refreshEmbeddings(store: CatalogStore, embedder: Embedder): Promise<number> {
  const rows = await store.db.prisma.lakeColumn.findMany({
    select: { id: true, name: true, sampleValues: true, table: { select: { name: true } }, embedding: { select: { model: true } } },
    orderBy: [{ tableId: 'asc' }, { ordinal: 'asc' }],
  });
  const texts = rows.map((r) => columnEmbeddingText(r.table.name, { name: r.name, sampleValues: r.sampleValues }));
  let targets = rows.map((_, i) => i);
  if (isCorpusFitted(embedder)) {
    embedder.fit(texts);
  } else {
    targets = targets.filter((i) => rows[i].embedding?.model !== embedder.id);
  }
  if (targets.length === 0) return 0;
  const BATCH = 256;
  for (let i = 0; i < targets.length; i += BATCH) {
    const batch = targets.slice(i, i + BATCH);
    const vectors = await embedder.embed(batch.map((k) => texts[k]));
    await store.replaceEmbeddings(embedder.id, batch.map((k) => rows[k].id), vectors);
  }
  return targets.length;
}
