import { planFusion, type FusionInput, type FusionPlan, type ValueFilter } from '../../fusion/index.js';
import type { IntentAtom } from '../../intent/index.js';
import { checkpoint, type LakeSnapshot, type SynthesisModel } from '../../search/index.js';
import type { FusionPlanSummary } from '../fusionSummary.js';
import type { IntentResult, SynthesisResult } from '../types.js';
import type { SearchOutcome } from './search.js';

export interface FuseInput {
  question: string;
  intent: IntentResult;
  snapshot: LakeSnapshot;
  model: SynthesisModel;
  atoms: IntentAtom[];
  outcome: SearchOutcome;
  /** The value function's name as the result reports it. */
  valueFunctionName: string;
  signal?: AbortSignal;
}

export interface FusedSynthesis {
  result: SynthesisResult;
  plan: FusionPlan;
}

/** Stage 4: the fusion plan of the chosen core tables, and the result around it (no preview yet). */
export async function fuseStage(input: FuseInput): Promise<FusedSynthesis> {
  await checkpoint(input.signal);
  const { snapshot, outcome, atoms, model, intent } = input;
  const warnings = [...intent.warnings];
  if (snapshot.tables.length === 0) warnings.push('the catalog holds no tables you may read: ingest a lake first');
  else if (outcome.tables.length === 0) {
    warnings.push(
      outcome.stoppedBy === 'no-match'
        ? 'nothing in the catalog supports the question: no table matches any of its specific words'
        : 'no table in the catalog matches the question',
    );
  }
  // The fused plan and the unsupported atoms are about the core synthesis; alternates ride along.
  const chosenIds = outcome.tables.filter((t) => t.role !== 'alternate').map((t) => t.id);
  const plan = planFusion(buildFusionInput(snapshot, chosenIds, atoms));
  const result: SynthesisResult = {
    question: input.question,
    intent,
    tables: outcome.tables.map((t) => {
      const table = snapshot.tableById.get(t.id)!;
      return { id: t.id, name: table.name, uri: table.uri, role: t.role, atoms: t.atoms.map((j) => atoms[j].id), gain: t.gain, ...(t.confidence !== undefined ? { confidence: t.confidence } : {}) };
    }),
    plan: summarisePlan(plan, snapshot),
    score: outcome.utility,
    unsupportedAtoms: unsupported(model, chosenIds, atoms),
    valueFunction: input.valueFunctionName,
    elapsedMs: 0,
    warnings: [...warnings, ...plan.warnings],
    search: { regionTableIds: outcome.region, stoppedBy: outcome.stoppedBy, alternateOffers: outcome.offers, alternateFloor: outcome.alternateFloor },
  };
  return { result, plan };
}

function unsupported(model: SynthesisModel, tables: string[], atoms: IntentAtom[]): string[] {
  const covered = model.coverage(tables);
  const realised = new Set(model.realisations(tables).map((r) => r.atomIndex));
  return atoms
    .map((a, j) => ({ a, j }))
    .filter(({ a, j }) => (a.kind === 'relation' ? !realised.has(j) : covered[j] < model.options.witnessThreshold))
    .map(({ a }) => a.id);
}

/** The fusion layer's input for a chosen set: its tables, the edges among them, value filters. */
export function buildFusionInput(snapshot: LakeSnapshot, tableIds: string[], atoms: IntentAtom[]): FusionInput {
  const chosen = new Set(tableIds);
  const tables = tableIds.map((id) => {
    const t = snapshot.tableById.get(id)!;
    const columns = t.columns.map((c) => ({ id: c.id, name: c.name, logicalType: c.logicalType }));
    return {
      id: t.id,
      name: t.name,
      uri: t.uri,
      format: t.format,
      columns,
      ...(t.sourceRootPath ? { root: t.sourceRootPath } : {}),
      ...(t.csv ? { csv: t.csv } : {}),
      ...(t.folder !== undefined ? { folder: t.folder } : {}),
    };
  });
  const filters: ValueFilter[] = [];
  const byId = new Map(atoms.map((a) => [a.id, a]));
  const numericLiteral = (l: unknown): boolean => (Array.isArray(l) ? l.every((x) => typeof x === 'number') : typeof l === 'number');
  for (const a of atoms) {
    if (a.kind !== 'value' || a.operator === undefined || a.literal === undefined) continue;
    // The value's own grounding (a value-index hit) first; else the column its attribute names,
    // when the literal fits that column's type (a year on an integer column, not on a name).
    const fits = (columnId: string) => {
      const c = snapshot.columnById.get(columnId);
      if (!c) return false;
      const numericColumn = c.logicalType === 'integer' || c.logicalType === 'float';
      return numericLiteral(a.literal) ? numericColumn : !numericColumn;
    };
    const parent = byId.get(a.parentIds[0]);
    const candidates = [...a.grounding, ...(parent?.grounding ?? []).filter((g) => g.columnId && fits(g.columnId))];
    const g = candidates.filter((x) => x.columnId && chosen.has(x.tableId)).sort((x, y) => y.score - x.score)[0];
    if (g?.columnId) filters.push({ columnId: g.columnId, operator: a.operator, literal: a.literal });
  }
  return {
    tables,
    joins: snapshot.joins.filter((j) => chosen.has(j.fromTableId) && chosen.has(j.toTableId)),
    unions: snapshot.unions.filter((u) => chosen.has(u.tableAId) && chosen.has(u.tableBId)),
    filters,
  };
}

/** The plan as the engine returns it (table names instead of ids); `src/enrich` reports its plans the same way. */
export function summarisePlan(plan: FusionPlan, snapshot: LakeSnapshot): FusionPlanSummary {
  const tableName = (id: string) => snapshot.tableById.get(id)?.name ?? id;
  return {
    joinSteps: plan.joinSteps.map((s) => ({
      left: { table: tableName(s.leftColumn.tableId), column: s.leftColumn.name },
      right: { table: tableName(s.rightColumn.tableId), column: s.rightColumn.name },
      score: s.score,
      containment: s.containment,
    })),
    unionGroups: plan.unionGroups.filter((g) => g.tableIds.length > 1).map((g) => ({ tables: g.tableIds.map(tableName), columns: g.columnMapping.map((c) => c.name) })),
    sql: plan.sql,
    executable: plan.executable,
    warnings: plan.warnings,
  };
}
