import { randomUUID } from 'node:crypto';
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
 * Syntheses answered by the API, stored so they can be fetched and explained again.
 *
 * Saves are group-committed: a save that arrives while a write is under way waits for the next
 * write, which stores every row queued by then in one statement. An idle server writes at once;
 * a busy one writes one INSERT per round instead of one per answer (on the embedded catalog each
 * statement costs the server's main thread, whatever its size). Every save still resolves only
 * once its row is committed, so an id handed out can be fetched at once.
 */
export class SynthesisStore {
  private queue: { row: SynthesisRow; resolve: () => void; reject: (err: unknown) => void }[] = [];
  private writing = false;

  constructor(private readonly db: CatalogDatabase) {}

  async save(question: string, result: SynthesisResult, tokenId: string | null): Promise<StoredSynthesis> {
    // The search trace (every table the search could have chosen) is a diagnostic, not part of the answer.
    const { id: _ignored, search: _trace, ...body } = result;
    // Preview cells may be BigInt (DuckDB integers): stored as numbers when exact, else as text.
    const json = JSON.stringify(body, (_k, v: unknown) => (typeof v === 'bigint' ? (Number.isSafeInteger(Number(v)) ? Number(v) : v.toString()) : v));
    const stored = JSON.parse(json) as SynthesisResult;
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
      return `($${n - 4}::uuid, $${n - 3}, $${n - 2}::jsonb, $${n - 1}::uuid, $${n}::timestamptz)`;
    });
    await this.db.sql.query(`INSERT INTO synthesis (id, question, result, token_id, created_at) VALUES ${values.join(', ')}`, params);
  }

  /** The stored synthesis, unchecked: callers must test its tables against the reader's grants. */
  async load(id: string): Promise<StoredSynthesis | null> {
    if (!isUuid(id)) return null;
    const row = await this.db.prisma.synthesis.findUnique({ where: { id } });
    if (!row) return null;
    return {
      id: row.id,
      question: row.question,
      result: { ...(row.result as unknown as SynthesisResult), id: row.id },
      tokenId: row.tokenId,
      createdAt: row.createdAt,
    };
  }
}
