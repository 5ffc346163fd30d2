import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { CatalogDatabase } from '../catalog/database.js';
import type { SynthesisResult } from '../engine/types.js';
import { isUuid } from './catalog/cursor.js';

export interface StoredSynthesis {
  id: string;
  question: string;
  result: SynthesisResult;
  tokenId: string | null;
  createdAt: Date;
}

/** Every table id a synthesis mentions: its tables and its intent's groundings. */
export function synthesisTableIds(r: SynthesisResult): string[] {
  const ids = new Set<string>(r.tables.map((t) => t.id));
  for (const tree of r.intent?.graph?.trees ?? []) {
    for (const g of tree.entity.grounding ?? []) ids.add(g.tableId);
    for (const a of tree.attributes) {
      for (const g of a.grounding ?? []) ids.add(g.tableId);
      for (const g of a.value?.grounding ?? []) ids.add(g.tableId);
    }
  }
  return [...ids];
}

interface SynthesisRow {
  id: string;
  question: string;
  /** The result as stored (JSON text). */
  json: string;
  tokenId: string | null;
  createdAt: Date;
}

/** Most rows one INSERT carries. */
const MAX_BATCH = 100;

/**
 * Least time between the starts of two INSERTs. A statement costs far more than a row it carries
 * (on the embedded catalog, on the server's main thread: about 0.7 ms for one row, 0.3 ms a row
 * for four, `npx tsx bench/catalog-costs.ts`; on PostgreSQL, a commit). Below 1000 / this many
 * answers a second every save is written at once; above, they go in groups, each waiting this
 * long at most.
 */
export const SYNTHESIS_WRITE_INTERVAL_MS = 10;

/**
 * Syntheses answered by the API, stored so they can be fetched and explained again.
 *
 * Saves are group-committed: a save that arrives while a write is under way, or less than
 * `writeIntervalMs` after the last one began, waits for the next write, which stores every row
 * queued by then in one statement. An idle server writes at once; a busy one writes one INSERT
 * per interval instead of one per answer. Every save still resolves only once its row is
 * committed, so an id handed out can be fetched at once.
 */
export class SynthesisStore {
  private queue: { row: SynthesisRow; resolve: () => void; reject: (err: unknown) => void }[] = [];
  private writing = false;
  private lastWriteAt = -Infinity;

  /**
   * @param retentionMs how long a synthesis stays fetchable (null: for ever). A server answering
   *   a few hundred questions a second stores millions of rows a day (about 3 KB each), so
   *   `graft serve` keeps them GRAFT_SYNTHESIS_RETENTION_DAYS (see `prune`).
   */
  constructor(
    private readonly db: CatalogDatabase,
    readonly retentionMs: number | null = null,
    private readonly writeIntervalMs = SYNTHESIS_WRITE_INTERVAL_MS,
  ) {}

  /** Rows created before this moment are expired (null: none is). */
  private cutoff(): Date | null {
    return this.retentionMs === null ? null : new Date(Date.now() - this.retentionMs);
  }

  async save(question: string, result: SynthesisResult, tokenId: string | null): Promise<StoredSynthesis> {
    // The search trace (every table the search could have chosen) is a diagnostic, not part of the answer.
    const { id: _ignored, search: _trace, ...body } = result;
    // Only preview rows hold cells, and the fusion already makes them JSON-safe (`jsonSafeValue`,
    // which this module does not import: it would load DuckDB into the server's main thread). A
    // BigInt cell from elsewhere is stored as a number when exact, else as text, and answered as
    // stored. Without preview rows the result is plain JSON: no replacer (a call per key), no
    // parse back.
    const json = body.preview ? JSON.stringify(body, (_k, v: unknown) => (typeof v === 'bigint' ? (Number.isSafeInteger(Number(v)) ? Number(v) : v.toString()) : v)) : JSON.stringify(body);
    const stored = body.preview ? (JSON.parse(json) as SynthesisResult) : body;
    const row: SynthesisRow = { id: randomUUID(), question, json, tokenId, createdAt: new Date() };
    await new Promise<void>((resolve, reject) => {
      this.queue.push({ row, resolve, reject });
      if (!this.writing) void this.writeQueued();
    });
    return { id: row.id, question, result: { ...stored, id: row.id }, tokenId, createdAt: row.createdAt };
  }

