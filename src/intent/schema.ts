import { z } from 'zod';
import { BadInputError } from '../util/errors.js';

/**
 * Version of the stored intent-graph shape. Bump it when a field changes meaning; parsers refuse
 * other versions rather than guess.
 */
export const INTENT_SCHEMA_VERSION = 1 as const;

export const VALUE_OPERATORS = ['=', '!=', '<', '<=', '>', '>=', 'like', 'in', 'between'] as const;
export type ValueOperator = (typeof VALUE_OPERATORS)[number];

export const GROUNDING_KINDS = ['table-name', 'column-name', 'synonym', 'value'] as const;
export type GroundingKind = (typeof GROUNDING_KINDS)[number];

const nonEmpty = z.string().min(1, 'must be a non-empty string');
const scalarLiteral = z.union([z.string(), z.number()]);

/** A catalog match that grounded an atom: the table (and column) and how it was found. */
export const GroundingSchema = z.strictObject({
  tableId: nonEmpty,
  columnId: nonEmpty.optional(),
  kind: z.enum(GROUNDING_KINDS),
  score: z.number().min(0).max(1),
});

export const ValueLeafSchema = z.strictObject({
  id: nonEmpty,
  operator: z.enum(VALUE_OPERATORS),
  literal: z.union([scalarLiteral, z.array(scalarLiteral)]),
  grounding: z.array(GroundingSchema).optional(),
});

export const AttributeNodeSchema = z.strictObject({
  id: nonEmpty,
  label: nonEmpty,
  grounding: z.array(GroundingSchema).optional(),
  value: ValueLeafSchema.optional(),
});

export const EntityNodeSchema = z.strictObject({
  id: nonEmpty,
  label: nonEmpty,
  /** True for an entity the question never names but that is needed to connect two others. */
  bridge: z.boolean().optional(),
  grounding: z.array(GroundingSchema).optional(),
});

export const IntentTreeSchema = z.strictObject({
  entity: EntityNodeSchema,
  attributes: z.array(AttributeNodeSchema),
});

export const CrossTreeEdgeSchema = z.strictObject({
  id: nonEmpty,
  from: nonEmpty,
  to: nonEmpty,
  label: nonEmpty.optional(),
});

/** Shape-only schema (no cross-reference checks); `IntentGraphSchema` adds those. */
const IntentGraphShape = z.strictObject({
  version: z.literal(INTENT_SCHEMA_VERSION),
  trees: z.array(IntentTreeSchema).min(1, 'an intent graph needs at least one entity tree'),
  edges: z.array(CrossTreeEdgeSchema),
});

export type Grounding = z.infer<typeof GroundingSchema>;
export type ValueLeaf = z.infer<typeof ValueLeafSchema>;
export type AttributeNode = z.infer<typeof AttributeNodeSchema>;
export type EntityNode = z.infer<typeof EntityNodeSchema>;
export type IntentTree = z.infer<typeof IntentTreeSchema>;
export type CrossTreeEdge = z.infer<typeof CrossTreeEdgeSchema>;
export type IntentGraph = z.infer<typeof IntentGraphShape>;
export type ValueLiteral = ValueLeaf['literal'];

/**
 * The full intent-graph schema: shape plus the rules zod cannot say structurally — ids unique
 * across every atom, edges between existing entities, no self-loops, literal arity per operator.
 */
export const IntentGraphSchema = IntentGraphShape.superRefine((graph, ctx) => {
  const seen = new Map<string, string>();
  const claim = (id: string, path: (string | number)[]): void => {
    const first = seen.get(id);
    if (first !== undefined) {
      ctx.addIssue({ code: 'custom', path, message: `duplicate id '${id}' (first used at ${first})` });
    } else {
      seen.set(id, formatPath(path));
    }
  };
  const entityIds = new Set<string>();
  graph.trees.forEach((tree, t) => {
    claim(tree.entity.id, ['trees', t, 'entity', 'id']);
    entityIds.add(tree.entity.id);
    tree.attributes.forEach((attr, a) => {
      claim(attr.id, ['trees', t, 'attributes', a, 'id']);
      if (attr.value) {
        claim(attr.value.id, ['trees', t, 'attributes', a, 'value', 'id']);
        const problem = literalProblem(attr.value.operator, attr.value.literal);
        if (problem) {
          ctx.addIssue({ code: 'custom', path: ['trees', t, 'attributes', a, 'value', 'literal'], message: problem });
        }
      }
    });
  });
  graph.edges.forEach((edge, e) => {
    claim(edge.id, ['edges', e, 'id']);
    for (const end of ['from', 'to'] as const) {
      if (!entityIds.has(edge[end])) {
        ctx.addIssue({ code: 'custom', path: ['edges', e, end], message: `unknown entity id '${edge[end]}'` });
      }
    }
    if (edge.from === edge.to) {
      ctx.addIssue({ code: 'custom', path: ['edges', e], message: `self-loop on entity '${edge.from}'` });
    }
  });
});

function literalProblem(operator: ValueOperator, literal: ValueLiteral): string | undefined {
  const isList = Array.isArray(literal);
  if (operator === 'between') {
    return isList && literal.length === 2 ? undefined : "operator 'between' needs a [low, high] pair";
  }
  if (operator === 'in') {
    return isList && literal.length > 0 ? undefined : "operator 'in' needs a non-empty list";
  }
  return isList ? `operator '${operator}' needs a single string or number, not a list` : undefined;
}

/** `['trees', 0, 'entity', 'id']` -> `trees[0].entity.id`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(root)' : out;
}

export interface IntentGraphIssue {
  path: string;
  message: string;
}

/**
 * Validate an intent graph given as a parsed value or a JSON string. Throws `BadInputError`
 * whose message names each offending field path (`trees[0].attributes[1].value.operator: ...`).
 */
export function parseIntentGraph(json: unknown): IntentGraph {
  let value = json;
  if (typeof json === 'string') {
    try {
      value = JSON.parse(json);
    } catch (err) {
      throw new BadInputError(`invalid intent graph: (root): not valid JSON (${(err as Error).message})`, {
        issues: [{ path: '(root)', message: 'not valid JSON' }],
      });
    }
  }
  const result = IntentGraphSchema.safeParse(value);
  if (result.success) return result.data;
  const issues: IntentGraphIssue[] = result.error.issues.map((issue) => ({
    path: formatPath(issue.path),
    message: issue.message,
  }));
  throw new BadInputError(`invalid intent graph: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, {
    issues,
  });
}

/** JSON Schema (draft 2020-12) of a stored intent graph, grounding included. */
export function intentGraphJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(IntentGraphShape) as Record<string, unknown>;
}
