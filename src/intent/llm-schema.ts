import { z } from 'zod';
import { GraftError, ErrorCode } from '../util/errors.js';
import {
  INTENT_SCHEMA_VERSION,
  type IntentGraph,
  VALUE_OPERATORS,
  formatPath,
  parseIntentGraph,
} from './schema.js';

/*
 * What the model is asked to produce: the intent graph without catalog grounding (the model does
 * not know table ids; grounding is added afterwards against the vocabulary) and without the
 * version field. OpenAI strict structured output wants every property required and no extra
 * properties, so optional fields are spelled as nullable here.
 */

const scalar = z.union([z.string(), z.number()]);

const StrictValue = z.strictObject({
  id: z.string(),
  operator: z.enum(VALUE_OPERATORS),
  literal: z.union([scalar, z.array(scalar)]),
});
const StrictAttribute = z.strictObject({ id: z.string(), label: z.string(), value: StrictValue.nullable() });
const StrictEntity = z.strictObject({ id: z.string(), label: z.string(), bridge: z.boolean() });
const StrictTree = z.strictObject({ entity: StrictEntity, attributes: z.array(StrictAttribute) });
const StrictEdge = z.strictObject({ id: z.string(), from: z.string(), to: z.string(), label: z.string().nullable() });
/** The structured-output schema sent to the model. */
export const LlmIntentGraphSchema = z.strictObject({ trees: z.array(StrictTree), edges: z.array(StrictEdge) });
export type LlmIntentGraph = z.infer<typeof LlmIntentGraphSchema>;

// Parsing is a little more forgiving than the schema we send: a server that ignores strict mode
// may leave out nullable fields or add unknown ones; neither changes the meaning.
const LooseValue = z.object({
  id: z.string(),
  operator: z.enum(VALUE_OPERATORS),
  literal: z.union([scalar, z.array(scalar)]),
});
const LooseGraph = z.object({
  trees: z.array(
    z.object({
      entity: z.object({ id: z.string(), label: z.string(), bridge: z.boolean().nullish() }),
      attributes: z.array(z.object({ id: z.string(), label: z.string(), value: LooseValue.nullish() })).default([]),
    }),
  ),
  edges: z.array(z.object({ id: z.string(), from: z.string(), to: z.string(), label: z.string().nullish() })).default([]),
});

/** JSON Schema for `response_format.json_schema.schema` (strict-mode compatible). */
export function llmIntentGraphJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(LlmIntentGraphSchema) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

/**
 * Turn a model reply (the message content) into a validated intent graph. Throws a GraftError
 * (code UPSTREAM) naming the offending field path when the reply is not JSON, does not fit the
 * schema, or breaks a graph rule (duplicate ids, dangling edges).
 */
export function graphFromLlmReply(content: string | null | undefined): IntentGraph {
  if (content == null || content.trim() === '') {
    throw new GraftError(ErrorCode.UPSTREAM, 'LLM reply has no content');
  }
  let json: unknown;
  try {
    json = JSON.parse(stripFence(content));
  } catch (err) {
    throw new GraftError(ErrorCode.UPSTREAM, `LLM reply is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = LooseGraph.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${formatPath(i.path)}: ${i.message}`);
    throw new GraftError(ErrorCode.UPSTREAM, `LLM reply does not fit the intent schema: ${issues.join('; ')}`);
  }
  const graph: IntentGraph = {
    version: INTENT_SCHEMA_VERSION,
    trees: parsed.data.trees.map((t) => ({
      entity: { id: t.entity.id, label: t.entity.label, ...(t.entity.bridge ? { bridge: true } : {}) },
      attributes: t.attributes.map((a) => ({
        id: a.id,
        label: a.label,
        ...(a.value ? { value: { id: a.value.id, operator: a.value.operator, literal: a.value.literal } } : {}),
      })),
    })),
    edges: parsed.data.edges.map((e) => ({ id: e.id, from: e.from, to: e.to, ...(e.label ? { label: e.label } : {}) })),
  };
  try {
    return parseIntentGraph(graph);
  } catch (err) {
    throw new GraftError(ErrorCode.UPSTREAM, `LLM reply breaks an intent-graph rule: ${(err as Error).message}`);
  }
}

/** Some models wrap JSON in a ```json fence even in JSON mode. */
function stripFence(text: string): string {
  const m = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/.exec(text);
  return m ? m[1] : text;
}

/** Graph -> the model's output shape; used to render the prompt's worked examples. */
export function toLlmShape(graph: IntentGraph): LlmIntentGraph {
  return {
    trees: graph.trees.map((t) => ({
      entity: { id: t.entity.id, label: t.entity.label, bridge: t.entity.bridge ?? false },
      attributes: t.attributes.map((a) => ({
        id: a.id,
        label: a.label,
        value: a.value ? { id: a.value.id, operator: a.value.operator, literal: a.value.literal } : null,
      })),
    })),
    edges: graph.edges.map((e) => ({ id: e.id, from: e.from, to: e.to, label: e.label ?? null })),
  };
}
