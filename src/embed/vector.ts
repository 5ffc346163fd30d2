import { EMBEDDING_DIM } from './embedder.js';

/** Cosine similarity; for the unit vectors embedders return this is the dot product. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/**
 * Brings a model vector to EMBEDDING_DIM and unit length. Longer vectors are truncated to their
 * first 256 components (Matryoshka-style: exact for models trained that way, such as OpenAI's
 * text-embedding-3 family; an approximation for others). Shorter vectors are zero-padded, which
 * preserves every cosine between vectors of the same model. Returns null for a zero or
 * non-finite vector so that callers can name the model in their error.
 */
export function reduceToEmbeddingDim(values: ArrayLike<number>): Float32Array | null {
  const n = Math.min(values.length, EMBEDDING_DIM);
  let sq = 0;
  for (let i = 0; i < n; i++) sq += values[i] * values[i];
  if (!(sq > 0) || !Number.isFinite(sq)) return null;
  const inv = 1 / Math.sqrt(sq);
  const out = new Float32Array(EMBEDDING_DIM);
  for (let i = 0; i < n; i++) out[i] = values[i] * inv;
  return out;
}
