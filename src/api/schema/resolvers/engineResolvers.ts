import 'reflect-metadata';
import { Arg, Ctx, Float, ID, Int, Query, Resolver } from 'type-graphql';
import type { IntentGraph as RawGraph } from '../../../intent/index.js';
import { BadInputError, NotFoundError } from '../../../util/errors.js';
import type { RequestContext } from '../../context.js';
import { emitSynthesisLineage } from '../../lineage.js';
import { EngineTimeoutError } from '../../errors.js';
import { assertResultVisible, intentFromInput, loadVisible, presentExplanation, presentIntent, presentSynthesis } from '../present.js';
import { ScoreExplanation } from '../types/explain.js';
import { IntentExtractor, IntentGraph, IntentGraphInput } from '../types/intent.js';
import { Synthesis } from '../types/synthesis.js';

/**
 * Runs an engine call under the configured time limit. On timeout the engine's signal is
 * aborted (so it can stop working) and the request fails with code TIMEOUT.
 */
export async function withEngineTimeout<T>(ctx: RequestContext, operation: string, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ms = ctx.services.config.engineTimeoutMs;
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort(new EngineTimeoutError(operation, ms));
      reject(new EngineTimeoutError(operation, ms));
    }, ms);
  });
  try {
    return await Promise.race([fn(controller.signal), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function checkQuestion(ctx: RequestContext, question: string, field = 'question'): string {
  const q = question.trim();
  if (!q) throw new BadInputError(`${field} must not be empty`, { field });
  const max = ctx.services.config.limits.maxQuestionLength;
  if (q.length > max) throw new BadInputError(`${field} is longer than ${max} characters`, { field });
  return q;
}

function checkRange(name: string, value: number | null | undefined, min: number, max: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new BadInputError(`${name} must be an integer between ${min} and ${max}`, { field: name });
  }
  return value;
}

function checkShare(name: string, value: number | null | undefined): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (!(value >= 0 && value <= 1)) throw new BadInputError(`${name} must be a number between 0 and 1`, { field: name });
  return value;
}

async function loadGrantedSynthesis(ctx: RequestContext, id: string) {
  const stored = await ctx.services.syntheses.load(id);
  if (!stored) return null;
  const presented = await presentSynthesis(ctx, stored);
  return presented ? { stored, presented } : null;
}

@Resolver()
export class EngineResolver {
  @Query(() => IntentGraph, { description: "The question's intent graph, grounded in the (granted part of the) catalog." })
  async intentGraph(
    @Arg('question', () => String) question: string,
    @Arg('extractor', () => IntentExtractor, { nullable: true, defaultValue: IntentExtractor.OFFLINE }) extractor: IntentExtractor | null,
    @Ctx() ctx: RequestContext,
  ): Promise<IntentGraph> {
    const q = checkQuestion(ctx, question);
    const allowTable = ctx.scope.tableFilter();
    const result = await withEngineTimeout(ctx, 'intentGraph', (signal) =>
      ctx.services.engine.intentGraph(q, { extractor: extractor ?? IntentExtractor.OFFLINE, allowTable, signal }),
    );
    return presentIntent(ctx, result);
  }

  @Query(() => Synthesis, { description: 'Finds a connected set of tables answering the question and the SQL fusing them; stored under the returned id.' })
  async synthesize(
    @Arg('question', () => String) question: string,
    @Arg('budget', () => Int, { nullable: true, defaultValue: 10, description: 'Most tables in the answer (1..30).' }) budget: number | null,
    @Arg('beamWidth', () => Int, { nullable: true, description: 'Search beam width (1..32).' }) beamWidth: number | null,
    @Arg('minAlternateConfidence', () => Float, {
      nullable: true,
      description: 'Keep an alternate only when the confidence that the question needs it is at least this (0..1; 0 fills the budget). Default: the engine\'s.',
    })
    minAlternateConfidence: number | null,
    @Arg('intent', () => IntentGraphInput, { nullable: true, description: 'Use this intent graph instead of extracting one.' }) intent: IntentGraphInput | null,
    @Arg('preview', () => Int, { nullable: true, description: 'Run the SQL and return its first N rows (0..100).' }) preview: number | null,
    @Ctx() ctx: RequestContext,
  ) {
    const q = checkQuestion(ctx, question);
    const { limits } = ctx.services.config;
    const opts = {
      budget: checkRange('budget', budget ?? 10, 1, limits.maxBudget),
      beamWidth: checkRange('beamWidth', beamWidth, 1, limits.maxBeamWidth),
      minAlternateConfidence: checkShare('minAlternateConfidence', minAlternateConfidence),
      preview: checkRange('preview', preview, 0, limits.maxPreview),
      intent: intent ? await intentFromInput(ctx, intent) : undefined,
      allowTable: ctx.scope.tableFilter(),
    };
    const startedAt = new Date();
    const result = await withEngineTimeout(ctx, 'synthesize', (signal) => ctx.services.engine.synthesize(q, { ...opts, signal }));
    await assertResultVisible(ctx, result);
    const stored = await ctx.services.syntheses.save(q, result, ctx.principal.kind === 'token' ? ctx.principal.tokenId : null);
    await emitSynthesisLineage(ctx.services.lineage, ctx.services.db, stored.result, startedAt, (root, name) => ctx.scope.allows(root, name));
    const presented = await presentSynthesis(ctx, stored);
    if (!presented) throw new Error('a fresh synthesis refers to tables outside the caller grants');
    return presented;
  }

  @Query(() => Synthesis, { nullable: true, description: 'A stored synthesis; null when unknown or when any of its tables is not granted to the caller.' })
  async synthesis(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestContext) {
    return (await loadGrantedSynthesis(ctx, id))?.presented ?? null;
  }

  @Query(() => ScoreExplanation, {
    description:
      'Explains the score of a set of tables for a question: of a stored synthesis (synthesisId), or of the given tables for the given question. ' +
      'Table ids that are unknown or not granted give NOT_FOUND (the two are not told apart).',
  })
  async explainScore(
    @Arg('synthesisId', () => ID, { nullable: true }) synthesisId: string | null,
    @Arg('question', () => String, { nullable: true }) question: string | null,
    @Arg('tables', () => [ID], { nullable: true }) tables: string[] | null,
    @Ctx() ctx: RequestContext,
  ) {
    let q: string | undefined = question ? checkQuestion(ctx, question) : undefined;
    let intent: RawGraph | undefined;
    let tableIds = tables ?? undefined;
    if (synthesisId) {
      const found = await loadGrantedSynthesis(ctx, synthesisId);
      if (!found) throw new NotFoundError('no synthesis with that id is visible to this caller', { field: 'synthesisId' });
      if (!q) {
        q = found.stored.question;
        intent = found.presented.intent.json as RawGraph;
      }
      tableIds ??= found.stored.result.tables.map((t) => t.id);
    }
    if (!q) throw new BadInputError('explainScore needs a synthesisId or a question', { field: 'question' });
    if (!tableIds || tableIds.length === 0) throw new BadInputError('explainScore needs a synthesisId or a non-empty list of tables', { field: 'tables' });
    if (tableIds.length > ctx.services.config.limits.maxBudget * 2) {
      throw new BadInputError(`tables: at most ${ctx.services.config.limits.maxBudget * 2} ids`, { field: 'tables' });
    }
    const unique = [...new Set(tableIds)];
    const v = await loadVisible(ctx, unique);
    const hidden = unique.filter((id) => !v.tables.has(id)).length;
    if (hidden > 0) throw new NotFoundError(`${hidden} of the given table ids are unknown or not granted`, { field: 'tables' });
    const allowTable = ctx.scope.tableFilter();
    const explanation = await withEngineTimeout(ctx, 'explainScore', (signal) =>
      ctx.services.engine.explain({ question: q, intent, tableIds: unique, allowTable, signal }),
    );
    return presentExplanation(ctx, explanation);
  }
}
