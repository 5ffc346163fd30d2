// Which entry point bin/graft.mjs runs: the compiled dist/ (scripts/build-cli.mjs) while it is
// newer than every source it was built from, else the TypeScript sources through tsx.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Folders and single files compiled to dist/ (their layout kept). */
export const SOURCE_DIRS = ['src'];
export const SOURCE_FILES = ['scripts/build-demo-lake.ts'];
/** Written last by the build: its mtime is the build's start. */
export const STAMP = '.built';

function newestSourceMtime(root) {
  let newest = 0;
  const visit = (p) => {
    const st = statSync(p);
    if (st.isDirectory()) for (const name of readdirSync(p)) visit(path.join(p, name));
    else if (p.endsWith('.ts')) newest = Math.max(newest, st.mtimeMs);
  };
  for (const d of SOURCE_DIRS) visit(path.join(root, d));
  for (const f of SOURCE_FILES) visit(path.join(root, f));
  return newest;
}

/**
 * 'dist' when dist/ holds a finished build at least as new as every .ts source (an edit, a
 * checkout or a pull after the build makes a source newer), else 'tsx'. The stamp's mtime is
 * taken when the build starts, so a source saved during a build also counts as newer.
 */
export function pickEntry(root) {
  let built;
  try {
    built = statSync(path.join(root, 'dist', STAMP)).mtimeMs;
  } catch {
    return 'tsx';
  }
  return newestSourceMtime(root) <= built ? 'dist' : 'tsx';
}
