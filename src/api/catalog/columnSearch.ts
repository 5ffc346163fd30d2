import type { CatalogDatabase } from '../../catalog/database.js';
import { toVectorLiteral } from '../../catalog/vector.js';
import { visibleTableSql } from '../../catalog/visibility.js';
import { columnEmbeddingText, type Embedder, embedQuery, HashedNgramEmbedder } from '../../embed/index.js';
import { isCorpusFitted } from '../../ingest/index.js';
import type { GrantScope } from '../auth/grants.js';
import { containsPattern } from './reader.js';

export interface ColumnSearchHit {
  columnId: string;
  /** Reciprocal-rank fusion of the two rankings (higher is better). */
  score: number;
  /** Cosine similarity of the text's embedding and the column's, when the vector search found it. */
  vectorScore: number | null;
  /** Name match strength in [0,1] (1: the column is named exactly like a word of the text). */
  lexicalScore: number | null;
  matchedBy: ('vector' | 'lexical')[];
}

/** Reciprocal rank fusion constant: the usual 60 keeps one list's top hit from dominating. */
const RRF_K = 60;
const MAX_TOKENS = 12;

/** Words of the text worth matching against names: lower-cased, 2+ characters. */
export function searchTokens(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.filter((w) => w.length >= 2))].slice(0, MAX_TOKENS);
}

function lexicalScore(columnName: string, tableName: string, tokens: string[], whole: string): number {
  const name = columnName.toLowerCase();
  const parts = name.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  let best = 0;
  if (name === whole) best = 1;
  for (const tok of tokens) {
    if (name === tok) best = Math.max(best, 1);
    else if (parts.includes(tok)) best = Math.max(best, 0.8);
    else if (name.includes(tok)) best = Math.max(best, 0.5);
    else if (tableName.toLowerCase().includes(tok)) best = Math.max(best, 0.2);
  }
  return best;
}

/**
 * `searchColumns`: a vector ranking (pgvector `<=>` between the text's embedding and
 * column_embedding, same embedder model only) merged with a lexical one (ILIKE on column and
 * table names) by reciprocal rank fusion. Both rankings run in SQL under the caller's grants.
 *
 * The built-in embedder weighs words by IDF over the catalog's column headers; a question must
 * be embedded with the same weights the stored vectors were, so the searcher keeps its own
 * embedder instance fitted on the catalog's column texts (as refreshEmbeddings does) and refits
 * it when the catalog changed (column count or latest ingest time differ).
 */
export class ColumnSearcher {
  private readonly embedder: Embedder;
  private fittedFor: string | null = null;
  private fitting: Promise<void> | null = null;

  constructor(
    private readonly db: CatalogDatabase,
    embedder: Embedder,
  ) {
    // Never refit the embedder an ingest may be using: give the search its own built-in one.
    this.embedder = embedder instanceof HashedNgramEmbedder ? new HashedNgramEmbedder() : embedder;
  }

  invalidate(): void {
    this.fittedFor = null;
  }

  private async ensureFitted(): Promise<void> {
    const embedder = this.embedder;
    if (!isCorpusFitted(embedder)) return;
    const [v] = await this.db.prisma.$queryRawUnsafe<{ columns: number; latest: Date | null; tables: number }[]>(
      `SELECT (SELECT count(*) FROM lake_column c JOIN lake_table t ON t.id = c.table_id WHERE ${visibleTableSql('t')})::int AS columns,
              (SELECT count(*) FROM lake_table t WHERE ${visibleTableSql('t')})::int AS tables,
              (SELECT max(ingested_at) FROM lake_table t WHERE ${visibleTableSql('t')}) AS latest`,
    );
    const version = `${v.columns}/${v.tables}/${v.latest ? new Date(v.latest).getTime() : 0}`;
    if (this.fittedFor === version) return;
    if (!this.fitting) {
      this.fitting = (async () => {
        const rows = await this.db.prisma.$queryRawUnsafe<{ name: string; table_name: string }[]>(
          `SELECT c.name, t.name AS table_name FROM lake_column c JOIN lake_table t ON t.id = c.table_id WHERE ${visibleTableSql('t')} ORDER BY c.table_id, c.ordinal`,
        );
        embedder.fit(rows.map((r) => columnEmbeddingText(r.table_name, { name: r.name, sampleValues: [] })));
        this.fittedFor = version;
      })().finally(() => {
        this.fitting = null;
      });
    }
    await this.fitting;
  }

  async search(text: string, first: number, scope: GrantScope): Promise<ColumnSearchHit[]> {
    const whole = text.trim().toLowerCase();
    const tokens = searchTokens(text);
    const depth = Math.max(first * 3, 20);

    await this.ensureFitted();
    const vector = toVectorLiteral(await embedQuery(this.embedder, text));
    const vParams: unknown[] = [vector, this.embedder.id];
    const vGrant = scope.sql(vParams);
    vParams.push(depth);
    const vectorRows = await this.db.prisma.$queryRawUnsafe<{ id: string; sim: number }[]>(
      `SELECT c.id::text AS id, 1 - (e.embedding <=> $1::vector) AS sim
       FROM column_embedding e JOIN lake_column c ON c.id = e.column_id
       JOIN lake_table t ON t.id = c.table_id JOIN source s ON s.id = t.source_id
       WHERE e.model = $2 AND ${visibleTableSql('t')} AND ${vGrant}
       ORDER BY e.embedding <=> $1::vector, c.id LIMIT $${vParams.length}`,
      ...vParams,
    );

    let lexicalRows: { id: string; name: string; table_name: string }[] = [];
    const patterns = [...new Set([whole, ...tokens])].filter(Boolean).map(containsPattern);
    if (patterns.length > 0) {
      const lParams: unknown[] = [patterns];
      const lGrant = scope.sql(lParams);
      lParams.push(depth * 4);
      lexicalRows = await this.db.prisma.$queryRawUnsafe<{ id: string; name: string; table_name: string }[]>(
        `SELECT c.id::text AS id, c.name, t.name AS table_name
         FROM lake_column c JOIN lake_table t ON t.id = c.table_id JOIN source s ON s.id = t.source_id
         WHERE (c.name ILIKE ANY ($1::text[]) OR t.name ILIKE ANY ($1::text[])) AND ${visibleTableSql('t')} AND ${lGrant}
         ORDER BY length(c.name), c.name, c.id LIMIT $${lParams.length}`,
        ...lParams,
      );
    }

    const hits = new Map<string, ColumnSearchHit>();
    const hit = (id: string) => {
      let h = hits.get(id);
      if (!h) {
        h = { columnId: id, score: 0, vectorScore: null, lexicalScore: null, matchedBy: [] };
        hits.set(id, h);
      }
      return h;
    };
    vectorRows.forEach((r, rank) => {
      const h = hit(r.id);
      h.vectorScore = Number(r.sim);
      h.score += 1 / (RRF_K + rank + 1);
      h.matchedBy.push('vector');
    });
    const lexical = lexicalRows
      .map((r) => ({ id: r.id, s: lexicalScore(r.name, r.table_name, tokens, whole) }))
      .filter((r) => r.s > 0)
      .sort((a, b) => b.s - a.s || a.id.localeCompare(b.id))
      .slice(0, depth);
    lexical.forEach((r, rank) => {
      const h = hit(r.id);
      h.lexicalScore = r.s;
      h.score += 1 / (RRF_K + rank + 1);
      h.matchedBy.push('lexical');
    });
    return [...hits.values()].sort((a, b) => b.score - a.score || a.columnId.localeCompare(b.columnId)).slice(0, first);
  }
}
