/**
 * Two benchmark runs of the same questions, answer by answer: how many answers of one method at
 * one budget differ, how many became sufficient or stopped being, and the macro F1 / Sufficiency
 * of each run (the before / after of a change, e.g. two `graft bench run --questions ... --sample`
 * runs at two commits). A change that should not move answers shows 0 differing.
 * Usage: tsx bench/compare-runs.ts <before.json> <after.json> [--method graft] [--budget 10]
 * Prints a table per subset (>= 2 gold base tables, all questions); writes nothing.
 */
import { markdownTable } from '../src/bench/markdown.js';
import type { BenchRow } from '../src/bench/run.js';
import { readRunRows } from '../src/bench/runFile.js';
import { intOption } from '../src/cli/options.js';
import { MAX_BUDGET } from '../src/engine/limits.js';

const [beforeFile, afterFile, ...rest] = process.argv.slice(2);
if (!beforeFile || !afterFile) throw new Error('usage: tsx bench/compare-runs.ts <before.json> <after.json> [--method graft] [--budget 10]');
const opt = (name: string, dflt: string) => (rest.includes(name) ? rest[rest.indexOf(name) + 1] : dflt);
const method = opt('--method', 'graft');
const budget = intOption('budget', { min: 1, max: MAX_BUDGET })(opt('--budget', '10') ?? '');

const rowsOf = (file: string) => new Map(readRunRows(file, method, budget).rows.map((r) => [r.questionIndex, r]));
const before = rowsOf(beforeFile);
const after = rowsOf(afterFile);
const shared = [...before.keys()].filter((q) => after.has(q));
if (shared.length !== before.size || shared.length !== after.size) throw new Error(`the runs answer different questions (${before.size} and ${after.size}, ${shared.length} in common)`);

const round = (x: number) => x.toFixed(3);
for (const [title, subset] of [
  ['questions with >= 2 gold base tables', shared.filter((q) => before.get(q)!.goldBaseCount >= 2)],
  ['all questions', shared],
] as const) {
  const pairs = subset.map((q) => [before.get(q)!, after.get(q)!] as const);
  const mean = (f: (r: BenchRow) => number, i: 0 | 1) => pairs.reduce((s, p) => s + f(p[i]), 0) / Math.max(1, pairs.length);
  const differ = pairs.filter(([a, b]) => a.retrieved.join('\u0000') !== b.retrieved.join('\u0000')).length;
  const gained = pairs.filter(([a, b]) => b.sufficiency > a.sufficiency).length;
  const lost = pairs.filter(([a, b]) => b.sufficiency < a.sufficiency).length;
  console.log(`\n${method} at L = ${budget}, ${title} (n = ${pairs.length})\n`);
  console.log(
    markdownTable(
      ['answers that differ', 'sufficient since', 'no longer sufficient', 'F1 before -> after', 'Suf before -> after'],
      [[differ, gained, lost, `${round(mean((r) => r.f1, 0))} -> ${round(mean((r) => r.f1, 1))}`, `${round(mean((r) => r.sufficiency, 0))} -> ${round(mean((r) => r.sufficiency, 1))}`]],
    ),
  );
}
