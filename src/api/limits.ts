import type { ApolloServerPlugin } from '@apollo/server';
import {
  type DocumentNode,
  type FragmentDefinitionNode,
  getNamedType,
  getNullableType,
  GraphQLError,
  type GraphQLSchema,
  isListType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from './graphql.js';
import { type ComplexityEstimator, getComplexity, simpleEstimator } from 'graphql-query-complexity';
import type { ApiLimits } from './config.js';
import { ErrorCode } from '../util/errors.js';

/**
 * Query limits, checked once the operation is resolved and before anything executes:
 *
 * - depth: the deepest nesting of fields (fragments followed; `__schema` / `__type` subtrees
 *   not counted, introspection is governed by its own switch);
 * - complexity (graphql-query-complexity): every field costs 1 plus its children; a field with
 *   a `first` argument (connections, searchColumns) costs `first` (at most `maxFirst`) x its
 *   children; an unpaged list of objects costs LIST_MULTIPLIER x its children; engine calls carry
 *   a surcharge that grows with the work they ask for (`engineCost`);
 * - engine fields: at most `maxEngineFields` engine root fields (aliases counted) per operation,
 *   since each runs a search the complexity of its selection says nothing about.
 *   `__schema` / `__type` subtrees cost nothing (see costEstimator), so the standard
 *   introspection query passes; the other fields of a mixed operation are costed as usual.
 *
 * Both reject with BAD_USER_INPUT (HTTP 400) and say which limit was hit in `extensions.limit`.
 */

/** Assumed length of an unpaged list (a table's columns, neighbours, a synthesis' tables). */
export const LIST_MULTIPLIER = 10;

/** Extra cost of root fields that run the engine or a vector search. */
export const ROOT_SURCHARGE: Record<string, number> = {
  synthesize: 200,
  enrich: 200,
  enrichRequest: 200,
  explainScore: 100,
  intentGraph: 50,
  searchColumns: 20,
  ingest: 50,
};

/** Root fields that run the engine: capped per operation. */
/**
 * Root fields that run the engine: each runs a search, whatever its selection. Enrichment counts
 * like the others: before it did, an operation of many aliased `enrich` fields (about 99 fit the
 * complexity limit) ran them all.
 */
export const ENGINE_FIELDS = new Set(['synthesize', 'explainScore', 'intentGraph', 'enrich', 'enrichRequest']);

/**
 * The surcharge of an engine field from what it asks for: a beam search evaluates about
 * budget x beamWidth states (each scored against every atom); an explanation builds one unit
 * per table and compares every pair (leave-one-out, redundancy).
 */
export function engineCost(field: string, args: Record<string, unknown>): number {
  const base = ROOT_SURCHARGE[field] ?? 0;
  const int = (v: unknown, d: number) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : d);
  if (field === 'synthesize') return base + 4 * int(args.budget, 10) * int(args.beamWidth, 4) + int(args.preview, 0);
  if (field === 'explainScore') {
    const n = Array.isArray(args.tables) ? args.tables.length : 1;
    return base + 10 * n + n * n;
  }
  return base;
}

function limitError(message: string, limit: 'depth' | 'complexity' | 'engineFields', max: number, actual: number): GraphQLError {
  return new GraphQLError(message, {
    extensions: { code: ErrorCode.BAD_USER_INPUT, limit, max, actual, http: { status: 400 } },
  });
}

/** The operation a request runs (by name, else the first) and the document's fragments by name. */
function selectedOperation(
  document: DocumentNode,
  operationName?: string | null,
): { op: OperationDefinitionNode; fragments: Map<string, FragmentDefinitionNode> } | null {
  const fragments = new Map<string, FragmentDefinitionNode>();
  const operations: OperationDefinitionNode[] = [];
  for (const d of document.definitions) {
    if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
    else if (d.kind === Kind.OPERATION_DEFINITION) operations.push(d);
  }
  const op = operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
  return op ? { op, fragments } : null;
}

