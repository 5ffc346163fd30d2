import { headerFeatureSet } from './header-features.js';

/**
 * How many documents (column headers of the catalog) contain a feature. The built-in embedder
 * weights header features by idf = ln((1 + documents) / (1 + df)) + 1, so words every table has
 * ('id', 'name') count less than distinctive ones ('stadium'). Features are the strings
 * `headerFeatureSet` yields ('w:<lemma>', 'g:<3-gram>').
 */
export interface DocumentFrequency {
  documents: number;
  df(feature: string): number;
}

export function inverseDocumentFrequency(freq: DocumentFrequency | undefined, feature: string): number {
  if (!freq || freq.documents <= 0) return 1;
  const df = Math.max(0, freq.df(feature));
  return Math.log((1 + freq.documents) / (1 + df)) + 1;
}

export interface DocumentFrequencySnapshot {
  documents: number;
  counts: Record<string, number>;
}

/**
 * In-memory document frequencies over column headers. Persist `toJSON()` next to the vectors:
 * questions must be embedded with the same table the columns were embedded with.
 */
export class DocumentFrequencyTable implements DocumentFrequency {
  private readonly counts = new Map<string, number>();
  documents = 0;

  static fromHeaders(headers: Iterable<string>): DocumentFrequencyTable {
    const table = new DocumentFrequencyTable();
    for (const h of headers) table.addHeader(h);
    return table;
  }

  static fromJSON(snapshot: DocumentFrequencySnapshot): DocumentFrequencyTable {
    const table = new DocumentFrequencyTable();
    table.documents = snapshot.documents;
    for (const [k, v] of Object.entries(snapshot.counts)) table.counts.set(k, v);
    return table;
  }

  addHeader(header: string): void {
    this.documents++;
    for (const f of headerFeatureSet(header)) this.counts.set(f, (this.counts.get(f) ?? 0) + 1);
  }

  df(feature: string): number {
    return this.counts.get(feature) ?? 0;
  }

  toJSON(): DocumentFrequencySnapshot {
    const keys = [...this.counts.keys()].sort();
    const counts: Record<string, number> = {};
    for (const k of keys) counts[k] = this.counts.get(k)!;
    return { documents: this.documents, counts };
  }
}
