#!/usr/bin/env node
// Compiles the TypeScript sources the CLI runs (src/ and the demo-lake script) to dist/ at
// install time, file by file (no bundling, same layout), so `graft` starts on plain node:
// loading tsx's loader alone costs about a third of a second per call. bin/graft.mjs runs
// dist/ only while it is newer than every source (bin/entry.mjs); otherwise it runs the
// sources through tsx, so an edited checkout never runs stale code.
// Usage: node scripts/build-cli.mjs [--root DIR]   (esbuild: the transform tsx itself uses;
// DIR: the checkout to build, default this script's)
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { SOURCE_DIRS, SOURCE_FILES, STAMP } from '../bin/entry.mjs';

const rootArg = process.argv.indexOf('--root');
const root = rootArg > 0 ? path.resolve(process.argv[rootArg + 1]) : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const started = Date.now();

const sources = [];
const walk = (dir) => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) sources.push(p);
  }
};
for (const d of SOURCE_DIRS) walk(path.join(root, d));
for (const f of SOURCE_FILES) sources.push(path.join(root, f));

// Built beside dist/ and swapped in, so a running `graft` never sees half a build.
const out = path.join(root, `dist.build-${randomUUID().slice(0, 8)}`);
await build({
  entryPoints: sources,
  outdir: out,
  outbase: root,
  bundle: false,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  tsconfig: path.join(root, 'tsconfig.json'),
  logLevel: 'warning',
});
const stamp = path.join(out, STAMP);
writeFileSync(stamp, `${new Date(started).toISOString()}\n`);
utimesSync(stamp, started / 1000, started / 1000);
const dist = path.join(root, 'dist');
const old = `${dist}.old-${randomUUID().slice(0, 8)}`;
if (existsSync(dist)) renameSync(dist, old);
renameSync(out, dist);
rmSync(old, { recursive: true, force: true });
process.stdout.write(`graft: compiled ${sources.length} files to dist/ in ${Date.now() - started} ms\n`);
