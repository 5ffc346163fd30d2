import 'reflect-metadata';
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'A file that could not be ingested.' })
export class IngestIssue {
  @Field(() => String)
  path!: string;

  @Field(() => String)
  code!: string;

  @Field(() => String)
  message!: string;
}

@ObjectType()
export class IngestWarning {
  @Field(() => String)
  path!: string;

  @Field(() => String)
  message!: string;
}

@ObjectType({ description: 'One ingest of a lake root; poll ingestRun(id) until status is not `running`.' })
export class IngestRun {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  path!: string;

  @Field(() => String, { description: 'running | succeeded | partial (some files failed) | failed | interrupted' })
  status!: string;

  @Field(() => String, { description: 'ISO 8601.' })
  startedAt!: string;

  @Field(() => String, { nullable: true })
  finishedAt!: string | null;

  @Field(() => Int)
  filesSeen!: number;

  @Field(() => Int)
  tablesIngested!: number;

  @Field(() => Int)
  tablesSkipped!: number;

  @Field(() => Int)
  tablesFailed!: number;

  @Field(() => Float)
  rowsProfiled!: number;

  @Field(() => [IngestIssue], { description: 'Per-file errors.' })
  errors!: IngestIssue[];

  @Field(() => Int)
  warningCount!: number;

  @Field(() => [IngestWarning], { description: 'The first 100 warnings.' })
  warnings!: IngestWarning[];
}
