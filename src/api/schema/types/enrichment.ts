import 'reflect-metadata';
import { Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Table } from './catalog.js';
import { ScoreExplanation } from './explain.js';
import { IntentGraph } from './intent.js';
import { JoinStep, Preview, UnionGroup } from './synthesis.js';

export enum EnrichmentRole {
  BASE = 'base',
  UNION = 'union',
  JOIN = 'join',
}
registerEnumType(EnrichmentRole, {
  name: 'EnrichmentRole',
  description: 'BASE is the table asked about; UNION adds rows (instances that carry the target); JOIN adds columns (attributes, through a key, no fan-out).',
});

@ObjectType()
export class EnrichmentTable {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  uri!: string;

  @Field(() => EnrichmentRole)
  role!: EnrichmentRole;

  @Field(() => Float, { description: 'IGMS gain (nats of log det) when it was added; 0 for the base.' })
  gain!: number;

  @Field(() => [String], { description: 'Columns of the enriched table it brings.' })
  newColumns!: string[];

  @Field(() => Float, { description: 'Rows it adds (UNION).' })
  newRows!: number;

  @Field(() => String, { nullable: true, description: 'JOIN: the base-side key column.' })
  joinBaseColumn!: string | null;

  @Field(() => String, { nullable: true, description: 'JOIN: its key column.' })
  joinColumn!: string | null;

  @Field(() => Float, { nullable: true, description: "JOIN: share of the base's key values it holds." })
  joinCoverage!: number | null;

  @Field(() => Table, { nullable: true })
  table!: Table | null;
}

@ObjectType({ description: 'A table next to the base that enrichment considered and left out.' })
export class EnrichmentRejection {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String, { description: 'redundant | fan-out | weak-join | no-target | nothing-new | leaks-target | low-gain | budget' })
  reason!: string;

  @Field(() => String)
  detail!: string;
}

@ObjectType({ description: 'A column that reproduces the target for the same rows; left out unless named in features.' })
export class TargetLeak {
  @Field(() => String)
  table!: string;

  @Field(() => String)
  column!: string;

  @Field(() => String, { description: 'equal | correlation | relabelling' })
  evidence!: string;

  @Field(() => Boolean)
  kept!: boolean;
}

@ObjectType({ description: 'Training-data enrichment of a base table: the tables that add rows or attributes, and the SQL of the enriched table.' })
export class Enrichment {
  @Field(() => EnrichmentTable)
  baseTable!: EnrichmentTable;

  @Field(() => String)
  target!: string;

  @Field(() => String, { description: 'regression | classification' })
  task!: string;

  @Field(() => IntentGraph, { description: 'The intent built from the base table.' })
  intent!: IntentGraph;

  @Field(() => [EnrichmentTable], { description: 'The base first, then the added tables in the order IGMS chose them.' })
  tables!: EnrichmentTable[];

  @Field(() => [EnrichmentRejection])
  rejected!: EnrichmentRejection[];

  @Field(() => [TargetLeak])
  leaks!: TargetLeak[];

  @Field(() => [JoinStep])
  joinSteps!: JoinStep[];

  @Field(() => [UnionGroup])
  unionGroups!: UnionGroup[];

  @Field(() => String, { nullable: true, description: 'DuckDB SQL of the enriched table (left joins from the base).' })
  sql!: string | null;

  @Field(() => [String])
  columns!: string[];

  @Field(() => Float, { nullable: true })
  rowCount!: number | null;

  @Field(() => Float, { nullable: true, description: 'Rows that have the target.' })
  labelledRows!: number | null;

  @Field(() => ScoreExplanation, { description: 'IGMS decomposition of the chosen set.' })
  explanation!: ScoreExplanation;

  @Field(() => Float)
  score!: number;

  @Field(() => Preview, { nullable: true })
  preview!: Preview | null;

  @Field(() => Float)
  elapsedMs!: number;

  @Field(() => [String])
  warnings!: string[];

  @Field(() => Int, { description: 'Number of tables added to the base.' })
  addedCount!: number;
}
