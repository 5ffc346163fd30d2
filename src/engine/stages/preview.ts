import { previewFusion, type FusionPlan } from '../../fusion/index.js';
import { checkpoint } from '../../search/index.js';
import type { SynthesisResult } from '../types.js';

export interface PreviewInput {
  result: SynthesisResult;
  plan: FusionPlan;
  /** Rows to preview; 0 or absent: none. */
  rows?: number;
  signal?: AbortSignal;
}

/** Stage 5: the first rows of an executable plan through DuckDB, added to the result. */
export async function previewStage(input: PreviewInput): Promise<SynthesisResult> {
  const { result, plan, rows } = input;
  if (!rows || rows <= 0 || !plan.executable || !plan.sql) return result;
  await checkpoint(input.signal);
  const p = await previewFusion(plan, rows);
  result.preview = {
    columns: p.columns,
    rows: p.rows,
    engine: p.engine,
    readBy: Object.fromEntries(p.sources.map((s) => [s.name, s.readBy])),
  };
  result.warnings.push(...p.warnings);
  return result;
}
