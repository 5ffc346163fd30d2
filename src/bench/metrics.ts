/**
 * Per-question retrieval metrics over lake table names (file stems) and their macro averages.
 *
 * Recall = |R ∩ G| / |G|, Precision = |R ∩ G| / |R| (0 for an empty answer), F1 their harmonic
 * mean (0 when both are 0), Sufficiency = 1 iff every gold table was retrieved. Duplicates in
 * the answer count once. Macro averages weigh every question equally; the headline subset is the
 * questions whose SQL reads at least two BASE tables (shards of one table do not count twice).
 */

export interface QuestionMetrics {
  recall: number;
  precision: number;
  f1: number;
  sufficiency: 0 | 1;
  /** Distinct tables returned. */
  returned: number;
}

export function questionMetrics(retrieved: readonly string[], gold: readonly string[]): QuestionMetrics {
  const r = new Set(retrieved);
  const g = new Set(gold);
  let hit = 0;
  for (const t of r) if (g.has(t)) hit++;
  const recall = g.size === 0 ? 1 : hit / g.size;
  const precision = r.size === 0 ? 0 : hit / r.size;
  const f1 = recall + precision === 0 ? 0 : (2 * recall * precision) / (recall + precision);
  return { recall, precision, f1, sufficiency: hit === g.size ? 1 : 0, returned: r.size };
}

export interface MacroMetrics {
  questions: number;
  recall: number;
  precision: number;
  f1: number;
  sufficiency: number;
  avgReturned: number;
}

export function macroAverage(rows: readonly QuestionMetrics[]): MacroMetrics {
  const n = rows.length;
  const avg = (f: (m: QuestionMetrics) => number) => (n === 0 ? 0 : rows.reduce((s, m) => s + f(m), 0) / n);
  return {
    questions: n,
    recall: avg((m) => m.recall),
    precision: avg((m) => m.precision),
    f1: avg((m) => m.f1),
    sufficiency: avg((m) => m.sufficiency),
    avgReturned: avg((m) => m.returned),
  };
}

/** Nearest-rank percentile (p in (0,100]) of a sample; 0 for an empty one. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export interface LatencySummary {
  p50: number;
  p95: number;
  mean: number;
}

export function latencySummary(ms: readonly number[]): LatencySummary {
  return {
    p50: percentile(ms, 50),
    p95: percentile(ms, 95),
    mean: ms.length === 0 ? 0 : ms.reduce((a, b) => a + b, 0) / ms.length,
  };
}
