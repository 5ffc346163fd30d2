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
import { lakeFingerprint, latestValueModel, openCatalog } from '../src/catalog/index.js';
import { createEmbedder, embedderConfigFromEnv } from '../src/embed/index.js';
import { createEngine } from '../src/engine/index.js';
import { GraftMethod } from '../src/bench/graftMethods.js';
import { gitCommit, machineInfo } from '../src/bench/machine.js';
import { throttledProgress } from '../src/bench/progressLog.js';
import { replaceMarkedSection } from '../src/bench/markdown.js';
import { valueMarkdown, type AblationRow, type ValueBenchResults } from '../src/bench/valueReport.js';
import { runBench } from '../src/bench/run.js';
import { ingestLake } from '../src/ingest/index.js';
import { closeDuckDB } from '../src/lake/index.js';
import { intOption } from '../src/cli/options.js';
import { trainAndStoreValueModel } from '../src/value/catalogTraining.js';
import { FEATURE_VERSION } from '../src/value/features.js';
import { LearnedValueFunction } from '../src/value/learnedValueFunction.js';
import { OnnxQScorer } from '../src/value/onnxScorer.js';
import { trainValueModel } from '../src/value/train.js';
import type { SamplerKind } from '../src/value/trajectories/index.js';

const args = process.argv.slice(2);
const numArg = (name: string, dflt?: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? intOption(name, { min: 1 })(args[i + 1] ?? '') : dflt;
};
const mainQuestions = numArg('questions');
const ablationQuestions = numArg('ablation-questions', 400)!;
const ablationTrajectories = numArg('ablation-trajectories', 1500)!;
const ablationSteps = numArg('ablation-steps', 3000)!;
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


try {
  await ingestLake(db, lakeDir, { embedder }); // unchanged tables are skipped; the model must see the lake as benchmarked
  let training: ValueBenchResults['training'] = null;
  if (!skipTrain) {
    log('training the default value model (graft value train defaults)');
    const { record } = await trainAndStoreValueModel(db, embedder, {
      onProgress: throttledProgress(log, 15_000),
    });
    training = { ...record, trainedInThisRun: true };
    log(`  model ${record.id}: MAPE ${f3(record.heldOutMape)}, ${(record.trainMs / 1000).toFixed(0)} s`);
  } else {
    const stored = await latestValueModel(db, await lakeFingerprint(db), FEATURE_VERSION);
    if (!stored) throw new Error('--skip-train: no value model stored for this lake state (run npm run bench or graft value train)');
    const { onnx: _bytes, ...record } = stored;
    training = { ...record, trainedInThisRun: false };
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

  const results: ValueBenchResults = {
    protocol: 'graft-bench-value-v1',
    command: `npm run bench:value${args.length ? ` -- ${args.join(' ')}` : ''}`,
    commit: gitCommit(),
    machine: machineInfo(),
    startedAt: new Date(started).toISOString(),
    elapsedMs: Date.now() - started,
    training,
    comparison: { questions: compare.questions, multiTableQuestions: compare.multiTableQuestions, budgets: compare.budgets, methods: compare.methods, summary: compare.summary, methodStats: compare.methodStats },
    ablation: { questions: ablationQuestions, trajectories: ablationTrajectories, steps: ablationSteps, rows: ablation },
  };
  mkdirSync('docs/bench', { recursive: true });
  writeFileSync('docs/bench/value.json', `${JSON.stringify(results, null, 2)}\n`);
  replaceMarkedSection(path.resolve('docs/BENCHMARKS.md'), 'value', valueMarkdown(results));
  log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s; docs/bench/value.json, docs/BENCHMARKS.md (bench:value)`);
} finally {
  await db.close();
  await closeDuckDB();
}
