/**
 * Writes schema/schema.graphql from the code-first schema:
 *   npx tsx src/api/schema/emit.ts [--check]
 * With --check it writes nothing and exits 1 when the committed file is out of date.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectPath } from '../../util/projectRoot.js';
import { printGraftSchema } from './build.js';

export const SCHEMA_FILE = projectPath('schema', 'schema.graphql');

async function main(): Promise<void> {
  const sdl = await printGraftSchema();
  if (process.argv.includes('--check')) {
    const committed = await readFile(SCHEMA_FILE, 'utf8').catch(() => '');
    if (committed !== sdl) {
      process.stderr.write(`${SCHEMA_FILE} is out of date: run npx tsx src/api/schema/emit.ts\n`);
      process.exitCode = 1;
    }
    return;
  }
  await writeFile(SCHEMA_FILE, sdl);
  process.stdout.write(`wrote ${SCHEMA_FILE}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
