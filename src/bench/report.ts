/** Renders benchmark results as markdown and keeps docs/BENCHMARKS.md's sections up to date. */
import path from 'node:path';
import { markdownTable, replaceMarkedSection } from './markdown.js';
import { MISSED_REACHES } from './missedGold.js';
import type { BenchResults, BenchSummary } from './run.js';

/**
 * bm25 figures of the independent reference implementation in ../shared/bench-reference.md
 * (same protocol, different random stream): quoted, not measured here.
 */
const SPIDER_REFERENCE: { method: string; L: number; allF1: number; allSuf: number; multiF1: number; multiSuf: number }[] = [
  { method: 'bm25 (names + values)', L: 5, allF1: 0.4, allSuf: 0.569, multiF1: 0.467, multiSuf: 0.314 },
  { method: 'bm25 (names + values)', L: 10, allF1: 0.274, allSuf: 0.714, multiF1: 0.337, multiSuf: 0.51 },
  { method: 'bm25 (names + values)', L: 15, allF1: 0.21, allSuf: 0.773, multiF1: 0.262, multiSuf: 0.604 },
  { method: 'bm25 (names only)', L: 5, allF1: 0.453, allSuf: 0.713, multiF1: 0.532, multiSuf: 0.497 },
  { method: 'bm25 (names only)', L: 10, allF1: 0.298, allSuf: 0.794, multiF1: 0.365, multiSuf: 0.633 },
  { method: 'bm25 (names only)', L: 15, allF1: 0.231, allSuf: 0.828, multiF1: 0.282, multiSuf: 0.679 },
];

const f3 = (x: number) => x.toFixed(3);
const ms = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(0));

function metricTable(results: BenchResults, subset: 'all' | 'multi'): string {
  const budgets = results.budgets;
  const header = ['method', ...budgets.flatMap((L) => [`R@${L}`, `P@${L}`, `F1@${L}`, `Suf@${L}`])];
  const find = (m: string, L: number): BenchSummary | undefined => results.summary.find((s) => s.method === m && s.budget === L);
  const rows: (string | number)[][] = results.methods.map((m) => [
    m,
    ...budgets.flatMap((L) => {
      const s = find(m, L)?.[subset];
      return s ? [f3(s.recall), f3(s.precision), f3(s.f1), f3(s.sufficiency)] : ['—', '—', '—', '—'];
    }),
  ]);
  if (/spider/i.test(results.dataset)) {
    for (const name of ['bm25 (names only)', 'bm25 (names + values)']) {
      rows.push([
        `_reference: ${name}_ ¹`,
        ...budgets.flatMap((L) => {
          const r = SPIDER_REFERENCE.find((x) => x.method === name && x.L === L);
          if (!r) return ['—', '—', '—', '—'];
          return ['—', '—', f3(subset === 'all' ? r.allF1 : r.multiF1), f3(subset === 'all' ? r.allSuf : r.multiSuf)];
        }),
      ]);
    }
  }
  rows.push(['_GRAFT paper, Table 2_', 'paper figures: not available offline', ...budgets.flatMap(() => ['', '', '', '']).slice(1)]);
  return markdownTable(header, rows);
}

function costTable(results: BenchResults): string {
  const budgets = results.budgets;
  const header = ['method', 'prepare (ms)', ...budgets.flatMap((L) => [`p50 ms @${L}`, `p95 ms @${L}`, `avg tables @${L}`])];
  const rows = results.methods.map((m) => [
    m,
    results.prepareMs[m] ?? '—',
    ...budgets.flatMap((L) => {
      const s = results.summary.find((x) => x.method === m && x.budget === L);
      return s ? [ms(s.latencyMs.p50), ms(s.latencyMs.p95), s.all.avgReturned.toFixed(2)] : ['—', '—', '—'];
    }),
  ]);
  return markdownTable(header, rows);
}

/**
 * Diagnostics of the >= 2-table questions: answers with no gold table, region recall, core size,
 * the core's own F1 / Suf, and the gold tables the answers lack by how far the search got with
 * them (`MissedGold`: never offered / offered under the floor / no room left).
 */
function diagnosticsTable(results: BenchResults): string {
  const budgets = results.budgets;
  const header = ['method', ...budgets.flatMap((L) => [`no gold @${L}`, `region recall @${L}`, `core / answer @${L}`, `core F1 / Suf @${L}`, `missed: not offered / under floor / no room @${L}`])];
  const rows = results.methods.map((m) => [
    m,
    ...budgets.flatMap((L) => {
      const s = results.summary.find((x) => x.method === m && x.budget === L);
      if (!s) return ['—', '—', '—', '—', '—'];
      const d = s.diagnostics;
      // Results written before the missed tables were traced have no such field.
      const missed = d.missedGold ?? null;
      return [
        `${(100 * d.zeroGoldShare).toFixed(1)}%`,
        d.regionRecall === null ? '—' : f3(d.regionRecall),
        `${d.meanCore === null ? '—' : d.meanCore.toFixed(2)} / ${s.multi.avgReturned.toFixed(2)}`,
        d.coreF1 === null || d.coreSufficiency === null ? '—' : `${f3(d.coreF1)} / ${f3(d.coreSufficiency)}`,
        missed === null ? '—' : MISSED_REACHES.map((r) => missed[r]).join(' / '),
      ];
    }),
  ]);
  return markdownTable(header, rows);
}

