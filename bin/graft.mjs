#!/usr/bin/env node
// `npx graft ...` or `npm run graft -- ...`. Runs the CLI compiled at install (dist/, see
// scripts/build-cli.mjs) while it is up to date, else the TypeScript sources through tsx's
// loader (bin/entry.mjs decides). Either way the CLI is imported into THIS process rather than
// spawned (tsx would spawn a second node): the process that npx starts, and that receives
// SIGINT/SIGTERM, is the one doing the work, so `graft ingest` can stop cleanly on a signal.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import { pickEntry } from './entry.mjs';

// A short command would spend more time in V8 optimising PGlite's ~10 MB of WebAssembly (in the
// background, on cores the command needs) than running it: with the baseline compiler alone
// `graft tables` ran about 0.7 s faster (`npm run bench:cli`). Set here, before anything is loaded:
// set later (a commander hook before the action) it measured no faster. Commands that run long
// keep the optimiser; the list names the CLI's top-level commands (src/cli/main.ts).
const LONG_RUNNING = new Set(['serve', 'ingest', 'bench', 'value', 'enrich', 'demo']);
const command = process.argv.slice(2).find((a) => !a.startsWith('-'));
if (!LONG_RUNNING.has(command)) v8.setFlagsFromString('--liftoff-only');

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (pickEntry(root) === 'dist') {
  await import(pathToFileURL(path.join(root, 'dist/src/cli/main.js')).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(path.join(root, 'src/cli/main.ts')).href);
}
