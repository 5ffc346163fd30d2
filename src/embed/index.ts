export { EMBEDDING_DIM, type Embedder, embedQuery } from './embedder.js';
export {
  columnEmbeddingText,
  parseColumnEmbeddingText,
  type ParsedColumnText,
  MAX_SAMPLE_VALUES,
} from './column-text.js';
export {
  type DocumentFrequency,
  DocumentFrequencyTable,
  type DocumentFrequencySnapshot,
  inverseDocumentFrequency,
} from './document-frequency.js';
export { headerFeatureSet, headerLemmas } from './header-features.js';
export { HashedNgramEmbedder, type HashedNgramEmbedderOptions } from './hashed-ngram-embedder.js';
export { OpenAIEmbedder, type OpenAIEmbedderOptions } from './openai-embedder.js';
export { OnnxEmbedder, type OnnxEmbedderOptions, type ExecutionProvider } from './onnx-embedder.js';
export { WordPieceTokenizer, type WordPieceOptions } from './wordpiece-tokenizer.js';
export {
  type EmbedderConfig,
  type CreateEmbedderOptions,
  createEmbedder,
  embedderConfigFromEnv,
  OPENAI_DEFAULT_BASE_URL,
  OPENAI_DEFAULT_MODEL,
} from './config.js';
export { cosine, reduceToEmbeddingDim } from './vector.js';
export { WordVectors, defaultWordVectors, defaultWordVectorsLoaded, deriveCompactWordVectors, compactWordVectorPath, WORD_VECTOR_SOURCE } from './wordVectors.js';