  private async writeQueued(): Promise<void> {
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        const wait = this.lastWriteAt + this.writeIntervalMs - performance.now();
        if (wait > 0 && this.queue.length < MAX_BATCH) await new Promise((resolve) => setTimeout(resolve, wait));
        this.lastWriteAt = performance.now();
        const batch = this.queue.splice(0, MAX_BATCH);
        try {
          await this.insert(batch.map((b) => b.row));
          for (const b of batch) b.resolve();
        } catch (err) {
          if (batch.length === 1) {
            batch[0].reject(err);
            continue;
          }
          // One bad row must not fail the others: write them one by one.
          for (const b of batch) {
            try {
              await this.insert([b.row]);
              b.resolve();
            } catch (rowErr) {
              b.reject(rowErr);
            }
          }
        }
      }
    } finally {
      this.writing = false;
    }
  }

  /** One statement through the raw driver (Prisma's createMany costs four to five times as much per row on the embedded catalog: bench/catalog-costs.ts). */
  private async insert(rows: SynthesisRow[]): Promise<void> {
    const params: unknown[] = [];
    const values = rows.map((r) => {
      params.push(r.id, r.question, r.json, r.tokenId, r.createdAt.toISOString());
      const n = params.length;
      return `($${n - 4}::uuid, $${n - 3}, $${n - 2}::json, $${n - 1}::uuid, $${n}::timestamptz)`;
    });
    await this.db.sql.query(`INSERT INTO synthesis (id, question, result, token_id, created_at) VALUES ${values.join(', ')}`, params);
  }

  /** The stored synthesis, unchecked: callers must test its tables against the reader's grants. */
  async load(id: string): Promise<StoredSynthesis | null> {
    if (!isUuid(id)) return null;
    const row = await this.db.prisma.synthesis.findUnique({ where: { id } });
    // Expired is gone, whether or not a prune has deleted the row yet.
    const cutoff = this.cutoff();
    if (!row || (cutoff && row.createdAt < cutoff)) return null;
    return {
      id: row.id,
      question: row.question,
      result: { ...(row.result as unknown as SynthesisResult), id: row.id },
      tokenId: row.tokenId,
      createdAt: row.createdAt,
    };
  }

  /**
   * Deletes the expired syntheses, in batches (each a short statement, so the embedded catalog's
   * main thread is never held long), and returns how many. Safe to run from several servers on
   * one PostgreSQL at once.
   */
  async prune(): Promise<number> {
    const cutoff = this.cutoff();
    if (!cutoff) return 0;
    let deleted = 0;
    for (;;) {
      const rows = await this.db.sql.query<{ id: string }>(
        `DELETE FROM synthesis WHERE id IN (SELECT id FROM synthesis WHERE created_at < $1::timestamptz LIMIT ${PRUNE_BATCH}) RETURNING id`,
        [cutoff.toISOString()],
      );
      deleted += rows.length;
      if (rows.length < PRUNE_BATCH) return deleted;
    }
  }
}

/** Rows one pruning statement deletes at most. */
const PRUNE_BATCH = 5_000;

/** How often a running server deletes expired syntheses. */
const SYNTHESIS_PRUNE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Keeps a store within its retention while a server runs: one prune at start-up (awaited, so a
 * server never serves an expired backlog and tests see a quiet catalog), then one an hour
 * on a timer that does not keep the process alive. A failed prune is logged and
 * tried again at the next tick.
 */
export class SynthesisPruner {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly store: SynthesisStore,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    if (this.store.retentionMs === null) return;
    await this.runOnce();
    this.timer = setInterval(() => void this.runOnce(), SYNTHESIS_PRUNE_INTERVAL_MS);
    this.timer.unref();
  }

  /** Stops the timer and waits for a prune under way (before the catalog closes). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  private runOnce(): Promise<void> {
    this.running ??= (async () => {
      try {
        const deleted = await this.store.prune();
        if (deleted > 0) this.log.info({ deleted, retentionMs: this.store.retentionMs }, 'expired syntheses deleted');
      } catch (err) {
        this.log.warn({ err }, 'deleting expired syntheses failed; trying again at the next interval');
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }
}
