import type { Logger } from 'pino';
import type { CatalogDatabase } from '../catalog/database.js';
import type { Embedder } from '../embed/index.js';
import { ingestLake, startIngestRun } from '../ingest/index.js';
import type { LineageEmitter } from '../lineage/index.js';

/**
 * Runs `ingest` mutations in the background, one at a time: ingestLake links each new table
 * against what the catalog already holds, so two concurrent ingests would miss the edges
 * between each other's tables. The run row is created at once (status `running`, also while
 * queued) so the mutation can answer immediately; `ingestRun(id)` polls it. An ingest of a path
 * already queued or running returns that run instead of queueing a duplicate.
 */
export class IngestRunner {
  private tail: Promise<void> = Promise.resolve();
  private readonly pending = new Map<string, string>();
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly db: CatalogDatabase,
    private readonly embedder: Embedder,
    private readonly log: Logger,
    private readonly onCatalogChanged: () => void,
    private readonly lineage?: LineageEmitter,
    /** GRAFT_LAKE_ROOTS: every file read is re-checked against them (a swap after the mutation's check). */
    private readonly lakeRoots: string[] = [],
  ) {}

  /** Queues an ingest of an already-confined real path; returns the run id. */
  async start(realPath: string, requestId: string): Promise<string> {
    const existing = this.pending.get(realPath);
    if (existing) return existing;
    const runId = await startIngestRun(this.db, realPath);
    this.pending.set(realPath, runId);
    const job = this.tail.then(async () => {
      const started = Date.now();
      try {
        const s = await ingestLake(this.db, realPath, { embedder: this.embedder, runId, lineage: this.lineage, lakeRoots: this.lakeRoots });
        this.log.info({ reqId: requestId, runId, status: s.status, tables: s.tablesIngested, failed: s.tablesFailed, ms: Date.now() - started }, 'ingest finished');
      } catch (err) {
        this.log.error({ reqId: requestId, runId, err }, 'ingest failed');
      } finally {
        this.pending.delete(realPath);
        this.onCatalogChanged();
      }
    });
    this.tail = job;
    this.running.add(job);
    void job.finally(() => this.running.delete(job));
    return runId;
  }

  get active(): number {
    return this.running.size;
  }

  /** Waits for queued and running ingests, at most `timeoutMs`; true if all finished. */
  async drain(timeoutMs: number): Promise<boolean> {
    if (this.running.size === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    const all = Promise.all([...this.running]).then(() => true);
    try {
      return await Promise.race([all, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
