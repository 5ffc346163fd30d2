export * from './types.js';
export { LakeGraphIndex } from './lakeGraphIndex.js';
export {
  tokeniseIdentifier,
  identifierTerms,
  isNumberToken,
  GENERIC_TOKENS,
  isGenericToken,
  weightedTokenJaccard,
  editDistance,
  editSimilarity,
} from './tokens.js';
export { typeFamily, valueSpecificity, isKeyLike, isJoinEligible, type TypeFamily } from './columnTraits.js';
export { prepareTable, type PreparedColumn, type PreparedTable } from './prepared.js';
export { evaluateJoin, bestJoin, joinTokenEvidence, joinNameEvidence, JOIN_SCORE_WEIGHTS } from './joinRules.js';
export {
  scoreUnion,
  columnUnionSimilarity,
  unionHeaderSimilarity,
  numericRangeOverlap,
  profileShapeSimilarity,
  UNION_COLUMN_WEIGHTS,
} from './unionRules.js';
export { maxWeightAssignment } from './hungarian.js';
export { graphRulesVersion, GRAPH_RULES_REVISION } from './rulesVersion.js';
