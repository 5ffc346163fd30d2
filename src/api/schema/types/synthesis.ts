import 'reflect-metadata';
import { Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Table } from './catalog.js';
import { IntentGraph } from './intent.js';

export enum TableRole {
  WITNESS = 'witness',
  BRIDGE = 'bridge',
  SHARD = 'shard',
  ALTERNATE = 'alternate',
}
registerEnumType(TableRole, {
  name: 'TableRole',
  description: 'WITNESS supports atoms of the question; BRIDGE only connects others; SHARD is a row shard unioned with a witness; ALTERNATE is outside the core synthesis and its SQL: a ranked extra returned where the evidence is ambiguous, up to the budget.',
});

@ObjectType()
export class SynthesisTable {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  uri!: string;

  @Field(() => TableRole)
  role!: TableRole;

  @Field(() => [String], { description: 'Atom ids the table supports (or the relation atoms it bridges).' })
  atoms!: string[];

  @Field(() => Float, { description: 'Marginal score gain when it was added.' })
  gain!: number;

  @Field(() => Float, {
    nullable: true,
    description: 'ALTERNATE only: the confidence, in (0,1), that the question needs this table (a model fitted on tuning questions); null for the core, and for syntheses stored before it was reported.',
  })
  confidence!: number | null;

  @Field(() => Table, { nullable: true, description: 'The catalog table (null if deleted since the synthesis was stored).' })
  table!: Table | null;
}

@ObjectType()
export class ColumnRef {
  @Field(() => String)
  table!: string;

  @Field(() => String)
  column!: string;
}

@ObjectType()
export class JoinStep {
  @Field(() => ColumnRef)
  left!: ColumnRef;

  @Field(() => ColumnRef)
  right!: ColumnRef;

  @Field(() => Float)
  score!: number;

  @Field(() => Float)
  containment!: number;
}

@ObjectType()
export class UnionGroup {
  @Field(() => [String])
  tables!: string[];

  @Field(() => [String])
  columns!: string[];
}

@ObjectType({ description: 'First rows of the fused SQL: column names and rows of cell texts (null stays null).' })
export class Preview {
  @Field(() => [String])
  columns!: string[];

  @Field(() => [[String]], { nullable: 'items', description: 'One list of cells per row, in `columns` order.' })
  rows!: (string | null)[][];

  @Field(() => String, {
    nullable: true,
    description: "The engine that ran the SQL ('duckdb'; SQLite tables are copied into it through better-sqlite3).",
  })
  engine!: string | null;
}

@ObjectType({ description: 'A connected set of tables answering a question, with the SQL fusing them.' })
export class Synthesis {
  @Field(() => ID, { description: 'Pass to synthesis(id) or explainScore(synthesisId) to get it back.' })
  id!: string;

  @Field(() => String)
  question!: string;

  @Field(() => IntentGraph)
  intent!: IntentGraph;

  @Field(() => [SynthesisTable])
  tables!: SynthesisTable[];

  @Field(() => [JoinStep])
  joinSteps!: JoinStep[];

  @Field(() => [UnionGroup])
  unionGroups!: UnionGroup[];

  @Field(() => String, { nullable: true, description: 'DuckDB SQL fusing the tables (null when no plan could be built).' })
  sql!: string | null;

  @Field(() => Boolean)
  executable!: boolean;

  @Field(() => Float)
  score!: number;

  @Field(() => [String])
  unsupportedAtoms!: string[];

  @Field(() => String, { description: "Value function that guided the search: 'heuristic', or 'learned' when a value model trained on this lake state is loaded (graft value train)." })
  valueFunction!: string;

  @Field(() => Preview, { nullable: true })
  preview!: Preview | null;

  @Field(() => Float)
  elapsedMs!: number;

  @Field(() => [String])
  warnings!: string[];

  @Field(() => String, { description: 'ISO 8601.' })
  createdAt!: string;

  @Field(() => Int, { description: 'Number of tables.' })
  tableCount!: number;
}
