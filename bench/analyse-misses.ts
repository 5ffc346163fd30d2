/**
 * Error analysis of a benchmark run: the worst Sufficiency misses of one method at one budget on
 * the >= 2-table subset, each classified from the lake manifest:
 *   - missed shard: a shard of a gold table was retrieved but not all of its shards;
 *   - wrong source: a same-named table of another database was retrieved instead;
 *   - unnamed table: the missed table's name shares no word with the question (a bridge or a
 *     content table the question describes in other words);
 *   - named but missed: the question names it, the search still left it out.
 * For methods that trace their alternates' offers, also where the search lost each missing table
 * (`MissedGold`: never offered, offered under the confidence floor, or no room left).
 * Usage: tsx bench/analyse-misses.ts <results.json> [--method graft] [--budget 10] [--top 20] [--write]
 * Prints the analysis; with --write (as `npm run bench` calls it), for a run over the lake's own
 * questions (its gold.json), it also writes the section `bench:<dataset>-misses` of
 * docs/BENCHMARKS.md, so analysing a trial run leaves the report alone. A run over another
 * question file (`graft bench run --questions`, e.g. the train questions) is analysed against that
 * file's questions and only printed: the docs section is the dev report.
 */
import path from 'node:path';
import { goldFromQuestions, MISSED_REACHES, readBenchGold, readBenchManifest, type MissedReach } from '../src/bench/index.js';
import { replaceMarkedSection } from '../src/bench/markdown.js';
import type { BenchRow } from '../src/bench/run.js';
import { readRunRows } from '../src/bench/runFile.js';
import { intOption } from '../src/cli/options.js';
import { MAX_BUDGET } from '../src/engine/limits.js';

const [file, ...rest] = process.argv.slice(2);
if (!file) throw new Error('usage: tsx bench/analyse-misses.ts <results.json> [--method graft] [--budget 10] [--top 20] [--write]');
const opt = (name: string, dflt: string) => (rest.includes(name) ? rest[rest.indexOf(name) + 1] : dflt);
const method = opt('--method', 'graft');
const budget = intOption('budget', { min: 1, max: MAX_BUDGET })(opt('--budget', '10') ?? '');
const top = intOption('top', { min: 1 })(opt('--top', '20') ?? '');
const write = rest.includes('--write');

const { results, rows: runRows } = readRunRows(file, method, budget);
const manifest = await readBenchManifest(path.join(results.lakeDir, 'manifest.json'));
const lakeGold = path.join(results.lakeDir, 'gold.json');
const ownQuestions = path.resolve(results.goldSource ?? lakeGold) === path.resolve(lakeGold);
const gold = ownQuestions ? await readBenchGold(lakeGold) : await goldFromQuestions(results.goldSource, manifest);
const byName = new Map(manifest.tables.map((t) => [t.name, t]));
const questionText = new Map<number, string>(gold.questions.map((q: { index: number; question: string }) => [q.index, q.question]));
const words = (s: string) => new Set(s.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 2).map((w) => w.replace(/s$/, '')));

const rows = runRows.filter((r) => r.goldBaseCount >= 2 && r.sufficiency === 0);
rows.sort((a, b) => a.recall - b.recall || a.questionIndex - b.questionIndex);
const counts = new Map<string, number>();
const classify = (r: BenchRow): string[] => {
  const got = new Set(r.retrieved);
  const reasons: string[] = [];
  for (const g of r.gold.filter((x) => !got.has(x))) {
    const m = byName.get(g)!;
    const sibling = r.gold.some((x) => x !== g && got.has(x) && byName.get(x)?.baseTable === m.baseTable && byName.get(x)?.dbId === m.dbId);
    const otherSource = r.retrieved.some((x) => byName.get(x)?.baseTable.toLowerCase() === m.baseTable.toLowerCase() && byName.get(x)?.dbId !== m.dbId);
    const named = [...words(m.baseTable.replace(/_/g, ' '))].some((w) => words(questionText.get(r.questionIndex) ?? '').has(w));
    reasons.push(sibling ? 'missed shard' : otherSource ? 'wrong source' : named ? 'named but missed' : 'unnamed table');
  }
  return [...new Set(reasons)];
};
for (const r of rows) for (const c of classify(r)) counts.set(c, (counts.get(c) ?? 0) + 1);

/** The missing gold tables by how far the search got with them (rows of methods that trace their offers). */
function reachLines(): string[] {
  const missed = rows.flatMap((r) => r.missedGold ?? []);
  if (!rows.some((r) => r.missedGold)) return [];
  const line = (reach: MissedReach) => {
    const of = missed.filter((m) => m.reach === reach);
    const stages = new Map<string, number>();
    for (const m of of) if (m.stage) stages.set(m.stage, (stages.get(m.stage) ?? 0) + 1);
    const byStage = [...stages].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([s, n]) => `${s} ${n}`).join(', ');
    return `| ${reach} | ${of.length} | ${byStage || '—'} |`;
  };
  return [
    `Where the search lost the ${missed.length} missing gold tables (each lake table, shards apart): never offered, offered under the confidence floor, or offered above it with no room left in the budget; by the stage that offered them:`,
    '',
    '| reach | tables | offered by |',
    '| --- | --- | --- |',
    ...MISSED_REACHES.map(line),
    '',
  ];
}

const lines = [
  `## Error analysis: ${method} at L = ${budget}, intent \`${results.intent}\`, >= 2-table questions`,
  '',
  `${rows.length} of ${results.multiTableQuestions} questions miss at least one gold table. Causes over all of them (a question can have several):`,
  '',
  '| cause | questions |',
  '| --- | --- |',
  ...[...counts].sort((a, b) => b[1] - a[1]).map(([c, n]) => `| ${c} | ${n} |`),
  '',
  ...reachLines(),
  `The ${Math.min(top, rows.length)} worst (lowest recall first):`,
  '',
  '| # | question | missed (base table @ db) | retrieved | cause |',
  '| --- | --- | --- | --- | --- |',
  ...rows.slice(0, top).map((r) => {
    const got = new Set(r.retrieved);
    const missed = [...new Set(r.gold.filter((x) => !got.has(x)).map((x) => `${byName.get(x)!.baseTable}@${byName.get(x)!.dbId}`))].join(', ');
    const retrieved = r.retrieved.map((x) => `${byName.get(x)?.baseTable}@${byName.get(x)?.dbId}`).join(', ') || '—';
    return `| ${r.questionIndex} | ${(questionText.get(r.questionIndex) ?? '').replace(/\|/g, '/')} | ${missed} | ${retrieved} | ${classify(r).join(', ')} |`;
  }),
  '',
  `Command: \`npx tsx bench/analyse-misses.ts ${path.relative('.', file)} --method ${method} --budget ${budget}${write ? ' --write' : ''}\``,
];
const text = lines.join('\n');
process.stdout.write(`${text}\n`);
if (write && ownQuestions) replaceMarkedSection(path.resolve('docs/BENCHMARKS.md'), `${results.dataset}-misses`, text);
else if (write) process.stderr.write(`not written: ${file} answers other questions than the lake's own; the docs section is the dev report\n`);
