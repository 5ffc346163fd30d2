import type { ValueModelRecord } from '../catalog/index.js';
import type { MachineInfo } from './machine.js';
import { markdownTable } from './markdown.js';
import type { BenchSummary } from './run.js';
import type { SamplerKind } from '../value/trajectories/index.js';

/** The learned-value benchmark (`npm run bench:value`): its JSON (docs/bench/value.json) and markdown section. */
export interface AblationRow {
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

export interface ValueBenchResults {
  protocol: 'graft-bench-value-v1';
  command: string;
  commit: string;
  machine: MachineInfo;
  startedAt: string;
  elapsedMs: number;
  training: (ValueModelRecord & { trainedInThisRun: boolean }) | null;
  comparison: {
    questions: number;
    multiTableQuestions: number;
    budgets: number[];
    methods: string[];
    summary: BenchSummary[];
    methodStats: Record<string, Record<string, number>>;
  };
  ablation: { questions: number; trajectories: number; steps: number; rows: AblationRow[] };
}

const f3 = (x: number) => x.toFixed(3);
/** NaN marks "not applicable" in a row (the heuristic has no MAPE); JSON stores it as null. */
const absent = (x: number | null | undefined) => x === null || x === undefined || Number.isNaN(x);

export function valueMarkdown(r: ValueBenchResults): string {
  const compare = r.comparison;
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
  const trainedWhere = t?.trainedInThisRun ? 'trained in this run' : `model ${t?.id}, trained ${t?.createdAt ? new Date(t.createdAt).toISOString() : '?'} by an earlier run and reused here`;
  const parts = [
    `## Learned value network: \`graft\` (heuristic Q) vs \`graft-learned\` (IQL, ONNX), spider lake, intent \`offline\``,
    '',
    t
      ? `Training (\`graft value train\` defaults, ${trainedWhere}): ${t.trajectories} sampled table sets, ${t.transitions} transitions, held-out value MAPE ${f3(t.heldOutMape)}, ${(t.trainMs / 60000).toFixed(1)} min in all (trajectories ${((Number(t.metadata.generationMs) || 0) / 60000).toFixed(1)} min, IQL ${((Number(t.metadata.iqlMs) || 0) / 60000).toFixed(1)} min; target <= 20 min).`
      : 'Training: no model.',
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
        [...r.ablation.rows.filter((x) => x.kind === 'sampler'), ...r.ablation.rows.filter((x) => x.kind === 'gamma').sort((a, b) => a.gamma - b.gamma)].map((x) => [x.kind, x.sampler, absent(x.gamma) ? '—' : x.gamma, absent(x.mape) ? '—' : f3(x.mape), f3(x.multiF1), f3(x.multiSuf), f3(x.allF1), x.p50.toFixed(0), x.trainMs ? (x.trainMs / 1000).toFixed(0) : '—']),
      ),
      '',
      'Row `heuristic` is `graft` with its heuristic value function on the same questions.',
    );
  }
  parts.push('', `Machine: ${r.machine.cpu}, ${r.machine.cores} cores, ${r.machine.memoryGiB} GiB, ${r.machine.os}, node ${r.machine.node}; CPU execution provider (no GPU lent). Commit \`${r.commit}\`, run ${r.startedAt}.`, '', `Command: \`${r.command}\` (raw figures: docs/bench/value.json).`);
  return parts.join('\n');
}
