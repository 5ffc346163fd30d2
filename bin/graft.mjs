#!/usr/bin/env node
// Runs the TypeScript CLI through tsx (no build step): `npx graft ...` or `npm run graft -- ...`.
// tsx's loader is registered in THIS process and the CLI imported here, rather than spawning
// `tsx` (which itself spawns a second node): the process that npx starts, and that receives
// SIGINT/SIGTERM, is the one doing the work, so `graft ingest` can stop cleanly on a signal.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
register();
await import(pathToFileURL(path.join(root, 'src/cli/main.ts')).href);
