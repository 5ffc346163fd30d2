import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode, GraftError } from '../util/errors.js';
import { currentProcess, processLiveness, type ProcessIdentity } from '../util/processIdentity.js';

/**
 * The embedded PGlite catalog runs its one Postgres backend inside the process that opened it;
 * a second process opening the same data directory would run a second backend over the same
 * files (its writes lost or the files corrupted). So an open takes `graft.lock` in the data
 * directory, holding who opened it; a second opener gets an error naming that process. A lock
 * left by a process that is gone (kill -9, crash) is taken over.
 */
export const LOCK_FILE = 'graft.lock';

export interface CatalogLock {
  readonly path: string;
  release(): void;
}

export class CatalogInUseError extends GraftError {
  constructor(
    readonly dataDir: string,
    readonly holder: ProcessIdentity,
  ) {
    const self = holder.pid === process.pid ? ' (this process: close the other catalog first)' : '';
    super(
      ErrorCode.CATALOG_IN_USE,
      `the embedded catalog ${dataDir} is in use by process ${holder.pid}${self} on ${holder.host} ` +
        `(\`${holder.command}\`, started ${new Date(holder.startedAt).toISOString()}). ` +
        'Only one process can open an embedded catalog: stop that process and retry, or use its API ' +
        '(graft serve), or share a PostgreSQL server between processes (DATABASE_URL).',
      { dataDir, holder },
    );
    this.name = 'CatalogInUseError';
  }
}

export async function acquireCatalogLock(dir: string): Promise<CatalogLock> {
  const dataDir = path.resolve(dir);
  await mkdir(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_FILE);
  const me = currentProcess();
  const body = `${JSON.stringify(me)}\n`;
  // Two rounds: the second follows the removal of a stale lock.
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      // O_EXCL: of two processes creating it at once, exactly one succeeds.
      const fd = openSync(file, 'wx', 0o644);
      try {
        writeSync(fd, body);
      } finally {
        closeSync(fd);
      }
      return { path: file, release: () => releaseIfOurs(file, body) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = readHolder(file);
    if (holder && processLiveness(holder) !== 'dead') throw new CatalogInUseError(dataDir, holder);
    // Dead holder, or a lock file cut short by a crash while it was written: take it over.
    try {
      unlinkSync(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  const holder = readHolder(file);
  if (holder) throw new CatalogInUseError(dataDir, holder);
  throw new GraftError(ErrorCode.CATALOG_IN_USE, `could not take the lock ${file} of the embedded catalog ${dataDir}`, { dataDir });
}

function readHolder(file: string): ProcessIdentity | null {
  try {
    const h = JSON.parse(readFileSync(file, 'utf8')) as Partial<ProcessIdentity>;
    if (typeof h.pid !== 'number' || typeof h.host !== 'string' || typeof h.startedAt !== 'number') return null;
    return { pid: h.pid, host: h.host, startedAt: h.startedAt, command: String(h.command ?? '?') };
  } catch {
    return null;
  }
}

function releaseIfOurs(file: string, body: string): void {
  try {
    // A lock taken over from us (we were thought dead) is no longer ours to remove.
    if (readFileSync(file, 'utf8') === body) unlinkSync(file);
  } catch {
    // Already gone.
  }
}