export function queryDepth(document: DocumentNode, operationName?: string | null): number {
  const selected = selectedOperation(document, operationName);
  if (!selected) return 0;
  const { op, fragments } = selected;
  const depthOf = (set: SelectionSetNode | undefined, visiting: Set<string>): number => {
    if (!set) return 0;
    let max = 0;
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        if (sel.name.value === '__schema' || sel.name.value === '__type') continue;
        max = Math.max(max, 1 + depthOf(sel.selectionSet, visiting));
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        max = Math.max(max, depthOf(sel.selectionSet, visiting));
      } else {
        const name = sel.name.value;
        const frag = fragments.get(name);
        // A fragment cycle is a validation error anyway; do not recurse into it.
        if (!frag || visiting.has(name)) continue;
        visiting.add(name);
        max = Math.max(max, depthOf(frag.selectionSet, visiting));
        visiting.delete(name);
      }
    }
    return max;
  };
  return depthOf(op.selectionSet, new Set());
}

/** The meta fields that open an introspection subtree (everything below them is schema, not data). */
const INTROSPECTION_ROOTS = new Set(['__schema', '__type']);

/**
 * Cost model described above; `defaultFirst` prices a paged field called without `first`. A
 * `first` above `maxFirst` is priced at `maxFirst`: the resolver refuses it by name ("first must
 * be at most 500"), which tells the caller more than a complexity figure would.
 */
export function costEstimator(defaultFirst: number, maxFirst: number): ComplexityEstimator {
  return ({ type, field, args, childComplexity }) => {
  // Introspection reads the schema, not the catalog: its size is bounded by the schema and its
  // nesting by graphql-js's MaxIntrospectionDepthRule (part of the rules Apollo validates with).
  // Costing it like data made the standard getIntrospectionQuery() (GraphiQL, codegen) cost
  // ~49k. Whether it is allowed at all is the `introspection` switch's job.
  if (INTROSPECTION_ROOTS.has(field.name)) return 0;
  const surcharge = type.name === 'Query' || type.name === 'Mutation' ? engineCost(field.name, args) : 0;
  const paged = field.args.some((a) => a.name === 'first');
  if (paged) {
    const first = typeof args.first === 'number' && args.first >= 0 ? Math.min(args.first, maxFirst) : defaultFirst;
    return 1 + surcharge + first * Math.max(1, childComplexity);
  }
  const t = getNullableType(field.type);
  const named = getNamedType(field.type);
  const objectList = isListType(t) && 'getFields' in named;
  // A connection's `edges` is already paid for by its `first`.
  if (objectList && field.name !== 'edges') return 1 + surcharge + LIST_MULTIPLIER * childComplexity;
  return 1 + surcharge + childComplexity;
  };
}

/** Engine root fields of the operation, each alias counted (fragments at the root followed). */
export function engineFieldCount(document: DocumentNode, operationName?: string | null): number {
  const selected = selectedOperation(document, operationName);
  if (!selected) return 0;
  const { op, fragments } = selected;
  const count = (set: SelectionSetNode, visiting: Set<string>): number => {
    let n = 0;
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) n += ENGINE_FIELDS.has(sel.name.value) ? 1 : 0;
      else if (sel.kind === Kind.INLINE_FRAGMENT) n += count(sel.selectionSet, visiting);
      else {
        const frag = fragments.get(sel.name.value);
        if (!frag || visiting.has(sel.name.value)) continue;
        visiting.add(sel.name.value);
        n += count(frag.selectionSet, visiting);
        visiting.delete(sel.name.value);
      }
    }
    return n;
  };
  return count(op.selectionSet, new Set());
}

export function measureComplexity(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  operationName: string | null | undefined,
  pages: { defaultFirst: number; maxFirst: number },
): number {
  return getComplexity({
    schema,
    query: document,
    variables,
    operationName: operationName ?? undefined,
    estimators: [costEstimator(pages.defaultFirst, pages.maxFirst), simpleEstimator({ defaultComplexity: 1 })],
  });
}

/** Why an operation is refused: what `limitError` (or a coercion error) is made from. */
interface LimitViolation {
  message: string;
  limit?: 'depth' | 'complexity' | 'engineFields';
  max?: number;
  actual?: number;
}

