/** Public API of the fusion layer: a chosen table set -> union groups, join tree, one DuckDB statement. */
export { planFusion } from './plan.js';
export { previewFusion, countFusion, jsonSafeValue, DEFAULT_MAX_COPIED_ROWS, type FusionRunOptions } from './execute.js';
export { fusionSource, lakeEntryOf, type SourceCopier } from './source.js';
export { FusionExecutionError } from './errors.js';
export {
  DEFAULT_UNION_THRESHOLD,
  type BoundFilter,
  type FilterLiteral,
  type FilterOperator,
  type FusionColumn,
  type FusionFormat,
  type FusionInput,
  type FusionJoinEdge,
  type FusionPlan,
  type FusionPreview,
  type FusionRunInfo,
  type FusionSource,
  type FusionSourceRun,
  type FusionTable,
  type FusionUnionEdge,
  type GroupColumn,
  type GroupColumnSource,
  type JoinKeyRef,
  type JoinStep,
  type OutputColumn,
  type UnboundFilter,
  type UnionGroup,
  type ValueFilter,
} from './types.js';
