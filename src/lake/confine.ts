/**
 * Read-time confinement of lake paths to a set of roots (issue 11/3): a file checked when an
 * ingest was accepted can be swapped for a symlink before (or after) it is read, so every read
 * (ingest profiling, preview, fused SQL) resolves the real path of what it is about to open,
 * refuses it when it lies outside the roots' real paths, and hands the RESOLVED path to the
 * reader (DuckDB, better-sqlite3), so a later swap of the link cannot redirect the read.
 *
 * Residual window: DuckDB and better-sqlite3 open files by path themselves (no descriptor can
 * be handed over), so a swap of a folder ABOVE the resolved file between realpath() and the
 * reader's open() is not caught here. Swapping the file itself no longer redirects anything,
 * since the reader gets the target path, not the link.
 */
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { BadInputError, ForbiddenError } from '../util/errors.js';
import { isPostgresUrl } from './postgres.js';
import { isRestCatalogUrl } from './iceberg/rest.js';
import { loadIcebergTable } from './iceberg/table.js';
import type { LakeEntry } from './types.js';

/** Whether `child` is `root` or lies under it (both absolute, already resolved). */
export function within(child: string, root: string): boolean {
  const rel = path.relative(root, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** The real paths of the roots that exist (a missing root confines nothing in). */
export async function realRoots(roots: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const r of roots) {
    const real = await realpath(r).catch(() => null);
    if (real) out.push(real);
  }
  return out;
}

/** Upper bound on entries inspected for escaping symlinks (a lake bigger than this is refused). */
const MAX_SCAN_ENTRIES = 200_000;

/** The first symlink under `dir` whose target resolves outside `realRootPaths`, or null. */
export async function findEscapingSymlink(dir: string, realRootPaths: string[]): Promise<string | null> {
  const stack = [dir];
  let seen = 0;
  while (stack.length > 0) {
    const current = stack.pop()!;
    const entries = await readdir(current, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (++seen > MAX_SCAN_ENTRIES) throw new BadInputError(`lake folder has more than ${MAX_SCAN_ENTRIES} entries`);
      const full = path.join(current, e.name);
      if (e.isSymbolicLink()) {
        const target = await realpath(full).catch(() => null);
        // A dangling link is skipped by the walker; one resolving outside the roots is an escape.
        if (target && !realRootPaths.some((r) => within(target, r))) return full;
      } else if (e.isDirectory()) {
        stack.push(full);
      }
    }
  }
  return null;
}

/** `file` as the error names it: relative to the root it lies in lexically, else its base name. */
function shownPath(file: string, roots: string[]): string {
  const abs = path.resolve(file);
  for (const r of roots) {
    const root = path.resolve(r);
    if (within(abs, root)) return path.relative(root, abs) || path.basename(abs);
  }
  return path.basename(abs);
}

/**
 * The real path of `file` if it lies within `roots` (their real paths), else ForbiddenError
 * naming the file relative to its root. A folder (hive table, Iceberg table) must not hold a
 * symlink leading out either. A path that does not exist is returned unchanged, so the reader
 * reports its own "not found" error as before.
 */
export async function confineLakeRead(file: string, roots: string[]): Promise<string> {
  const real = await realpath(file).catch(() => null);
  if (real === null) return file;
  const reals = await realRoots(roots);
  const shown = shownPath(file, roots);
  if (!reals.some((r) => within(real, r))) {
    throw new ForbiddenError(`${shown}: resolves (through a symlink) outside the lake roots; not read`, { path: shown });
  }
  if ((await stat(real)).isDirectory()) {
    const escape = await findEscapingSymlink(real, reals);
    if (escape) {
      const link = path.join(shown, path.relative(real, escape));
      throw new ForbiddenError(`${link}: symlink pointing outside the lake roots; not read`, { path: link });
    }
  }
  return real;
}

/** Whether an entry's path is a file on disk (not a PostgreSQL schema or REST catalog URL). */
function isFileEntry(entry: LakeEntry): boolean {
  return entry.format !== 'postgres' && !isPostgresUrl(entry.path) && !isRestCatalogUrl(entry.path) && !/^[a-z][a-z0-9+.-]*:\/\//i.test(entry.path);
}

/**
 * The entry to hand to a reader: its path replaced by the confined real path (`confineLakeRead`).
 * Database and catalog URLs are returned as they are (they are confined by their allow-list).
 */
export async function confineEntry(entry: LakeEntry, roots: string[]): Promise<LakeEntry> {
  if (!isFileEntry(entry)) return entry;
  const real = await confineLakeRead(entry.path, roots);
  if (entry.format === 'iceberg') await confineIcebergFiles(real, roots);
  return real === entry.path ? entry : { ...entry, path: real };
}

/**
 * An Iceberg table's manifests name its data and delete files by path, and a path need not lie in
 * the table folder (another writer's absolute location, or a crafted manifest): every file the
 * scan would read must lie within the roots too, else the table is not read.
 */
async function confineIcebergFiles(tableDir: string, roots: string[]): Promise<void> {
  const plan = await loadIcebergTable(tableDir);
  for (const f of [...plan.dataFiles, ...plan.deleteFiles]) await confineLakeRead(f.path, roots);
}

