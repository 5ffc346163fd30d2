import 'reflect-metadata';
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';

@ObjectType()
export class AtomSupport {
  @Field(() => ID)
  atomId!: string;

  @Field(() => String, { description: 'entity | attribute | value | relation' })
  kind!: string;

  @Field(() => String)
  label!: string;

  @Field(() => Float, { description: 'Best support from any chosen table, in [0,1].' })
  support!: number;

  @Field(() => [ID], { description: 'Tables providing it.' })
  supportedBy!: string[];
}

@ObjectType()
export class TableContribution {
  @Field(() => ID)
  tableId!: string;

  @Field(() => String)
  name!: string;

  @Field(() => Float)
  marginalGain!: number;

  @Field(() => Float)
  leaveOneOutLoss!: number;
}

@ObjectType()
export class Redundancy {
  @Field(() => ID)
  tableA!: string;

  @Field(() => ID)
  tableB!: string;

  @Field(() => Float)
  rho!: number;
}

@ObjectType()
export class Determinant {
  @Field(() => Int)
  atoms!: number;

  @Field(() => Float)
  logDetPrior!: number;

  @Field(() => Float)
  logDetPosterior!: number;
}

@ObjectType({ description: 'Why a set of tables scores what it scores for a question.' })
export class ScoreExplanation {
  @Field(() => [ID])
  tableIds!: string[];

  @Field(() => Float)
  score!: number;

  @Field(() => [AtomSupport])
  atoms!: AtomSupport[];

  @Field(() => [TableContribution])
  tables!: TableContribution[];

  @Field(() => [Redundancy])
  redundancy!: Redundancy[];

  @Field(() => Determinant)
  determinant!: Determinant;

  @Field(() => [String])
  unsupportedAtoms!: string[];

  @Field(() => [String])
  warnings!: string[];
}