/** Most variable shapes remembered per document; past it that document's memory starts over. */
const MAX_SHAPES_PER_DOCUMENT = 256;

/**
 * The limits' verdict on an operation, remembered per document: Apollo hands out the same
 * parsed DocumentNode for the same query text, and a catalog UI or dashboard sends the same few
 * queries again and again. Measuring complexity was about a twentieth of the server's main
 * thread under the API load bench. The verdict depends on the document, the operation and the
 * variables' numbers and list lengths (`first`, `budget`, `tables`), never on what a string
 * says, so strings are left out of the key: `synthesize(question: $q)` costs the same whatever
 * the question.
 */
export class OperationLimits {
  private readonly byDocument = new WeakMap<DocumentNode, Map<string, LimitViolation | null>>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly limits: ApiLimits,
  ) {}

  /** Throws the GraphQLError (BAD_USER_INPUT, HTTP 400) of the first limit the operation breaks. */
  check(document: DocumentNode, variables: Record<string, unknown> | undefined, operationName: string | null | undefined): void {
    let shapes = this.byDocument.get(document);
    if (!shapes) this.byDocument.set(document, (shapes = new Map()));
    const key = `${operationName ?? ''}\u0000${variableShape(variables)}`;
    let verdict = shapes.get(key);
    if (verdict === undefined) {
      verdict = this.judge(document, variables, operationName);
      // A coercion error quotes the caller's value: never handed to another caller.
      if (verdict === null || verdict.limit) {
        if (shapes.size >= MAX_SHAPES_PER_DOCUMENT) shapes.clear();
        shapes.set(key, verdict);
      }
    }
    if (verdict === null) return;
    if (!verdict.limit) throw new GraphQLError(verdict.message, { extensions: { code: ErrorCode.BAD_USER_INPUT, http: { status: 400 } } });
    throw limitError(verdict.message, verdict.limit, verdict.max!, verdict.actual!);
  }

  /** Cheapest checks first: a too deep or too engine-heavy operation is not costed at all. */
  private judge(document: DocumentNode, variables: Record<string, unknown> | undefined, operationName: string | null | undefined): LimitViolation | null {
    const { maxDepth, maxEngineFields, maxComplexity, defaultFirst, maxFirst } = this.limits;
    const depth = queryDepth(document, operationName);
    if (depth > maxDepth) return { message: `query depth ${depth} exceeds the limit of ${maxDepth}`, limit: 'depth', max: maxDepth, actual: depth };
    const engineFields = engineFieldCount(document, operationName);
    if (engineFields > maxEngineFields) {
      return {
        message: `the operation holds ${engineFields} engine fields (${[...ENGINE_FIELDS].join(', ')}); at most ${maxEngineFields} are allowed (GRAFT_MAX_ENGINE_FIELDS)`,
        limit: 'engineFields',
        max: maxEngineFields,
        actual: engineFields,
      };
    }
    let complexity: number;
    try {
      complexity = measureComplexity(this.schema, document, variables, operationName, { defaultFirst, maxFirst });
    } catch (err) {
      // getComplexity throws on variables it cannot coerce; execution would reject them too.
      return { message: err instanceof Error ? err.message : String(err) };
    }
    if (complexity > maxComplexity) {
      return {
        message: `query complexity ${complexity} exceeds the limit of ${maxComplexity} (ask for smaller pages or fewer nested lists)`,
        limit: 'complexity',
        max: maxComplexity,
        actual: complexity,
      };
    }
    return null;
  }
}

/** The variables as JSON with every string emptied: what the verdict can depend on. */
function variableShape(variables: Record<string, unknown> | undefined): string {
  if (!variables) return '';
  return JSON.stringify(variables, (_k, v: unknown) => (typeof v === 'string' ? '' : v));
}

export function limitsPlugin(schema: GraphQLSchema, limits: ApiLimits): ApolloServerPlugin {
  const operationLimits = new OperationLimits(schema, limits);
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document, operationName }) {
          operationLimits.check(document, request.variables, operationName);
        },
      };
    },
  };
}
