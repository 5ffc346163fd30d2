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

/** Syntheses answered by the API, stored so they can be fetched and explained again. */
export class SynthesisStore {
  constructor(private readonly db: CatalogDatabase) {}

  async save(question: string, result: SynthesisResult, tokenId: string | null): Promise<StoredSynthesis> {
    // The search trace (every table the search could have chosen) is a diagnostic, not part of the answer.
    const { id: _ignored, search: _trace, ...body } = result;
    // Preview cells may be BigInt (DuckDB integers): stored as numbers when exact, else as text.
    const json = JSON.stringify(body, (_k, v: unknown) => (typeof v === 'bigint' ? (Number.isSafeInteger(Number(v)) ? Number(v) : v.toString()) : v));
    const stored = JSON.parse(json) as SynthesisResult;
    const row = await this.db.prisma.synthesis.create({ data: { question, result: stored as unknown as object, tokenId } });
    return { id: row.id, question, result: { ...stored, id: row.id }, tokenId, createdAt: row.createdAt };
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
