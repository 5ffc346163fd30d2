export {
  INTENT_SCHEMA_VERSION,
  VALUE_OPERATORS,
  GROUNDING_KINDS,
  GroundingSchema,
  ValueLeafSchema,
  AttributeNodeSchema,
  EntityNodeSchema,
  IntentTreeSchema,
  CrossTreeEdgeSchema,
  IntentGraphSchema,
  parseIntentGraph,
  intentGraphJsonSchema,
  formatPath,
} from './schema.js';
export type {
  ValueOperator,
  GroundingKind,
  Grounding,
  ValueLeaf,
  ValueLiteral,
  AttributeNode,
  EntityNode,
  IntentTree,
  CrossTreeEdge,
  IntentGraph,
  IntentGraphIssue,
} from './schema.js';
export { intentAtoms, renderLiteral } from './atoms.js';
export type { IntentAtom, IntentAtomKind } from './atoms.js';
export { InMemoryVocabulary } from './vocabulary.js';
export type {
  CatalogVocabulary,
  VocabularyTable,
  VocabularyColumn,
  ValueLocation,
  InMemoryVocabularyTable,
  InMemoryVocabularyColumn,
} from './vocabulary.js';
export { OfflineExtractor, extractIntentOffline, mainNounPhrase } from './offline-extractor.js';
export type { OfflineExtractorOptions, OfflineExtraction, IntentMatch } from './offline-extractor.js';
export { LlmIntentExtractor, llmConfigFromEnv } from './llm-extractor.js';
export type { LlmIntentExtractorOptions, LlmExtraction, LlmConfig } from './llm-extractor.js';
export { LlmIntentGraphSchema, llmIntentGraphJsonSchema, graphFromLlmReply } from './llm-schema.js';
export { buildSystemPrompt, buildUserPrompt, PROMPT_BLOCK_HEADERS, PROMPT_EXAMPLES } from './llm-prompt.js';
export { intentFromDecomposition } from './decomposition.js';
export type { DecompositionOptions } from './decomposition.js';
export { WordNetSynonyms, defaultSynonyms } from './wordnet.js';
export type { SynonymSource, WordNetOptions } from './wordnet.js';
export { readsAsName, tokeniseQuestion, STOP_WORDS } from './text.js';
export type { QuestionToken } from './text.js';
