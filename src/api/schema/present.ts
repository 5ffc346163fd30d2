import type { IntentResult, ScoreExplanation, SynthesisResult } from '../../engine/types.js';
import { type Grounding as RawGrounding, type IntentGraph as RawGraph, parseIntentGraph } from '../../intent/index.js';
import { BadInputError } from '../../util/errors.js';
import type { ColumnRow, TableRow } from '../catalog/reader.js';
import type { RequestContext } from '../context.js';
import type { StoredSynthesis } from '../syntheses.js';
import type { Grounding, IntentGraph, IntentGraphInput } from './types/intent.js';
import type { TableRole } from './types/synthesis.js';

/**
 * Turns engine results into GraphQL objects for one caller: names of grounded tables and
 * columns are looked up through the request's (grant-filtered, batched) loaders, and anything
 * the caller may not see is dropped. The engine is given the caller's allowTable already; this
 * is the second fence, so an engine bug cannot leak an ungranted table.
 */

type Visible = { tables: Map<string, TableRow>; columns: Map<string, ColumnRow> };

function graphGroundings(g: RawGraph): RawGrounding[] {
  const out: RawGrounding[] = [];
  for (const tree of g.trees) {
    out.push(...(tree.entity.grounding ?? []));
    for (const a of tree.attributes) {
      out.push(...(a.grounding ?? []));
      out.push(...(a.value?.grounding ?? []));
    }
  }
  return out;
}

/** Loads (batched: one query per kind) every table and column the ids name that the caller may see. */
export async function loadVisible(ctx: RequestContext, tableIds: Iterable<string>, columnIds: Iterable<string> = []): Promise<Visible> {
  const tIds = [...new Set(tableIds)];
  const cIds = [...new Set(columnIds)];
  const [ts, cs] = await Promise.all([ctx.loaders.tableById.loadMany(tIds), ctx.loaders.columnById.loadMany(cIds)]);
  const tables = new Map<string, TableRow>();
  const columns = new Map<string, ColumnRow>();
  ts.forEach((t) => {
    if (t && !(t instanceof Error)) tables.set(t.id, t);
  });
  cs.forEach((c) => {
    if (c && !(c instanceof Error)) columns.set(c.id, c);
  });
  return { tables, columns };
}

function keepGrounding(g: RawGrounding, v: Visible): boolean {
  if (!v.tables.has(g.tableId)) return false;
  if (g.columnId === undefined) return true;
  const c = v.columns.get(g.columnId);
  return c !== undefined && c.tableId === g.tableId;
}

/** The graph with every grounding the caller may not see removed. */
export function filterGraph(g: RawGraph, v: Visible): RawGraph {
  const keep = (list?: RawGrounding[]) => (list ? list.filter((x) => keepGrounding(x, v)) : undefined);
  const strip = <T extends { grounding?: RawGrounding[] }>(node: T): T => {
    const grounding = keep(node.grounding);
    const { grounding: _g, ...rest } = node;
    return (grounding === undefined ? rest : { ...rest, grounding }) as T;
  };
  return {
    version: g.version,
    trees: g.trees.map((t) => ({
      entity: strip(t.entity),
      attributes: t.attributes.map((a) => {
        const attr = strip(a);
        return a.value ? { ...attr, value: strip(a.value) } : attr;
      }),
    })),
    edges: g.edges.map((e) => ({ ...e })),
  };
}

function presentGroundings(list: RawGrounding[] | undefined, v: Visible): Grounding[] {
  return (list ?? [])
    .filter((g) => keepGrounding(g, v))
    .map((g) => ({
      tableId: g.tableId,
      tableName: v.tables.get(g.tableId)!.name,
      columnId: g.columnId ?? null,
      columnName: g.columnId ? (v.columns.get(g.columnId)?.name ?? null) : null,
      kind: g.kind,
      score: g.score,
    }));
}

export async function presentIntent(ctx: RequestContext, r: IntentResult, visible?: Visible): Promise<IntentGraph> {
  const all = graphGroundings(r.graph);
  const v =
    visible ??
    (await loadVisible(
      ctx,
      all.map((g) => g.tableId),
      all.flatMap((g) => (g.columnId ? [g.columnId] : [])),
    ));
  const graph = filterGraph(r.graph, v);
  return {
    version: graph.version,
    trees: graph.trees.map((t) => ({
      entity: { id: t.entity.id, label: t.entity.label, bridge: t.entity.bridge ?? false, groundings: presentGroundings(t.entity.grounding, v) },
      attributes: t.attributes.map((a) => ({
        id: a.id,
        label: a.label,
        groundings: presentGroundings(a.grounding, v),
        value: a.value
          ? { id: a.value.id, operator: a.value.operator, literal: a.value.literal, groundings: presentGroundings(a.value.grounding, v) }
          : null,
      })),
    })),
    edges: graph.edges.map((e) => ({ id: e.id, from: e.from, to: e.to, label: e.label ?? null })),
    source: r.source,
    warnings: r.warnings,
    elapsedMs: r.elapsedMs,
    json: graph,
  };
}

/** Drops null/undefined members (GraphQL gives null for omitted optional input fields). */
function compact(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(compact);
  if (v && typeof v === 'object' && !(v instanceof Date)) {
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>)
        .filter(([, x]) => x !== null && x !== undefined)
        .map(([k, x]) => [k, compact(x)]),
    );
  }
  return v;
}

/**
 * An IntentGraphInput as a validated intent graph (BAD_USER_INPUT naming the field on error).
 * A grounding naming a table or column the caller cannot see is refused like an unknown one.
 */
