/**
 * OpenLineage run events (spec 2-0-2) for what graft does to the lake: ingesting a table and
 * answering a question with a synthesis. Plain JSON; the shapes are documented in README.md.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';

export const RUN_EVENT_SCHEMA_URL = 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent';
/** Who produced the event (OpenLineage `producer`, and every facet's `_producer`). */
export const PRODUCER = 'https://github.com/graft-catalog/graft-catalog/tree/v0.1.0';
/** Job namespace of every graft job. */
export const JOB_NAMESPACE = 'graft';
/** Namespace of the datasets graft creates (syntheses). */
export const GRAFT_DATASET_NAMESPACE = 'graft';

const FACETS = 'https://openlineage.io/spec/facets';
const SCHEMA_URLS = {
  schema: `${FACETS}/1-1-1/SchemaDatasetFacet.json#/$defs/SchemaDatasetFacet`,
  dataSource: `${FACETS}/1-0-1/DatasourceDatasetFacet.json#/$defs/DatasourceDatasetFacet`,
  dataQualityMetrics: `${FACETS}/1-0-2/DataQualityMetricsInputDatasetFacet.json#/$defs/DataQualityMetricsInputDatasetFacet`,
  parent: `${FACETS}/1-1-0/ParentRunFacet.json#/$defs/ParentRunFacet`,
  errorMessage: `${FACETS}/1-0-1/ErrorMessageRunFacet.json#/$defs/ErrorMessageRunFacet`,
  sql: `${FACETS}/1-1-0/SQLJobFacet.json#/$defs/SQLJobFacet`,
  jobType: `${FACETS}/2-0-3/JobTypeJobFacet.json#/$defs/JobTypeJobFacet`,
};
/** Where graft's own (custom) facets are described; `#<facet name>` is appended. */
const GRAFT_FACETS_URL = 'https://github.com/graft-catalog/graft-catalog/blob/main/src/lineage/README.md';

type Facet = { _producer: string; _schemaURL: string } & Record<string, unknown>;

function facet(kind: keyof typeof SCHEMA_URLS, body: Record<string, unknown>): Facet {
  return { _producer: PRODUCER, _schemaURL: SCHEMA_URLS[kind], ...body };
}

/** A custom facet; OpenLineage wants custom facet names prefixed by the producer (`graft_`). */
function graftFacet(name: `graft_${string}`, body: Record<string, unknown>): Facet {
  return { _producer: PRODUCER, _schemaURL: `${GRAFT_FACETS_URL}#${name}`, ...body };
}

export interface LineageDataset {
  namespace: string;
  name: string;
  facets?: Record<string, Facet>;
  inputFacets?: Record<string, Facet>;
}

export interface RunEvent {
  eventType: 'START' | 'COMPLETE' | 'FAIL';
  eventTime: string;
  producer: string;
  schemaURL: string;
  run: { runId: string; facets?: Record<string, Facet> };
  job: { namespace: string; name: string; facets?: Record<string, Facet> };
  inputs: LineageDataset[];
  outputs: LineageDataset[];
}

/** A catalog table as events describe it; `sourceRoot` + `name` decide who may see it (grants). */
export interface LineageTable {
  /** Catalog id (absent for a table that failed before it was stored). */
  id?: string;
  name: string;
  /** Absolute file path; `file.sqlite#table` for SQLite. */
  uri: string;
  format: string;
  sourceRoot: string;
  columns?: { name: string; logicalType: string; nullShare?: number; distinctEstimate?: number }[];
  rowCount?: number;
  profiledRows?: number;
  fingerprint?: string;
}

/**
 * The dataset naming (OpenLineage's conventions where it has one): files are `file` + absolute
 * path; a PostgreSQL table `postgres://host:port` + `db.schema.table`; a SQLite table
 * `sqlite://<absolute file path>` + table; a DuckDB file's table `duckdb://<absolute file path>`
 * + `schema.table`.
 */
export function datasetName(t: Pick<LineageTable, 'uri' | 'format'>): { namespace: string; name: string } {
  const hash = t.uri.lastIndexOf('#');
  const [where, what] = [t.uri.slice(0, hash), t.uri.slice(hash + 1)];
  if (t.format === 'sqlite') return { namespace: `sqlite://${where}`, name: what };
  if (t.format === 'duckdb') return { namespace: `duckdb://${where}`, name: what };
  if (t.format === 'postgres') {
    const u = new URL(where); // postgres://user@host:port/db/schema
    const [db, schema] = u.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    return { namespace: `postgres://${u.hostname}:${u.port || '5432'}`, name: `${db}.${schema}.${what}` };
  }
  return { namespace: 'file', name: t.uri };
}

