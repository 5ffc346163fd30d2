/**
 * The API as an Apollo Federation 2 subgraph: the same schema and resolvers as the standalone
 * server, with `@key(fields: "id")` on `Table` and `Column` so other subgraphs can extend them
 * (catalog ids are stable: derived from the table uri and column name, see catalog/store.ts)
 * and reference resolvers that honour the caller's grants (an ungranted or unknown id resolves
 * to null, exactly like `table(id)`).
 *
 * Built from the printed SDL of the type-graphql schema plus the federation directives (added
 * to the AST here, so the standalone schema stays free of them) and type-graphql's resolver map.
 */
import { buildSubgraphSchema, type GraphQLResolverMap } from '@apollo/subgraph';
import { createResolversMap } from 'type-graphql';
import {
  Kind,
  parse,
  printSchema,
  type ConstDirectiveNode,
  type DefinitionNode,
  type DocumentNode,
  type GraphQLSchema,
  type ObjectTypeDefinitionNode,
} from './graphql.js';
import type { RequestContext } from './context.js';
import { buildGraftSchema } from './schema/build.js';

/** Federation spec version the subgraph links (the gateway/router must support it). */
export const FEDERATION_SPEC_URL = 'https://specs.apollo.dev/federation/v2.3';

/** Entity types and their key fields. */
export const ENTITY_KEYS: Readonly<Record<string, string>> = { Table: 'id', Column: 'id' };

function keyDirective(fields: string): ConstDirectiveNode {
  return {
    kind: Kind.DIRECTIVE,
    name: { kind: Kind.NAME, value: 'key' },
    arguments: [{ kind: Kind.ARGUMENT, name: { kind: Kind.NAME, value: 'fields' }, value: { kind: Kind.STRING, value: fields } }],
  };
}

/** The standalone SDL with `extend schema @link(...)` and `@key` on the entity types. */
export function subgraphTypeDefs(schema: GraphQLSchema): DocumentNode {
  const doc = parse(printSchema(schema));
  const definitions: DefinitionNode[] = doc.definitions.map((d) => {
    if (d.kind !== Kind.OBJECT_TYPE_DEFINITION || !(d.name.value in ENTITY_KEYS)) return d;
    const withKey: ObjectTypeDefinitionNode = { ...d, directives: [...(d.directives ?? []), keyDirective(ENTITY_KEYS[d.name.value]!)] };
    return withKey;
  });
  const link = parse(`extend schema @link(url: "${FEDERATION_SPEC_URL}", import: ["@key"])`).definitions;
  return { ...doc, definitions: [...link, ...definitions] };
}

/** Resolvers for `_entities`: a reference `{ id }` -> the granted row, or null. */
export const referenceResolvers = {
  Table: {
    __resolveReference: (ref: { id: string }, ctx: RequestContext) => ctx.loaders.tableById.load(ref.id),
  },
  Column: {
    __resolveReference: (ref: { id: string }, ctx: RequestContext) => ctx.loaders.columnById.load(ref.id),
  },
};

/** type-graphql's resolvers of `schema`, plus the reference resolvers. */
export function graftResolverMap(schema: GraphQLSchema): GraphQLResolverMap<RequestContext> {
  const map = createResolversMap(schema) as unknown as Record<string, Record<string, unknown>>;
  for (const [type, resolvers] of Object.entries(referenceResolvers)) map[type] = { ...map[type], ...resolvers };
  return map as unknown as GraphQLResolverMap<RequestContext>;
}

let cached: Promise<GraphQLSchema> | undefined;

/** The subgraph schema (built once per process). `GRAFT_FEDERATION=1` makes `graft serve` serve it. */
export function buildGraftSubgraphSchema(): Promise<GraphQLSchema> {
  cached ??= buildGraftSchema().then((schema) =>
    buildSubgraphSchema([{ typeDefs: subgraphTypeDefs(schema), resolvers: graftResolverMap(schema) }]),
  );
  return cached;
}
