import { normaliseValue } from './text.js';

export interface VocabularyColumn {
  id: string;
  name: string;
  /** Catalog logical type, e.g. "integer", "double", "text", "date". */
  logicalType: string;
}

export interface VocabularyTable {
  id: string;
  name: string;
  columns: VocabularyColumn[];
}

export interface ValueLocation {
  tableId: string;
  columnId: string;
}

/** What the intent extractor grounds against; the catalog layer implements it over its store. */
export interface CatalogVocabulary {
  tables: VocabularyTable[];
  /** Exact/normalised lookup of a text cell value -> columns containing it. */
  lookupValue(value: string): ValueLocation[];
}

export interface InMemoryVocabularyColumn extends VocabularyColumn {
  /** Distinct text cell values of the column (a sample is fine). */
  values?: readonly string[];
}

export interface InMemoryVocabularyTable extends VocabularyTable {
  columns: InMemoryVocabularyColumn[];
}

/**
 * A vocabulary held in memory: tables plus a value list per column. Values are indexed under
 * `normaliseValue` (case-folded, diacritics stripped, punctuation collapsed to single spaces),
 * the same form the extractor gives a question n-gram, so "AIB", "aib" and " Aib. " meet, and a
 * multi-word value ("Computer Science") is hit by the matching 2-gram of a question.
 */
export class InMemoryVocabulary implements CatalogVocabulary {
  readonly tables: VocabularyTable[];
  private readonly valueIndex = new Map<string, ValueLocation[]>();

  constructor(tables: readonly InMemoryVocabularyTable[]) {
    this.tables = tables.map((t) => ({
      id: t.id,
      name: t.name,
      columns: t.columns.map((c) => ({ id: c.id, name: c.name, logicalType: c.logicalType })),
    }));
    for (const table of tables) {
      for (const column of table.columns) {
        for (const value of column.values ?? []) this.addValue(value, table.id, column.id);
      }
    }
  }

  /** Index one more cell value (e.g. while streaming a profile). */
  addValue(value: string, tableId: string, columnId: string): void {
    const key = normaliseValue(value);
    if (key === '') return;
    let hits = this.valueIndex.get(key);
    if (!hits) {
      hits = [];
      this.valueIndex.set(key, hits);
    }
    if (!hits.some((h) => h.tableId === tableId && h.columnId === columnId)) hits.push({ tableId, columnId });
  }

  lookupValue(value: string): ValueLocation[] {
    const hits = this.valueIndex.get(normaliseValue(value));
    return hits ? hits.map((h) => ({ ...h })) : [];
  }

  /** Number of distinct normalised values indexed. */
  get valueCount(): number {
    return this.valueIndex.size;
  }
}