function tableDataset(t: LineageTable, withMetrics: boolean): LineageDataset {
  const facets: Record<string, Facet> = {
    dataSource: facet('dataSource', {
      name: path.basename(t.sourceRoot),
      uri: t.sourceRoot.includes('://') ? t.sourceRoot : `file://${t.sourceRoot}`,
    }),
  };
  if (t.columns) facets.schema = facet('schema', { fields: t.columns.map((c) => ({ name: c.name, type: c.logicalType })) });
  if (t.id) {
    facets.graft_catalog = graftFacet('graft_catalog', {
      tableId: t.id,
      format: t.format,
      grantKey: `${path.basename(t.sourceRoot)}.${t.name}`,
      ...(t.fingerprint ? { fingerprint: t.fingerprint } : {}),
    });
  }
  const ds: LineageDataset = { ...datasetName(t), facets };
  if (withMetrics && t.rowCount !== undefined) {
    const profiled = t.profiledRows ?? t.rowCount;
    ds.inputFacets = {
      dataQualityMetrics: facet('dataQualityMetrics', {
        rowCount: t.rowCount,
        columnMetrics: Object.fromEntries(
          (t.columns ?? []).map((c) => [
            c.name,
            {
              ...(c.nullShare !== undefined ? { nullCount: Math.round(c.nullShare * profiled) } : {}),
              ...(c.distinctEstimate !== undefined ? { distinctCount: Math.round(c.distinctEstimate) } : {}),
            },
          ]),
        ),
      }),
    };
  }
  return ds;
}

function jobType(jobTypeName: string): Record<string, Facet> {
  return { jobType: facet('jobType', { processingType: 'BATCH', integration: 'GRAFT', jobType: jobTypeName }) };
}

function event(type: RunEvent['eventType'], time: Date, run: RunEvent['run'], job: RunEvent['job'], inputs: LineageDataset[], outputs: LineageDataset[]): RunEvent {
  return { eventType: type, eventTime: time.toISOString(), producer: PRODUCER, schemaURL: RUN_EVENT_SCHEMA_URL, run, job, inputs, outputs };
}

/**
 * START + COMPLETE (or FAIL) of ingesting one table: job `graft.ingest`, one run per table
 * (its parent facet names the ingest run), the lake table as input with its schema and row /
 * null / distinct counts. A FAIL carries the error message.
 */
export function ingestTableEvents(args: {
  ingestRunId: string;
  table: LineageTable;
  startedAt: Date;
  finishedAt: Date;
  error?: string;
}): RunEvent[] {
  const job = { namespace: JOB_NAMESPACE, name: 'graft.ingest', facets: jobType('INGEST') };
  const parent = facet('parent', { run: { runId: args.ingestRunId }, job: { namespace: JOB_NAMESPACE, name: 'graft.ingest_run' } });
  const runId = randomUUID();
  const start = event('START', args.startedAt, { runId, facets: { parent } }, job, [tableDataset(args.table, false)], []);
  const end = args.error
    ? event(
        'FAIL',
        args.finishedAt,
        { runId, facets: { parent, errorMessage: facet('errorMessage', { message: args.error, programmingLanguage: 'TypeScript' }) } },
        job,
        [tableDataset(args.table, false)],
        [],
      )
    : event('COMPLETE', args.finishedAt, { runId, facets: { parent } }, job, [tableDataset(args.table, true)], []);
  return [start, end];
}

/**
 * START + COMPLETE of answering a question: job `graft.synthesize`, run id = the stored
 * synthesis id, the chosen tables as inputs, the fused result `graft` / `synthesis/<id>` as
 * output (with its columns when a preview ran), the SQL as the job's `sql` facet.
 */
export function synthesisEvents(args: {
  synthesisId: string;
  question: string;
  sql: string | null;
  tables: (LineageTable & { role: string })[];
  outputColumns?: string[];
  startedAt: Date;
  finishedAt: Date;
}): RunEvent[] {
  const jobFacets: Record<string, Facet> = { ...jobType('QUERY') };
  if (args.sql) jobFacets.sql = facet('sql', { query: args.sql });
  const job = { namespace: JOB_NAMESPACE, name: 'graft.synthesize', facets: jobFacets };
  const run = {
    runId: args.synthesisId,
    facets: { graft_synthesis: graftFacet('graft_synthesis', { question: args.question }) },
  };
  const inputs = args.tables.map((t) => {
    const ds = tableDataset(t, false);
    ds.facets!.graft_role = graftFacet('graft_role', { role: t.role });
    return ds;
  });
  const output: LineageDataset = { namespace: GRAFT_DATASET_NAMESPACE, name: `synthesis/${args.synthesisId}` };
  if (args.outputColumns) output.facets = { schema: facet('schema', { fields: args.outputColumns.map((name) => ({ name })) }) };
  return [event('START', args.startedAt, run, job, inputs, []), event('COMPLETE', args.finishedAt, run, job, inputs, [output])];
}
