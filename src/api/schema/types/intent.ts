import 'reflect-metadata';
import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { JSONScalar } from '../scalars.js';

export enum IntentExtractor {
  OFFLINE = 'offline',
  LLM = 'llm',
}
registerEnumType(IntentExtractor, {
  name: 'IntentExtractor',
  description: 'OFFLINE: rule-based, catalog-grounded, no network. LLM: a language model (GRAFT_LLM_*), falling back to OFFLINE.',
});

@ObjectType({ description: 'A catalog match that grounded an atom.' })
export class Grounding {
  @Field(() => ID)
  tableId!: string;

  @Field(() => String)
  tableName!: string;

  @Field(() => ID, { nullable: true })
  columnId!: string | null;

  @Field(() => String, { nullable: true })
  columnName!: string | null;

  @Field(() => String, { description: 'table-name | column-name | synonym | value' })
  kind!: string;

  @Field(() => Float)
  score!: number;
}

@ObjectType({ description: 'A value constraint on an attribute (`= "AIB"`, `> 2020`).' })
export class ValueLeaf {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { description: '= != < <= > >= like in between' })
  operator!: string;

  @Field(() => JSONScalar, { description: 'A string or number; a list for `in` and `between`.' })
  literal!: unknown;

  @Field(() => [Grounding])
  groundings!: Grounding[];
}

@ObjectType()
export class IntentAttribute {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  label!: string;

  @Field(() => [Grounding])
  groundings!: Grounding[];

  @Field(() => ValueLeaf, { nullable: true })
  value!: ValueLeaf | null;
}

@ObjectType()
export class IntentEntity {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  label!: string;

  @Field(() => Boolean, { description: 'An entity the question does not name, needed to connect two others.' })
  bridge!: boolean;

  @Field(() => [Grounding])
  groundings!: Grounding[];
}

@ObjectType({ description: 'One entity with its attributes (and their value leaves).' })
export class IntentTree {
  @Field(() => IntentEntity)
  entity!: IntentEntity;

  @Field(() => [IntentAttribute])
  attributes!: IntentAttribute[];
}

@ObjectType({ description: 'A relation between two entity trees.' })
export class CrossTreeEdge {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  from!: string;

  @Field(() => ID)
  to!: string;

  @Field(() => String, { nullable: true })
  label!: string | null;
}

@ObjectType({ description: 'What a question asks for: entity trees and the relations between them.' })
export class IntentGraph {
  @Field(() => Int)
  version!: number;

  @Field(() => [IntentTree])
  trees!: IntentTree[];

  @Field(() => [CrossTreeEdge])
  edges!: CrossTreeEdge[];

  @Field(() => String, { description: 'offline | llm | given | offline-fallback' })
  source!: string;

  @Field(() => [String])
  warnings!: string[];

  @Field(() => Float)
  elapsedMs!: number;

  @Field(() => JSONScalar, { description: 'The graph as stored (the shape IntentGraphInput accepts): edit it and pass it to synthesize(intent:).' })
  json!: unknown;
}

@InputType()
export class GroundingInput {
  @Field(() => ID)
  tableId!: string;

  @Field(() => ID, { nullable: true })
  columnId?: string | null;

  @Field(() => String, { description: 'table-name | column-name | synonym | value' })
  kind!: string;

  @Field(() => Float)
  score!: number;
}

@InputType()
export class ValueLeafInput {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  operator!: string;

  @Field(() => JSONScalar)
  literal!: unknown;

  @Field(() => [GroundingInput], { nullable: true })
  grounding?: GroundingInput[] | null;
}

@InputType()
export class AttributeNodeInput {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  label!: string;

  @Field(() => [GroundingInput], { nullable: true })
  grounding?: GroundingInput[] | null;

  @Field(() => ValueLeafInput, { nullable: true })
  value?: ValueLeafInput | null;
}

@InputType()
export class EntityNodeInput {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  label!: string;

  @Field(() => Boolean, { nullable: true })
  bridge?: boolean | null;

  @Field(() => [GroundingInput], { nullable: true })
  grounding?: GroundingInput[] | null;
}

@InputType()
export class IntentTreeInput {
  @Field(() => EntityNodeInput)
  entity!: EntityNodeInput;

  @Field(() => [AttributeNodeInput], { nullable: true })
  attributes?: AttributeNodeInput[] | null;
}

@InputType()
export class CrossTreeEdgeInput {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  from!: string;

  @Field(() => ID)
  to!: string;

  @Field(() => String, { nullable: true })
  label?: string | null;
}

@InputType({ description: 'An intent graph given instead of extracted (the shape of IntentGraph.json).' })
export class IntentGraphInput {
  @Field(() => Int, { nullable: true, description: 'Schema version; 1.' })
  version?: number | null;

  @Field(() => [IntentTreeInput])
  trees!: IntentTreeInput[];

  @Field(() => [CrossTreeEdgeInput], { nullable: true })
  edges?: CrossTreeEdgeInput[] | null;
}
