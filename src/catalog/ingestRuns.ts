import { currentProcess, processLiveness } from '../util/processIdentity.js';
import type { CatalogDatabase } from './database.js';

/** Creates a `running` ingest run owned by this process. */
export async function createIngestRun(db: CatalogDatabase, rootPath: string): Promise<string> {
  const me = currentProcess();
  const run = await db.prisma.ingestRun.create({
    data: { path: rootPath, status: 'running', ownerPid: me.pid, ownerHost: me.host, ownerStartedAt: new Date(me.startedAt) },
    select: { id: true },
  });
  return run.id;
}

/**
 * Marks `interrupted` the runs left `running` by a process that is gone (killed, crashed, the
 * machine restarted). A run whose owner lives on another host cannot be checked and is left
 * alone; a run without a recorded owner predates owners and no process can still be doing it.
 * `where` narrows the runs considered (e.g. one root); returns the ids marked.
 */
export async function markDeadRunsInterrupted(db: CatalogDatabase, where: { path?: string; excludeId?: string } = {}): Promise<string[]> {
  const running = await db.prisma.ingestRun.findMany({
    where: { status: 'running', ...(where.path ? { path: where.path } : {}), ...(where.excludeId ? { id: { not: where.excludeId } } : {}) },
    select: { id: true, ownerPid: true, ownerHost: true, ownerStartedAt: true },
  });
  const dead = running
    .filter((r) =>
      r.ownerPid === null || r.ownerHost === null || r.ownerStartedAt === null
        ? true
        : processLiveness({ pid: r.ownerPid, host: r.ownerHost, startedAt: r.ownerStartedAt.getTime() }) === 'dead',
    )
    .map((r) => r.id);
  if (dead.length > 0) {
    await db.prisma.ingestRun.updateMany({
      where: { id: { in: dead }, status: 'running' },
      data: { status: 'interrupted', finishedAt: new Date() },
    });
  }
  return dead;
}
