import { createRequire } from 'node:module';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);
// type-graphql and our code must share one graphql instance, or schema building fails
// with "Cannot use GraphQLSchema from another module or realm".
const graphqlMain = path.dirname(require.resolve('graphql/package.json'));

export default defineConfig({
  resolve: { alias: { graphql: graphqlMain } },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two cores: keep file-level parallelism modest so DuckDB/PGlite tests do not starve.
    maxWorkers: 2,
  },
});
