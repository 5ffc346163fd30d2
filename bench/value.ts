/**
 * `npm run bench:value`: the learned value network on the Spider lake (issue: learned value).
 *   1. train the default model on the lake (`graft value train` defaults: centrality sampler,
 *      gamma 0.8) and store it in the lake's catalog — timed (target: <= 20 min on 2 cores);
 *   2. run `graft` (heuristic value) and `graft-learned` side by side at L = 5, 10, 15;
 *   3. sampler ablation (centrality | anchor | uniform) and gamma sweep (0, 0.4, 0.8, 1.0) with
 *      smaller models trained in-process (never stored), each scored by held-out value MAPE and
 *      by retrieval F1 / Sufficiency at L = 10;
 * and write docs/bench/value.json and the `bench:value` section of docs/BENCHMARKS.md.
 * Options: --questions N (questions of the main comparison; default all), --ablation-questions N
 * (default 400), --ablation-trajectories N (default 1500), --ablation-steps N (default 3000),
 * --skip-ablation, --skip-train (reuse the newest stored model for this lake), --catalog <dir>
 * (PGlite dir; default lakes/spider/.graft-db).
 * The Spider lake must be built and ingested (`npm run bench` or `npm run bench:build:spider`).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openCatalog } from '../src/catalog/index.js';
import { createEmbedder, embedderConfigFromEnv } from '../src/embed/index.js';
import { createEngine } from '../src/engine/index.js';
import { GraftMethod } from '../src/bench/graftMethods.js';
import { gitCommit, machineInfo } from '../src/bench/machine.js';
import { markdownTable, replaceMarkedSection } from '../src/bench/markdown.js';
import { runBench, type BenchResults, type BenchSummary } from '../src/bench/run.js';
import { ingestLake } from '../src/ingest/index.js';
import { closeDuckDB } from '../src/lake/index.js';
import { trainAndStoreValueModel } from '../src/value/catalogTraining.js';
import { LearnedValueFunction } from '../src/value/learnedValueFunction.js';
import { OnnxQScorer } from '../src/value/onnxScorer.js';
import { trainValueModel } from '../src/value/train.js';
import type { SamplerKind } from '../src/value/trajectories/index.js';

const args = process.argv.slice(2);
const numArg = (name: string, dflt?: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const mainQuestions = numArg('--questions');
const ablationQuestions = numArg('--ablation-questions', 400)!;
const ablationTrajectories = numArg('--ablation-trajectories', 1500)!;
const ablationSteps = numArg('--ablation-steps', 3000)!;
const skipAblation = args.includes('--skip-ablation');
const skipTrain = args.includes('--skip-train');
const log = (m: string) => process.stderr.write(`[bench:value] ${m}\n`);
const lakeDir = path.resolve('lakes/spider');
if (!existsSync(path.join(lakeDir, 'manifest.json'))) throw new Error(`${lakeDir} holds no bench lake: run npm run bench:build:spider first`);

const started = Date.now();
const embedder = createEmbedder(embedderConfigFromEnv(process.env));
const catalogArg = args.indexOf('--catalog');
const db = await openCatalog({ dataDir: catalogArg >= 0 ? path.resolve(args[catalogArg + 1]) : path.join(lakeDir, '.graft-db') });
const f3 = (x: number) => x.toFixed(3);

interface AblationRow {
  kind: 'sampler' | 'gamma';
  /** 'heuristic': the heuristic value function on the same questions, for reference. */
  sampler: SamplerKind | 'heuristic';
  gamma: number;
  mape: number;
  trainMs: number;
  transitions: number;
  multiF1: number;
  multiSuf: number;
  allF1: number;
  p50: number;
}

