import 'reflect-metadata';
import { type GraphQLSchema, printSchema } from '../graphql.js';
import { buildSchema } from 'type-graphql';
import {
  CatalogQueryResolver,
  ColumnAlignmentResolver,
  ColumnConnectionResolver,
  ColumnResolver,
  JoinNeighbourResolver,
  TableConnectionResolver,
  TableResolver,
  UnionNeighbourResolver,
} from './resolvers/catalogResolvers.js';
import { EngineResolver } from './resolvers/engineResolvers.js';
import { EnrichResolver } from './resolvers/enrichResolvers.js';
import { IngestResolver } from './resolvers/ingestResolvers.js';

let cached: Promise<GraphQLSchema> | undefined;

/** The API schema, built once per process from the type-graphql classes (code-first). */
export function buildGraftSchema(): Promise<GraphQLSchema> {
  cached ??= buildSchema({
    resolvers: [
      CatalogQueryResolver,
      TableConnectionResolver,
      ColumnConnectionResolver,
      TableResolver,
      ColumnResolver,
      JoinNeighbourResolver,
      UnionNeighbourResolver,
      ColumnAlignmentResolver,
      EngineResolver,
      EnrichResolver,
      IngestResolver,
    ],
    validate: false,
  });
  return cached;
}

/** SDL as committed in schema/schema.graphql (in declaration order). */
export async function printGraftSchema(): Promise<string> {
  return `${printSchema(await buildGraftSchema())}\n`;
}
