import 'reflect-metadata';
import { Arg, Ctx, ID, Int, Query, Resolver } from 'type-graphql';
import type { EnrichResult, EnrichTable } from '../../../enrich/index.js';
import { BadInputError } from '../../../util/errors.js';
import type { RequestContext } from '../../context.js';
import { cell, loadVisible, presentExplanation, presentIntent } from '../present.js';
import { Enrichment, type EnrichmentRole } from '../types/enrichment.js';
import { withEngineTimeout } from './engineResolvers.js';

function checkRange(name: string, value: number | null | undefined, min: number, max: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (!Number.isInteger(value) || value < min || value > max) throw new BadInputError(`${name} must be an integer between ${min} and ${max}`, { field: name });
  return value;
}

@Resolver()
export class EnrichResolver {
  @Query(() => Enrichment, {
    description:
      'Training-data enrichment: the tables that add rows (unions) or attributes (key joins) to a base table for predicting its target, and the SQL of the enriched table. ' +
      'A column reproducing the target for the same rows is left out unless named in features. An unknown or ungranted base table gives NOT_FOUND.',
  })
  async enrich(
    @Arg('baseTable', () => ID) baseTable: string,
    @Arg('target', () => String) target: string,
    @Arg('budget', () => Int, { nullable: true, defaultValue: 10, description: 'Most tables added (0..30).' }) budget: number | null,
    @Arg('features', () => [String], { nullable: true, description: 'Feature columns to keep (base or added, by name); default all.' }) features: string[] | null,
    @Arg('preview', () => Int, { nullable: true, description: 'Run the SQL and return its first N rows (0..100).' }) preview: number | null,
    @Ctx() ctx: RequestContext,
  ) {
    const { engine, config } = ctx.services;
    if (!engine.enrich) throw new Error('this engine does not implement enrich');
    if (!target.trim()) throw new BadInputError('target must not be empty', { field: 'target' });
    if (features && features.length > 200) throw new BadInputError('features: at most 200 names', { field: 'features' });
    // The base must be granted: an ungranted one reads as unknown (NOT_FOUND from the engine's restricted view).
    const opts = {
      target,
      budget: checkRange('budget', budget ?? 10, 0, config.limits.maxBudget),
      preview: checkRange('preview', preview, 0, config.limits.maxPreview),
      ...(features ? { features } : {}),
      allowTable: ctx.scope.tableFilter(),
    };
    const result = await withEngineTimeout(ctx, 'enrich', (signal) => engine.enrich!(baseTable, { ...opts, signal }));
    return presentEnrichment(ctx, result);
  }

  @Query(() => Enrichment, {
    description:
      'Training-data enrichment asked for in words: "find tables that help predict price in the houses table" (the table by name; without one, the one table holding the target column). ' +
      'A question that is not such a request is BAD_USER_INPUT (ask synthesize instead).',
  })
  async enrichRequest(
    @Arg('question', () => String) question: string,
    @Arg('budget', () => Int, { nullable: true, defaultValue: 10, description: 'Most tables added (0..30).' }) budget: number | null,
    @Arg('features', () => [String], { nullable: true }) features: string[] | null,
    @Arg('preview', () => Int, { nullable: true, description: 'Run the SQL and return its first N rows (0..100).' }) preview: number | null,
    @Ctx() ctx: RequestContext,
  ) {
    const { engine, config } = ctx.services;
    if (!engine.enrichRequest) throw new Error('this engine does not implement enrich');
    const q = question.trim();
    if (!q) throw new BadInputError('question must not be empty', { field: 'question' });
    if (q.length > config.limits.maxQuestionLength) throw new BadInputError(`question is longer than ${config.limits.maxQuestionLength} characters`, { field: 'question' });
    const opts = {
      budget: checkRange('budget', budget ?? 10, 0, config.limits.maxBudget),
      preview: checkRange('preview', preview, 0, config.limits.maxPreview),
      ...(features ? { features } : {}),
      allowTable: ctx.scope.tableFilter(),
    };
    const result = await withEngineTimeout(ctx, 'enrich', (signal) => engine.enrichRequest!(q, { ...opts, signal }));
    if (!result) throw new BadInputError('the question does not ask for tables that help predict a column ("find tables that help predict <column> in <table>"): ask synthesize', { field: 'question' });
    return presentEnrichment(ctx, result);
  }
}

async function presentEnrichment(ctx: RequestContext, r: EnrichResult) {
  const v = await loadVisible(ctx, r.tables.map((t) => t.id));
  // Second fence: the engine was given the caller's grants; a table outside them is an engine bug.
  if (r.tables.some((t) => !v.tables.has(t.id))) throw new Error('the engine returned tables outside the caller grants');
  const table = (t: EnrichTable) => ({
    id: t.id,
    name: t.name,
    uri: t.uri,
    role: t.role as EnrichmentRole,
    gain: t.gain,
    newColumns: t.newColumns,
    newRows: t.newRows,
    joinBaseColumn: t.join?.baseColumn ?? null,
    joinColumn: t.join?.column ?? null,
    joinCoverage: t.join?.coverage ?? null,
    table: v.tables.get(t.id) ?? null,
  });
  const rejectedVisible = await loadVisible(ctx, r.rejected.map((x) => x.id));
  return {
    baseTable: table(r.tables[0]!),
    target: r.target,
    task: r.task,
    intent: await presentIntent(ctx, { graph: r.intent, source: 'given', warnings: [], elapsedMs: 0 }),
    tables: r.tables.map(table),
    rejected: r.rejected.filter((x) => rejectedVisible.tables.has(x.id)),
    leaks: r.leaks,
    joinSteps: r.plan.joinSteps,
    unionGroups: r.plan.unionGroups,
    sql: r.sql,
    columns: r.columns,
    rowCount: r.rowCount,
    labelledRows: r.labelledRows,
    explanation: await presentExplanation(ctx, r.explanation),
    score: r.score,
    preview: r.preview ? { columns: r.preview.columns, rows: r.preview.rows.map((row) => r.preview!.columns.map((c) => cell(row[c]))) } : null,
    elapsedMs: r.elapsedMs,
    warnings: r.warnings,
    addedCount: r.tables.length - 1,
  };
}
