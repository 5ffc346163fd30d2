/**
 * Where an answer's F1 could come from without losing Sufficiency: one method's answers of a
 * benchmark run, at one budget, cut after the core plus k alternates, beside two cuts that know
 * the gold tables (what a perfect keep-or-drop of the alternates in their present order would
 * reach: the shortest prefix that is sufficient, or the whole answer where none is; and each
 * question's best-F1 prefix). Reads the per-question rows (`retrieved` in answer order, `core` =
 * how many of them are the core synthesis), so it needs a run of a method that reports its core.
 * Usage: tsx bench/alternate-cuts.ts <results.json> [--method graft] [--budget 10]
 * Prints a table per subset (>= 2 gold base tables, all questions); writes nothing.
 */
import { macroAverage, questionMetrics, type QuestionMetrics } from '../src/bench/metrics.js';
import type { BenchRow } from '../src/bench/run.js';
import { markdownTable } from '../src/bench/markdown.js';
import { readRunRows } from '../src/bench/runFile.js';
import { intOption } from '../src/cli/options.js';
import { MAX_BUDGET } from '../src/engine/limits.js';

const [file, ...rest] = process.argv.slice(2);
if (!file) throw new Error('usage: tsx bench/alternate-cuts.ts <results.json> [--method graft] [--budget 10]');
const opt = (name: string, dflt: string) => (rest.includes(name) ? rest[rest.indexOf(name) + 1] : dflt);
const method = opt('--method', 'graft');
const budget = intOption('budget', { min: 1, max: MAX_BUDGET })(opt('--budget', '10') ?? '');

const { rows } = readRunRows(file, method, budget);
if (rows.some((r) => r.core === undefined)) throw new Error(`${file}: the rows of ${method} do not say how many tables are the core (field "core")`);

/** The shortest prefix holding every gold table, or the whole answer where none does. */
const shortestSufficient = (r: BenchRow) => {
  for (let k = 1; k <= r.retrieved.length; k++) if (questionMetrics(r.retrieved.slice(0, k), r.gold).sufficiency === 1) return r.retrieved.slice(0, k);
  return r.retrieved;
};
/** The prefix with the highest F1 (the shortest among equals). */
const bestF1Prefix = (r: BenchRow) => {
  let best: { f1: number; k: number } = { f1: -1, k: 0 };
  for (let k = 1; k <= r.retrieved.length; k++) {
    const f1 = questionMetrics(r.retrieved.slice(0, k), r.gold).f1;
    if (f1 > best.f1) best = { f1, k };
  }
  return r.retrieved.slice(0, best.k);
};

const maxAlternates = Math.max(...rows.map((r) => r.retrieved.length - r.core!));
const cuts: { label: string; answer: (r: BenchRow) => string[] }[] = [
  { label: 'answer as returned', answer: (r) => r.retrieved },
  ...Array.from({ length: maxAlternates }, (_, k) => ({ label: k === 0 ? 'core only' : `core + ${k} alternate${k > 1 ? 's' : ''}`, answer: (r: BenchRow) => r.retrieved.slice(0, r.core! + k) })),
  { label: 'knowing the gold: shortest sufficient prefix', answer: shortestSufficient },
  { label: 'knowing the gold: best-F1 prefix', answer: bestF1Prefix },
];

for (const [title, subset] of [
  ['questions with >= 2 gold base tables', rows.filter((r) => r.goldBaseCount >= 2)],
  ['all questions', rows],
] as const) {
  console.log(`\n${method} at L = ${budget}, ${title} (n = ${subset.length}); F1 / Suf / tables\n`);
  const table = cuts.map((c) => {
    const m = macroAverage(subset.map((r): QuestionMetrics => questionMetrics(c.answer(r), r.gold)));
    return [c.label, m.f1.toFixed(3), m.sufficiency.toFixed(3), m.avgReturned.toFixed(2)];
  });
  console.log(markdownTable(['cut', 'F1', 'Suf', 'avg tables'], table));
}
