/** Every vector the catalog stores has this many dimensions (the pgvector column is vector(256)). */
export const EMBEDDING_DIM = 256;

/**
 * Turns texts into unit-length 256-d vectors. Column texts come from `columnEmbeddingText`;
 * natural-language questions are passed as they are, so both live in one space and can be
 * compared by cosine (= dot product, since every vector is L2-normalised).
 */
export interface Embedder {
  /** Stable identifier stored with each vector, e.g. 'builtin-hash-v1', 'openai:text-embedding-3-small', 'onnx:<dir basename>'. */
  readonly id: string;
  readonly dim: typeof EMBEDDING_DIM;
  /** One vector per text, in input order; every vector has length 256 and L2 norm 1. */
  embed(texts: string[]): Promise<Float32Array[]>;
  /** Frees native or network resources, where the implementation holds any. */
  close?(): Promise<void>;
}

/** Embeds a natural-language question into the same space as the column vectors. */
export async function embedQuery(embedder: Embedder, text: string): Promise<Float32Array> {
  const [vector] = await embedder.embed([text]);
  return vector;
}
