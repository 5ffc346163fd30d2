import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { buildGraftSchema, printGraftSchema } from '../../src/api/index.js';
import { SCHEMA_FILE } from '../../src/api/schema/emit.js';

describe('GraphQL schema', () => {
  it('schema/schema.graphql is the SDL of the code-first schema (regenerate: npx tsx src/api/schema/emit.ts)', async () => {
    const committed = await readFile(SCHEMA_FILE, 'utf8');
    expect(committed).toBe(await printGraftSchema());
  });

  it('has the operations the API promises', async () => {
    const schema = await buildGraftSchema();
    const q = schema.getQueryType()!.getFields();
    const m = schema.getMutationType()!.getFields();
    for (const f of ['table', 'tables', 'columns', 'searchColumns', 'intentGraph', 'synthesize', 'synthesis', 'explainScore', 'ingestRun']) {
      expect(q[f], `Query.${f}`).toBeDefined();
    }
    for (const f of ['ingest', 'deleteTable']) expect(m[f], `Mutation.${f}`).toBeDefined();
    expect(String(q.intentGraph.args.find((a) => a.name === 'extractor')?.defaultValue)).toBe('offline');
    expect(q.synthesize.args.find((a) => a.name === 'budget')?.defaultValue).toBe(10);
    expect(String(q.tables.type)).toBe('TableConnection!');
  });
});
