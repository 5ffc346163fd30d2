import { hashValueForm, normaliseValue } from '../text/index.js';

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
  /** Found by hash among the column's values beyond its top values (`allValues`), not among them. */
  hashed?: boolean;
}

/** What the intent extractor grounds against; the catalog layer implements it over its store. */
export interface CatalogVocabulary {
  tables: VocabularyTable[];
  /**
   * Exact/normalised lookup of a text cell value -> columns containing it: among the values the
   * catalog keeps as text (each column's most frequent), and with `allValues` also among those it
   * knows by hash only (a name deep in a large column). Common words are cells of some large
   * column somewhere in a lake ("student", "sports" among airline names): callers ask for all
   * values only for what reads as a name.
   */
  lookupValue(value: string, options?: { allValues?: boolean }): ValueLocation[];
}

export interface InMemoryVocabularyColumn extends VocabularyColumn {
  /** Distinct text cell values of the column (a sample is fine). */
  values?: readonly string[];
  /** The `valueHash` of further values of the column (the catalog keeps hashes beyond its top values). */
  valueHashes?: ArrayLike<number> | null;
}

export interface InMemoryVocabularyTable extends VocabularyTable {
  columns: InMemoryVocabularyColumn[];
}

/**
 * A vocabulary held in memory: tables plus a value list per column. Values are indexed under
 * `normaliseValue` (case-folded, diacritics stripped, punctuation collapsed to single spaces),
 * the same form the extractor gives a question n-gram, so "AIB", "aib" and " Aib. " meet, and a
 * multi-word value ("Computer Science") is hit by the matching 2-gram of a question. A column's
 * further values, known by their `valueHash` only, are found by the hash of the looked-up text.
 */
export class InMemoryVocabulary implements CatalogVocabulary {
  readonly tables: VocabularyTable[];
  private readonly valueIndex = new Map<string, ValueLocation[]>();
  /** Every column's value hashes, ascending, beside the column each came from (`hashedAt`). */
  private readonly hashes: Float64Array;
  private readonly hashedAt: Int32Array;
  private readonly hashedColumns: ValueLocation[];

  constructor(tables: readonly InMemoryVocabularyTable[]) {
    this.tables = tables.map((t) => ({
      id: t.id,
      name: t.name,
      columns: t.columns.map((c) => ({ id: c.id, name: c.name, logicalType: c.logicalType })),
    }));
    const hashed: { at: ValueLocation; hashes: ArrayLike<number> }[] = [];
    for (const table of tables) {
      for (const column of table.columns) {
        for (const value of column.values ?? []) this.addValue(value, table.id, column.id);
        if (column.valueHashes && column.valueHashes.length > 0) hashed.push({ at: { tableId: table.id, columnId: column.id }, hashes: column.valueHashes });
      }
    }
    // One array over all columns, sorted by hash: a lookup is one binary search, whatever the
    // lake's width. Each column then claims a free slot in the run of each of its hashes.
    this.hashedColumns = hashed.map((h) => h.at);
    this.hashes = new Float64Array(hashed.reduce((n, h) => n + h.hashes.length, 0));
    let offset = 0;
    for (const { hashes } of hashed) {
      this.hashes.set(hashes, offset);
      offset += hashes.length;
    }
    this.hashes.sort();
    this.hashedAt = new Int32Array(this.hashes.length).fill(-1);
    hashed.forEach(({ hashes }, owner) => {
      for (let i = 0; i < hashes.length; i++) {
        let at = lowerBound(this.hashes, hashes[i]);
        while (this.hashedAt[at] !== -1) at++;
        this.hashedAt[at] = owner;
      }
    });
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

  lookupValue(value: string, options: { allValues?: boolean } = {}): ValueLocation[] {
    const key = normaliseValue(value);
    const hits = (this.valueIndex.get(key) ?? []).map((h) => ({ ...h }));
    const h = options.allValues && this.hashes.length > 0 ? hashValueForm(key) : undefined;
    if (h === undefined) return hits;
    for (let i = lowerBound(this.hashes, h); i < this.hashes.length && this.hashes[i] === h; i++) {
      const at = this.hashedColumns[this.hashedAt[i]];
      if (!hits.some((x) => x.columnId === at.columnId && x.tableId === at.tableId)) hits.push({ ...at, hashed: true });
    }
    return hits;
  }

  /** Number of distinct normalised values indexed as text (hashed ones not counted). */
  get valueCount(): number {
    return this.valueIndex.size;
  }
}

/** First position of a sorted array whose value is at least `x`. */
function lowerBound(sorted: Float64Array, x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
