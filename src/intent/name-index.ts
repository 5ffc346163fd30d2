import { NAME_INDEX_SPLIT, splitIdentifier, type Lemmatiser } from '../text/index.js';
import { STOP_WORDS, bagKey } from './text.js';
import type { CatalogVocabulary, VocabularyColumn, VocabularyTable } from './vocabulary.js';

/** One table or column filed under a name key. */
export interface NameHit {
  tableId: string;
  columnId?: string;
  /** 1 for the whole name, less for a partial key (a column name minus its table's name). */
  score: number;
}

export interface IndexedTable {
  table: VocabularyTable;
  columns: Map<string, VocabularyColumn>;
}

/** Longest name (in content words) an n-gram can hit. */
export const MAX_NAME_WORDS = 4;

/**
 * Table and column names of a vocabulary filed under the bag-of-lemmas key of their words
 * (snake/camel split, lemmatised, stop words dropped unless the name is nothing else). Built
 * once per vocabulary; a lookup is one map access.
 */
export class NameIndex {
  readonly tables = new Map<string, IndexedTable>();
  private readonly byKey = new Map<string, NameHit[]>();

  constructor(vocab: CatalogVocabulary, private readonly lemmatiser: Lemmatiser) {
    for (const table of vocab.tables) {
      const columns = new Map<string, VocabularyColumn>();
      for (const c of table.columns) columns.set(c.id, c);
      this.tables.set(table.id, { table, columns });
      const tableWords = this.nameWords(table.name);
      this.add(tableWords, { tableId: table.id, score: 1 });
      // "car makers" is also what a question calls "makers": file a compound name under its
      // head noun (the last word), weaker than the whole name.
      if (tableWords.length > 1) this.add(tableWords.slice(-1), { tableId: table.id, score: 0.7 });
      for (const column of table.columns) {
        const words = this.nameWords(column.name);
        this.add(words, { tableId: table.id, columnId: column.id, score: 1 });
        // club.club_name is also "name" of club: file it under the words after the table's name.
        if (tableWords.length > 0 && words.length > tableWords.length) {
          if (tableWords.every((w, i) => words[i] === w)) {
            this.add(words.slice(tableWords.length), { tableId: table.id, columnId: column.id, score: 0.9 });
          }
        }
      }
    }
    for (const hits of this.byKey.values()) hits.sort(compareHits);
  }

  /** Content lemmas of an identifier or phrase. */
  nameWords(name: string): string[] {
    const words = splitIdentifier(name, NAME_INDEX_SPLIT).map((w) => this.lemmatiser.lemma(w));
    const content = words.filter((w) => !STOP_WORDS.has(w));
    return content.length > 0 ? content : words;
  }

  lookup(key: string): NameHit[] | undefined {
    return this.byKey.get(key);
  }

  private add(words: string[], hit: NameHit): void {
    if (words.length === 0 || words.length > MAX_NAME_WORDS * 2) return;
    const key = bagKey(words);
    let hits = this.byKey.get(key);
    if (!hits) {
      hits = [];
      this.byKey.set(key, hits);
    }
    const same = hits.find((h) => h.tableId === hit.tableId && h.columnId === hit.columnId);
    if (same) same.score = Math.max(same.score, hit.score);
    else hits.push(hit);
  }
}

function compareHits(a: NameHit, b: NameHit): number {
  return b.score - a.score || cmp(a.tableId, b.tableId) || cmp(a.columnId ?? '', b.columnId ?? '');
}

export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