/** 'decomp:<absolute file>' shown relative to the working directory (docs must not carry machine paths). */
function displayIntent(intent: string): string {
  const m = /^decomp:(.+)$/.exec(intent);
  return m && path.isAbsolute(m[1]) ? `decomp:${path.relative(process.cwd(), m[1])}` : intent;
}

/** The results of one run as a markdown section body (one intent per section: never mixed). */
export function benchMarkdown(results: BenchResults): string {
  const intents = new Set(results.summary.map((s) => s.intent));
  if (intents.size > 1) throw new Error(`results mix intents (${[...intents].join(', ')}); render them separately`);
  const m = results.machine;
  const idx = results.index;
  const smoke = results.limit !== null ? ` — SMOKE RUN (first ${results.limit} questions)` : results.sample ? ` — SAMPLE (${results.sample} questions spread over the file)` : '';
  const set = questionSetName(results);
  const lines = [
    `## Retrieval: ${results.dataset} lake${set ? `, questions \`${set}\`` : ''}, intent \`${displayIntent(results.intent)}\`${smoke}`,
    '',
    `${results.questions} questions (${results.multiTableQuestions} with >= 2 gold base tables); ` +
      `metrics over lake tables (shards count separately), macro-averaged; Suf = every gold table returned.`,
    '',
    `### All questions (n = ${results.questions})`,
    '',
    metricTable(results, 'all'),
    '',
    `### Questions with >= 2 gold base tables (n = ${results.multiTableQuestions})`,
    '',
    metricTable(results, 'multi'),
    '',
    '### Latency per question and answer size',
    '',
    costTable(results),
    '',
    `### Diagnostics (questions with >= 2 gold base tables)`,
    '',
    'no gold: share of answers holding no gold table; region recall: share of the gold tables inside the ' +
      "search region (every table the method could have chosen) before any choice; core / answer: mean size of the core synthesis " +
      '(alternates excluded) and of the whole answer; core F1 / Suf: the core alone scored as the answer; ' +
      'missed: the gold tables the answers lack (each lake table), never offered / offered under the confidence floor / ' +
      'offered above it with no room left in the budget.',
    '',
    diagnosticsTable(results),
    '',
    `Index: ${idx.catalogTables} of ${idx.lakeTables} lake tables in the catalog (${idx.catalog}), ${idx.columns} columns, ` +
      `${idx.joinEdges} join / ${idx.unionEdges} union edges; ` +
      (idx.ingested ? `built in this run in ${(idx.ingestMs / 1000).toFixed(1)} s (${idx.tablesIngested} tables ingested, ${idx.tablesFailed} failed)` : 'already built') +
      `; catalog view loaded in ${idx.viewLoadMs} ms. Embedder \`${results.embedder}\`.` +
      (idx.missingLakeTables.length > 0
        ? ` **${idx.missingLakeTables.length} lake tables missing from the catalog** (failed ingest: ${idx.missingLakeTables.slice(0, 8).join(', ')}${idx.missingLakeTables.length > 8 ? ', …' : ''}); ${idx.questionsWithMissingGold} questions have a missing gold table.`
        : '') +
      (idx.preparation ? ` ${idx.preparation}` : ''),
    '',
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.os}, node ${m.node}. Commit \`${results.commit}\`, run ${results.startedAt} (${(results.elapsedMs / 1000).toFixed(0)} s).`,
    '',
    `Command: \`${results.command}\``,
  ];
  if (/spider/i.test(results.dataset)) {
    lines.push(
      '',
      '¹ Independent reference implementation of the same protocol (../shared/bench-reference.md, same seed, different random ' +
        'stream so different shards); only F1 and Suf are published there. Quoted, not measured here.',
    );
  }
  return lines.join('\n');
}

/**
 * The markers a run's section lives between: `bench:<dataset>` (offline) or `bench:<dataset>-<intent>`;
 * a run over another questions file than the lake's own gold adds the file's stem
 * (`bench:spider-train_original`).
 */
export function benchSectionName(results: BenchResults): string {
  const kind = results.intent.startsWith('decomp:') ? 'decomp' : results.intent;
  const set = questionSetName(results);
  const base = set ? `${results.dataset}-${set}` : results.dataset;
  return kind === 'offline' ? base : `${base}-${kind}`;
}

/** The questions file's stem when the run did not use the lake's own gold.json. */
function questionSetName(results: BenchResults): string | null {
  const stem = path.basename(results.goldSource).replace(/\.json$/i, '');
  return stem === 'gold' ? null : stem.replace(/[^A-Za-z0-9_-]+/g, '_');
}

/** Updates (or appends) the run's section of a BENCHMARKS.md; everything else in the file is kept. */
export function writeBenchmarksMarkdown(results: BenchResults, file: string): string {
  const section = benchSectionName(results);
  replaceMarkedSection(file, section, benchMarkdown(results));
  return section;
}