export async function intentFromInput(ctx: RequestContext, input: IntentGraphInput): Promise<RawGraph> {
  const raw = compact({
    version: input.version ?? 1,
    trees: input.trees.map((t) => ({ entity: t.entity, attributes: t.attributes ?? [] })),
    edges: input.edges ?? [],
  });
  const graph = parseIntentGraph(raw);
  const groundings: { g: RawGrounding; where: string }[] = [];
  graph.trees.forEach((t, i) => {
    (t.entity.grounding ?? []).forEach((g, k) => groundings.push({ g, where: `trees[${i}].entity.grounding[${k}]` }));
    t.attributes.forEach((a, j) => {
      (a.grounding ?? []).forEach((g, k) => groundings.push({ g, where: `trees[${i}].attributes[${j}].grounding[${k}]` }));
      (a.value?.grounding ?? []).forEach((g, k) => groundings.push({ g, where: `trees[${i}].attributes[${j}].value.grounding[${k}]` }));
    });
  });
  if (groundings.length > 0) {
    const v = await loadVisible(
      ctx,
      groundings.map((x) => x.g.tableId),
      groundings.flatMap((x) => (x.g.columnId ? [x.g.columnId] : [])),
    );
    for (const { g, where } of groundings) {
      if (!v.tables.has(g.tableId)) throw new BadInputError(`intent.${where}.tableId: unknown table`, { field: `intent.${where}.tableId` });
      if (g.columnId !== undefined && !keepGrounding(g, v)) {
        throw new BadInputError(`intent.${where}.columnId: unknown column of that table`, { field: `intent.${where}.columnId` });
      }
    }
  }
  return graph;
}

/** A preview cell as GraphQL text (null stays null). */
export function cell(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (v instanceof Date) return v.toISOString();
  return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x));
}

/**
 * A synthesis for the caller, or null when one of its tables exists but is not granted to
 * them. Tables deleted since it was stored stay listed with `table: null`.
 */
export async function presentSynthesis(ctx: RequestContext, s: StoredSynthesis) {
  const r: SynthesisResult = s.result;
  const all = graphGroundings(r.intent.graph);
  const v = await loadVisible(
    ctx,
    [...r.tables.map((t) => t.id), ...all.map((g) => g.tableId)],
    all.flatMap((g) => (g.columnId ? [g.columnId] : [])),
  );
  const missing = r.tables.map((t) => t.id).filter((id) => !v.tables.has(id));
  const warnings = [...(r.warnings ?? [])];
  if (missing.length > 0) {
    const existing = await ctx.services.db.prisma.lakeTable.count({ where: { id: { in: missing } } });
    if (existing > 0) return null;
    warnings.push(`${missing.length} table(s) of this synthesis are no longer in the catalog`);
  }
  const preview = r.preview
    ? {
        columns: r.preview.columns,
        rows: r.preview.rows.map((row) => r.preview!.columns.map((c) => cell(row[c]))),
        engine: r.preview.engine ?? null,
      }
    : null;
  return {
    id: s.id,
    question: s.question,
    intent: await presentIntent(ctx, r.intent, v),
    tables: r.tables.map((t) => ({
      id: t.id,
      name: t.name,
      uri: t.uri,
      role: t.role as TableRole,
      atoms: t.atoms,
      gain: t.gain,
      confidence: t.confidence ?? null,
      table: v.tables.get(t.id) ?? null,
    })),
    joinSteps: r.plan?.joinSteps ?? [],
    unionGroups: r.plan?.unionGroups ?? [],
    sql: r.plan?.sql ?? null,
    executable: r.plan?.executable ?? false,
    score: r.score,
    unsupportedAtoms: r.unsupportedAtoms ?? [],
    // Syntheses stored before the learned value function existed were all heuristic.
    valueFunction: r.valueFunction ?? 'heuristic',
    preview,
    elapsedMs: r.elapsedMs,
    warnings: [...warnings, ...(r.plan?.warnings ?? [])],
    createdAt: s.createdAt.toISOString(),
    tableCount: r.tables.length,
  };
}

/** Checks every table of a fresh engine result is visible to the caller (else the engine broke the fence). */
export async function assertResultVisible(ctx: RequestContext, r: SynthesisResult): Promise<void> {
  const v = await loadVisible(ctx, r.tables.map((t) => t.id));
  const leaked = r.tables.filter((t) => !v.tables.has(t.id));
  if (leaked.length > 0) {
    ctx.log.error({ reqId: ctx.requestId, leaked: leaked.map((t) => t.id) }, 'engine returned tables outside the caller grants');
    throw new Error('the engine returned tables outside the caller grants');
  }
}

export async function presentExplanation(ctx: RequestContext, e: ScoreExplanation) {
  const ids = new Set<string>([...e.tableIds, ...e.tables.map((t) => t.tableId), ...e.atoms.flatMap((a) => a.supportedBy)]);
  for (const r of e.redundancy) ids.add(r.tableA).add(r.tableB);
  const v = await loadVisible(ctx, ids);
  const ok = (id: string) => v.tables.has(id);
  return {
    tableIds: e.tableIds.filter(ok),
    score: e.score,
    atoms: e.atoms.map((a) => ({ ...a, supportedBy: a.supportedBy.filter(ok) })),
    tables: e.tables.filter((t) => ok(t.tableId)),
    redundancy: e.redundancy.filter((r) => ok(r.tableA) && ok(r.tableB)),
    determinant: e.determinant,
    unsupportedAtoms: e.unsupportedAtoms,
    warnings: e.warnings,
  };
}