try {
  await ingestLake(db, lakeDir, { embedder }); // unchanged tables are skipped; the model must see the lake as benchmarked
  let training: { id: string; trainMs: number; heldOutMape: number; trajectories: number; transitions: number; metadata: Record<string, unknown> } | null = null;
  if (!skipTrain) {
    log('training the default value model (graft value train defaults)');
    let last = 0;
    const { record } = await trainAndStoreValueModel(db, embedder, {
      onProgress: (phase, done, total) => {
        if (Date.now() - last > 15_000 || done === total) {
          last = Date.now();
          log(`  ${phase} ${done}/${total}`);
        }
      },
    });
    training = record;
    log(`  model ${record.id}: MAPE ${f3(record.heldOutMape)}, ${(record.trainMs / 1000).toFixed(0)} s`);
  }

  const compare = await runBench({
    lakeDir, db, embedder, ingest: 'never', budgets: [5, 10, 15], limit: mainQuestions,
    methods: ['graft', 'graft-learned'], outFile: false, onProgress: log,
    command: 'npm run bench:value',
  });

  const ablation: AblationRow[] = [];
  if (!skipAblation) {
    const engine = createEngine(db, embedder, { valueModel: 'off' });
    const snapshot = await engine.snapshot();
    const settings: { kind: 'sampler' | 'gamma'; sampler: SamplerKind; gamma: number }[] = [
      ...(['centrality', 'anchor', 'uniform'] as const).map((sampler) => ({ kind: 'sampler' as const, sampler, gamma: 0.8 })),
      ...[0, 0.4, 1.0].map((gamma) => ({ kind: 'gamma' as const, sampler: 'centrality' as const, gamma })),
    ];
    for (const s of settings) {
      log(`ablation: sampler ${s.sampler}, gamma ${s.gamma}`);
      const m = await trainValueModel(snapshot, (intent) => engine.modelForIntent(intent), {
        transitions: { trajectories: ablationTrajectories, sampler: s.sampler },
        iql: { gamma: s.gamma, steps: ablationSteps },
      });
      const scorer = await OnnxQScorer.create(m.onnx, { provider: 'cpu' });
      const fn = new LearnedValueFunction(scorer, `learned-${s.sampler}-g${s.gamma}`);
      const r = await runBench({
        lakeDir, db, embedder, ingest: 'never', budgets: [10], limit: ablationQuestions,
        methods: [new GraftMethod(fn.name, 'beam', fn)], outFile: false, command: 'npm run bench:value',
      });
      await scorer.release();
      const sum = r.summary[0];
      ablation.push({ ...s, mape: m.heldOutMape, trainMs: m.trainMs, transitions: m.transitions, multiF1: sum.multi.f1, multiSuf: sum.multi.sufficiency, allF1: sum.all.f1, p50: sum.latencyMs.p50 });
      // The gamma sweep's 0.8 point is the sampler ablation's centrality row.
      if (s.kind === 'sampler' && s.sampler === 'centrality') ablation.push({ ...ablation[ablation.length - 1], kind: 'gamma' });
    }
    // Heuristic reference on the ablation's question subset.
    const ref = await runBench({ lakeDir, db, embedder, ingest: 'never', budgets: [10], limit: ablationQuestions, methods: ['graft'], outFile: false, command: 'npm run bench:value' });
    const h = ref.summary[0];
    ablation.push({ kind: 'sampler', sampler: 'heuristic', gamma: Number.NaN, mape: Number.NaN, trainMs: 0, transitions: 0, multiF1: h.multi.f1, multiSuf: h.multi.sufficiency, allF1: h.all.f1, p50: h.latencyMs.p50 });
  }

  const results = {
    protocol: 'graft-bench-value-v1',
    commit: gitCommit(),
    machine: machineInfo(),
    startedAt: new Date(started).toISOString(),
    elapsedMs: Date.now() - started,
    training,
    comparison: { questions: compare.questions, multiTableQuestions: compare.multiTableQuestions, summary: compare.summary, methodStats: compare.methodStats },
    ablation: { questions: ablationQuestions, trajectories: ablationTrajectories, steps: ablationSteps, rows: ablation },
  };
  mkdirSync('docs/bench', { recursive: true });
  writeFileSync('docs/bench/value.json', `${JSON.stringify(results, null, 2)}\n`);
  replaceMarkedSection(path.resolve('docs/BENCHMARKS.md'), 'value', valueMarkdown(results, compare));
  log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s; docs/bench/value.json, docs/BENCHMARKS.md (bench:value)`);
} finally {
  await db.close();
  await closeDuckDB();
}

function valueMarkdown(r: { training: { trainMs: number; heldOutMape: number; trajectories: number; transitions: number; metadata: Record<string, unknown> } | null; ablation: { questions: number; trajectories: number; steps: number; rows: AblationRow[] }; machine: ReturnType<typeof machineInfo>; commit: string; startedAt: string }, compare: BenchResults): string {
  const find = (m: string, L: number): BenchSummary | undefined => compare.summary.find((s) => s.method === m && s.budget === L);
  const budgets = compare.budgets;
  const rows = compare.methods.map((m) => [
    m,
    ...budgets.flatMap((L) => {
      const s = find(m, L);
      return s ? [f3(s.multi.f1), f3(s.multi.sufficiency), f3(s.all.f1), f3(s.all.sufficiency), s.latencyMs.p50.toFixed(0), s.latencyMs.p95.toFixed(0)] : [];
    }),
  ]);
  const overhead = budgets.map((L) => {
    const h = find('graft', L)?.latencyMs.p50 ?? 0;
    const l = find('graft-learned', L)?.latencyMs.p50 ?? 0;
    return `L=${L}: ${h > 0 ? (((l - h) / h) * 100).toFixed(0) : '—'}%`;
  });
  // The learned method's own cost counters, per question, against graft's mean latency.
  const st = compare.methodStats['graft-learned'] ?? {};
  const runs = compare.questions * budgets.length;
  const graftMean = budgets.reduce((sum, L) => sum + (find('graft', L)?.latencyMs.mean ?? 0), 0) / budgets.length;
  const perQuestion = (ms: number | undefined) => (ms ?? 0) / Math.max(1, runs);
  const share = (ms: number | undefined) => (graftMean > 0 ? `${((perQuestion(ms) / graftMean) * 100).toFixed(0)}%` : '—');
  const t = r.training;
  const parts = [
    `## Learned value network: \`graft\` (heuristic Q) vs \`graft-learned\` (IQL, ONNX), spider lake, intent \`offline\``,
    '',
    t
      ? `Training (\`graft value train\` defaults): ${t.trajectories} sampled table sets, ${t.transitions} transitions, held-out value MAPE ${f3(t.heldOutMape)}, ${(t.trainMs / 60000).toFixed(1)} min in all (trajectories ${((Number(t.metadata.generationMs) || 0) / 60000).toFixed(1)} min, IQL ${((Number(t.metadata.iqlMs) || 0) / 60000).toFixed(1)} min; target <= 20 min).`
      : 'Training: skipped (newest stored model reused).',
    '',
    `${compare.questions} questions (${compare.multiTableQuestions} with >= 2 gold base tables). ≥2 = headline subset.`,
    '',
    markdownTable(['method', ...budgets.flatMap((L) => [`F1≥2 @${L}`, `Suf≥2 @${L}`, `F1 all @${L}`, `Suf all @${L}`, `p50 ms @${L}`, `p95 ms @${L}`])], rows),
    '',
    `Cost of the learned value per question (mean over all budgets): ONNX inference ${perQuestion(st.valueInferenceMs).toFixed(2)} ms = ${share(st.valueInferenceMs)} of graft's mean latency (${graftMean.toFixed(1)} ms; target <= 20%), ` +
      `feature computation ${perQuestion(st.valueFeatureMs).toFixed(2)} ms = ${share(st.valueFeatureMs)} (it replaces the heuristic's own scoring, which computes the IGMS gain and look-ahead too); ` +
      `${st.valueCalls ?? 0} batched inference calls (one per beam step), ${((st.valueRows ?? 0) / Math.max(1, st.valueCalls ?? 1)).toFixed(0)} actions per call. ` +
      `End-to-end p50 difference (graft-learned vs graft; the two searches also visit different states): ${overhead.join(', ')}.`,
  ];
  if (r.ablation.rows.length > 0) {
    parts.push(
      '',
      `### Sampler ablation and gamma sweep (models of ${r.ablation.trajectories} sampled table sets, ${r.ablation.steps} IQL steps; first ${r.ablation.questions} questions, L = 10)`,
      '',
      markdownTable(
        ['study', 'sampler', 'gamma', 'held-out MAPE', 'F1 ≥2', 'Suf ≥2', 'F1 all', 'p50 ms', 'train s'],
        [...r.ablation.rows.filter((x) => x.kind === 'sampler'), ...r.ablation.rows.filter((x) => x.kind === 'gamma').sort((a, b) => a.gamma - b.gamma)].map((x) => [x.kind, x.sampler, Number.isNaN(x.gamma) ? '—' : x.gamma, Number.isNaN(x.mape) ? '—' : f3(x.mape), f3(x.multiF1), f3(x.multiSuf), f3(x.allF1), x.p50.toFixed(0), x.trainMs ? (x.trainMs / 1000).toFixed(0) : '—']),
      ),
      '',
      'Row `heuristic` is `graft` with its heuristic value function on the same questions.',
    );
  }
  parts.push('', `Machine: ${r.machine.cpu}, ${r.machine.cores} cores, ${r.machine.memoryGiB} GiB, ${r.machine.os}, node ${r.machine.node}; CPU execution provider (no GPU lent). Commit \`${r.commit}\`, run ${r.startedAt}.`, '', 'Command: `npm run bench:value` (raw figures: docs/bench/value.json).');
  return parts.join('\n');
}
