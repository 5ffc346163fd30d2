/** Okapi BM25 over small documents (one per table). */

export interface Bm25Options {
  k1?: number;
  b?: number;
}

export class Bm25Index {
  private readonly tf: Map<string, number>[];
  private readonly lengths: number[];
  private readonly avgLength: number;
  private readonly df = new Map<string, number>();
  readonly k1: number;
  readonly b: number;

  constructor(docs: string[][], opts: Bm25Options = {}) {
    this.k1 = opts.k1 ?? 1.2;
    this.b = opts.b ?? 0.75;
    this.tf = docs.map((d) => {
      const m = new Map<string, number>();
      for (const t of d) m.set(t, (m.get(t) ?? 0) + 1);
      for (const t of m.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
      return m;
    });
    this.lengths = docs.map((d) => d.length);
    this.avgLength = docs.length === 0 ? 0 : this.lengths.reduce((a, b) => a + b, 0) / docs.length;
  }

  get size(): number {
    return this.tf.length;
  }

  /** Non-negative idf: ln(1 + (N - df + 0.5) / (df + 0.5)). */
  idf(term: string): number {
    const n = this.tf.length;
    const df = this.df.get(term) ?? 0;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /** Score of every document for the query terms (each distinct term counted once). */
  scores(query: string[]): Float64Array {
    const out = new Float64Array(this.tf.length);
    const terms = [...new Set(query)].filter((t) => this.df.has(t));
    if (terms.length === 0) return out;
    const idf = terms.map((t) => this.idf(t));
    for (let d = 0; d < this.tf.length; d++) {
      const tf = this.tf[d];
      const norm = this.k1 * (1 - this.b + (this.b * this.lengths[d]) / (this.avgLength || 1));
      let s = 0;
      for (let i = 0; i < terms.length; i++) {
        const f = tf.get(terms[i]);
        if (f) s += (idf[i] * f * (this.k1 + 1)) / (f + norm);
      }
      out[d] = s;
    }
    return out;
  }
}
