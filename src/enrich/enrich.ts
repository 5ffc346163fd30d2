import { buildFusionInput, MAX_BUDGET, summarisePlan, type Engine } from '../engine/index.js';
import type { ScoreExplanation } from '../engine/types.js';
import { countFusion, DEFAULT_UNION_THRESHOLD, planFusion, previewFusion, type FusionPlan } from '../fusion/index.js';
import { explainIgms, igmsPieceUtility, pieceObjective, type PieceUnit } from '../igms/index.js';
import type { IntentAtom, IntentGraph } from '../intent/index.js';
import { sqlIdent } from '../lake/index.js';
import type { LakeSnapshot, SnapshotColumn, SnapshotTable, SynthesisModel } from '../search/index.js';
import { BadInputError, NotFoundError } from '../util/errors.js';
import { findLeaks } from './leakage.js';
import type { EnrichJoin, EnrichOptions, EnrichRejection, EnrichResult, EnrichTable, EnrichTask, TargetLeak } from './types.js';

/** A column at least this unique is a key: joining on it cannot fan out (the catalog's key-likeness). */
export const KEY_UNIQUENESS = 0.95;
/** A join whose score x coverage of the base's keys is below this is not evidence of the same rows. */
export const MIN_JOIN_QUALITY = 0.3;
/** Default stop: the best candidate adds less than this many nats of log det (a copy adds ~0.02 per atom, a new attribute ~0.2). */
export const DEFAULT_MIN_GAIN = 0.05;
/** A candidate must add at least this share of the gain it would add to the base alone (a copy of a chosen table adds ~0.2). */
export const NOVELTY = 0.5;

/** Join quality factor of a join through the base's row key whose two column names differ. */
export const ROW_KEY_NAME_PENALTY = 0.3;

const NUMERIC = new Set(['integer', 'float']);

interface Candidate {
  table: SnapshotTable;
  role: 'union' | 'join';
  join?: EnrichJoin;
  /** Lower-cased names of the columns it would add (join tables). */
  newColumns: string[];
  quality: number;
  /** Union tables: base column id -> alignment score of the column of this table that feeds it. */
  aligned?: Map<string, number>;
}

/**
 * Training-data enrichment (GRAFT's second task): from a base table and its prediction target,
 * the lake tables that add instances (unions: row shards holding the target) or attributes
 * (key joins that cannot fan out), chosen by IGMS greedy over an intent built from the base
 * table. The content-piece covariance is what keeps a row shard (new pieces) and drops a copy
 * (the same pieces) — see README.md.
 */
export async function enrichTable(engine: Engine, baseTableId: string, opts: EnrichOptions): Promise<EnrichResult> {
  const started = performance.now();
  const budget = opts.budget ?? 10;
  if (!Number.isInteger(budget) || budget < 0 || budget > MAX_BUDGET) {
    throw new BadInputError(`budget must be an integer in 0..${MAX_BUDGET} (got ${budget})`, { field: 'budget' });
  }
  const minGain = opts.minGain ?? DEFAULT_MIN_GAIN;
  const snapshot = await engine.snapshot(opts.allowTable);
  const base = findBase(snapshot, baseTableId);
  const target = columnByName(base, opts.target);
  if (!target) {
    throw new BadInputError(`target: table ${base.name} has no column "${opts.target}" (columns: ${base.columns.map((c) => c.name).join(', ')})`, { field: 'target' });
  }
  const features = opts.features ? new Set(opts.features.map((f) => f.toLowerCase())) : null;
  if (features?.has(target.name.toLowerCase())) throw new BadInputError(`features: the target ${target.name} cannot be a feature`, { field: 'features' });
  const task = taskOf(target);
  const keys = base.columns.filter((c) => c !== target && isKey(c, base));
  const attributes = base.columns.filter((c) => c !== target && !keys.includes(c) && (!features || features.has(c.name.toLowerCase())));
  const graph = baseIntent(base, target, attributes, keys);
  const { model, atoms } = await engine.modelForIntent(graph, opts.allowTable);
  opts.signal?.throwIfAborted();

  const rejected: EnrichRejection[] = [];
  const reject = (t: SnapshotTable, reason: EnrichRejection['reason'], detail: string) => {
    if (!rejected.some((r) => r.id === t.id)) rejected.push({ id: t.id, name: t.name, reason, detail });
  };
  const unions = unionCandidates(snapshot, model, base, target, reject);
  const joins = joinCandidates(snapshot, base, target, new Set(unions.map((c) => c.table.id)), reject);
  const candidates = [...unions, ...joins];
  // A table can be turned down over one edge and taken over a better one.
  for (let i = rejected.length - 1; i >= 0; i--) if (candidates.some((c) => c.table.id === rejected[i].id)) rejected.splice(i, 1);

  // IGMS atoms: the base intent's atoms, then one attribute atom per column name the join
  // candidates could add. A base-shaped table supports the base atoms as the engine's support
  // model scores them; a join table supports its new columns with its join quality.
  const newAtom = new Map<string, number>();
  for (const c of joins) for (const col of c.newColumns) if (!newAtom.has(col)) newAtom.set(col, atoms.length + newAtom.size);
  const numAtoms = atoms.length + newAtom.size;
  // A row shard witnesses what the base witnesses, through the union's column alignment: the
  // base's support of each atom x the alignment score of the shard column feeding that atom's column.
  const baseSupport = model.row(base.id);
  const atomColumn = atoms.map((a) => a.grounding.find((g) => g.tableId === base.id && g.columnId)?.columnId);
  const unitOf = (t: SnapshotTable, c?: Candidate): PieceUnit => {
    const support = new Float64Array(numAtoms);
    if (!c) support.set(baseSupport.subarray(0, atoms.length));
    else if (c.role === 'union') {
      atoms.forEach((_, j) => {
        const col = atomColumn[j];
        support[j] = baseSupport[j]! * (col === undefined ? c.quality : (c.aligned!.get(col) ?? 0));
      });
    } else for (const col of c.newColumns) support[newAtom.get(col)!] = c.quality;
    return { id: t.id, support, content: model.content(t.id) };
  };
  const baseUnit = unitOf(base);
  const unitById = new Map(candidates.map((c) => [c.table.id, unitOf(c.table, c)]));
  const options = { contentNoise: model.options.contentNoise };

  // Greedy on the largest gain in nats (a x ΔU: independent of how many atoms the lake offers).
  // A candidate must add at least minGain, and at least NOVELTY of what it would add alone: the
  // content-piece covariance discounts a copy of a chosen table to a fraction of its own gain.
  const alone = new Map(candidates.map((c) => [c.table.id, gainOf([baseUnit], unitById.get(c.table.id)!)]));
  function gainOf(units: PieceUnit[], unit: PieceUnit): number {
    return (igmsPieceUtility([...units, unit], numAtoms, options) - igmsPieceUtility(units, numAtoms, options)) * numAtoms;
  }
  const excluded = new Set<string>();
  const droppedLeaks: TargetLeak[] = [];
  let chosen: { c: Candidate; gain: number }[] = [];
  let plan: FusionPlan;
  let projection: Projection;
  let warnings: string[];
  for (;;) {
    chosen = [];
    let units = [baseUnit];
    const open = candidates.filter((c) => !excluded.has(c.table.id));
    while (open.length > 0 && chosen.length < budget) {
      opts.signal?.throwIfAborted();
      let best = -1;
      let bestGain = -Infinity;
      open.forEach((c, i) => {
        const g = gainOf(units, unitById.get(c.table.id)!);
        if (g < minGain || g < NOVELTY * alone.get(c.table.id)!) return;
        if (g > bestGain + 1e-12 || (Math.abs(g - bestGain) <= 1e-12 && snapshot.compare(c.table.id, open[best].table.id) < 0)) {
          bestGain = g;
          best = i;
        }
      });
      if (best < 0) break;
      const [c] = open.splice(best, 1);
      chosen.push({ c, gain: bestGain });
      units = [...units, unitById.get(c.table.id)!];
    }
    // The plan: base (and its union group) as the root, left joins so no base row is lost.
    const fusionInput = { ...buildFusionInput(snapshot, [base.id, ...chosen.map((x) => x.c.table.id)], []), joinKind: 'left' as const };
    plan = planFusion(fusionInput);
    warnings = [...plan.warnings, ...droppedLeaks.map((l) => `${l.table}.${l.column} reproduces the target (${l.evidence}): the table was left out (name the column in features to use it)`)];
    projection = await project(plan, snapshot, base, target, chosen.map((x) => x.c), features, warnings);
    opts.signal?.throwIfAborted();
    // A join table whose every new column leaks the target adds nothing legitimate: drop it and choose again.
    const leaking = chosen.filter((x) => x.c.role === 'join' && (projection.columnsOf.get(x.c.table.id) ?? []).length === 0 && projection.leaks.some((l) => l.table === x.c.table.name && !l.kept));
    if (leaking.length === 0) {
      for (const c of open) {
        const gain = gainOf(units, unitById.get(c.table.id)!);
        const copyOf = chosen.find((x) => model.redundancy(c.table.id, x.c.table.id) >= 0.5);
        if (copyOf) reject(c.table, 'redundant', `same content as ${copyOf.c.table.name}: adds ${gain.toFixed(3)} nats, ${(alone.get(c.table.id)! || 0).toFixed(3)} alone`);
        else if (chosen.length >= budget && gain >= minGain) reject(c.table, 'budget', `adds ${gain.toFixed(3)} nats, but the budget of ${budget} tables is spent`);
        else reject(c.table, 'low-gain', `adds ${gain.toFixed(3)} nats (${(alone.get(c.table.id)! || 0).toFixed(3)} alone)`);
      }
      break;
    }
    for (const x of leaking) {
      excluded.add(x.c.table.id);
      const own = projection.leaks.filter((l) => l.table === x.c.table.name);
      droppedLeaks.push(...own);
      const cols = own.map((l) => l.column);
      reject(x.c.table, 'leaks-target', `${cols.join(', ')} reproduce${cols.length === 1 ? 's' : ''} the target for the same rows (name it in features to use it)`);
    }
  }
  const leakWarnings = warnings.filter((w, i) => warnings.indexOf(w) === i);
  const allLeaks = [...droppedLeaks, ...projection.leaks];

  const tables: EnrichTable[] = [
    { id: base.id, name: base.name, uri: base.uri, role: 'base', gain: 0, newColumns: [], newRows: 0 },
    ...chosen.map(({ c, gain }): EnrichTable => ({
      id: c.table.id,
      name: c.table.name,
      uri: c.table.uri,
      role: c.role,
      gain,
      newColumns: projection.columnsOf.get(c.table.id) ?? [],
      newRows: c.role === 'union' ? c.table.rowCount : 0,
      ...(c.join ? { join: c.join } : {}),
    })),
  ];
  const allUnits = [baseUnit, ...chosen.map((x) => unitById.get(x.c.table.id)!)];
  const explanation = explainChoice(allUnits, numAtoms, options, atoms, [...newAtom.keys()], snapshot);

  const result: EnrichResult = {
    baseTable: { id: base.id, name: base.name, uri: base.uri },
    target: target.name,
    task,
    intent: graph,
    tables,
    rejected,
    leaks: allLeaks,
    plan: { ...summarisePlan(plan, snapshot), sql: plan.sql },
    sql: projection.sql,
    columns: projection.columns,
    rowCount: projection.rowCount,
    labelledRows: projection.labelledRows,
    explanation,
    score: explanation.score,
    elapsedMs: 0,
    warnings: [...leakWarnings],
  };
  if (opts.preview && opts.preview > 0 && projection.sql) {
    const p = await previewFusion({ ...plan, sql: projection.sql }, opts.preview);
    result.preview = { columns: p.columns, rows: p.rows };
  }
  result.elapsedMs = performance.now() - started;
  return result;
}

/** The base by id, else by name (the CLI's `graft enrich houses`); a name several tables share is refused. */
function findBase(snapshot: LakeSnapshot, ref: string): SnapshotTable {
  const byId = snapshot.tableById.get(ref);
  if (byId) return byId;
  const named = snapshot.tables.filter((t) => t.name === ref);
  if (named.length === 0) throw new NotFoundError(`table ${ref} not found`, { field: 'baseTable' });
  if (named.length > 1) throw new BadInputError(`baseTable: ${named.length} tables are named ${ref} (${named.map((t) => t.uri).join(', ')}): pass its id`, { field: 'baseTable' });
  return named[0]!;
}

function columnByName(t: SnapshotTable, name: string): SnapshotColumn | undefined {
  const n = name.trim().toLowerCase();
  return t.columns.find((c) => c.name.toLowerCase() === n);
}

function normalisedName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function isKey(c: SnapshotColumn, t: SnapshotTable): boolean {
  return c.uniqueness >= KEY_UNIQUENESS && t.rowCount > 1;
}

/** A numeric target with more than 20 distinct values is regressed; anything else is classified. */
export function taskOf(target: Pick<SnapshotColumn, 'logicalType' | 'distinctEstimate'>): EnrichTask {
  return NUMERIC.has(target.logicalType) && target.distinctEstimate > 20 ? 'regression' : 'classification';
}

/** The intent of an enrichment: the base table's entity with its target, attributes and keys, grounded in the base. */
export function baseIntent(base: SnapshotTable, target: SnapshotColumn, attributes: SnapshotColumn[], keys: SnapshotColumn[]): IntentGraph {
  const on = (c?: SnapshotColumn) => [{ tableId: base.id, ...(c ? { columnId: c.id } : {}), kind: c ? ('column-name' as const) : ('table-name' as const), score: 1 }];
  return {
    version: 1,
    trees: [
      {
        entity: { id: 'base', label: base.name, grounding: on() },
        attributes: [target, ...attributes, ...keys].map((c, i) => ({ id: i === 0 ? 'target' : `column${i}`, label: c.name, grounding: on(c) })),
      },
    ],
    edges: [],
  };
}

/**
 * Tables that add instances: union edges (score >= the fusion's union threshold) from the base
 * or an accepted union table whose alignment carries the target. Copies (content overlap, or
 * keys held by the other) are rejected here; among the rest IGMS decides.
 */
function unionCandidates(
  snapshot: LakeSnapshot,
  model: SynthesisModel,
  base: SnapshotTable,
  target: SnapshotColumn,
  reject: (t: SnapshotTable, reason: EnrichRejection['reason'], detail: string) => void,
): Candidate[] {
  // Per member: its column feeding each base column, with the product of alignment scores on the way.
  const feeds = new Map<string, Map<string, { column: string; score: number }>>([[base.id, new Map(base.columns.map((c) => [c.id, { column: c.id, score: 1 }]))]]);
  const out: Candidate[] = [];
  const members = [base.id];
  for (let i = 0; i < members.length; i++) {
    const m = members[i]!;
    const mine = feeds.get(m)!;
    for (const edge of snapshot.unions) {
      if (edge.score < DEFAULT_UNION_THRESHOLD || (edge.tableAId !== m && edge.tableBId !== m)) continue;
      const otherId = edge.tableAId === m ? edge.tableBId : edge.tableAId;
      const other = snapshot.tableById.get(otherId);
      if (!other || feeds.has(otherId)) continue;
      const across = new Map(edge.alignment.map((a) => (edge.tableAId === m ? [a.columnAId, { column: a.columnBId, score: a.score }] : [a.columnBId, { column: a.columnAId, score: a.score }])));
      const theirs = new Map<string, { column: string; score: number }>();
      for (const [baseCol, f] of mine) {
        const next = across.get(f.column);
        if (next) theirs.set(baseCol, { column: next.column, score: f.score * Math.min(1, next.score) });
      }
      if (!theirs.has(target.id)) {
        reject(other, 'no-target', `same schema as ${snapshot.tableById.get(m)!.name} but no column aligned with the target`);
        continue;
      }
      if (!model.isShardPair(m, otherId) && model.redundancy(m, otherId) >= 0.5) {
        reject(other, 'redundant', `a copy of ${snapshot.tableById.get(m)!.name} (content overlap ${model.redundancy(m, otherId).toFixed(2)})`);
        continue;
      }
      feeds.set(otherId, theirs);
      members.push(otherId);
      out.push({ table: other, role: 'union', newColumns: [], quality: edge.score, aligned: new Map([...theirs].map(([k, v]) => [k, v.score])) });
    }
  }
  return out;
}

/**
 * Tables that add attributes: a join edge between a base column (not the target) and a key of
 * the other table (nearly all values distinct, so a base row matches at most one row), holding
 * most of the base's key values. Non-key joins would multiply the base's rows (fan-out).
 */
function joinCandidates(
  snapshot: LakeSnapshot,
  base: SnapshotTable,
  target: SnapshotColumn,
  unionIds: Set<string>,
  reject: (t: SnapshotTable, reason: EnrichRejection['reason'], detail: string) => void,
): Candidate[] {
  const baseNames = new Set(base.columns.map((c) => c.name.toLowerCase()));
  const best = new Map<string, Candidate>();
  for (const j of snapshot.joins) {
    const fromBase = j.fromTableId === base.id;
    if (!fromBase && j.toTableId !== base.id) continue;
    const otherId = fromBase ? j.toTableId : j.fromTableId;
    if (otherId === base.id || unionIds.has(otherId)) continue;
    const other = snapshot.tableById.get(otherId);
    const baseCol = snapshot.columnById.get(fromBase ? j.fromColumnId : j.toColumnId);
    const col = snapshot.columnById.get(fromBase ? j.toColumnId : j.fromColumnId);
    if (!other || !baseCol || !col) continue;
    if (baseCol.id === target.id) {
      reject(other, 'weak-join', `joins on the target ${target.name} itself`);
      continue;
    }
    if (col.uniqueness < KEY_UNIQUENESS) {
      reject(other, 'fan-out', `${other.name}.${col.name} is not a key (uniqueness ${col.uniqueness.toFixed(2)}): a base row would match several rows`);
      continue;
    }
    const coverage = fromBase ? j.containmentFromTo : j.containmentToFrom;
    // Through the base's own row key, values alone cannot tell a column shard from any table
    // numbered 1..n: the key's name must agree too (car_id = car_id, not car_id = Id).
    const sameName = normalisedName(baseCol.name) === normalisedName(col.name);
    const quality = Math.min(1, j.score) * coverage * (isKey(baseCol, base) && !sameName ? ROW_KEY_NAME_PENALTY : 1);
    const newColumns = other.columns.filter((c) => c.id !== col.id && !baseNames.has(c.name.toLowerCase())).map((c) => c.name.toLowerCase());
    if (newColumns.length === 0) {
      reject(other, 'nothing-new', 'every column it has is already in the base table');
      continue;
    }
    if (quality < MIN_JOIN_QUALITY) {
      const why = isKey(baseCol, base) && !sameName ? ` (score x coverage x ${ROW_KEY_NAME_PENALTY}: the row key's names differ)` : ' (score x coverage)';
      reject(other, 'weak-join', `join ${base.name}.${baseCol.name} = ${other.name}.${col.name} scores ${quality.toFixed(2)}${why} < ${MIN_JOIN_QUALITY}`);
      continue;
    }
    const cur = best.get(otherId);
    if (!cur || quality > cur.quality) {
      best.set(otherId, { table: other, role: 'join', newColumns, quality, join: { baseColumn: baseCol.name, column: col.name, coverage } });
    }
  }
  return [...best.values()].sort((a, b) => b.quality - a.quality || snapshot.compare(a.table.id, b.table.id));
}

interface Projection {
  sql: string | null;
  columns: string[];
  columnsOf: Map<string, string[]>;
  leaks: TargetLeak[];
  rowCount: number | null;
  labelledRows: number | null;
}

/**
 * The enriched table: the plan's output projected onto the base columns and the added columns
 * that are features (all, or those named in `features`), minus columns that reproduce the
 * target for the same rows unless they were named.
 */
async function project(
  plan: FusionPlan,
  snapshot: LakeSnapshot,
  base: SnapshotTable,
  target: SnapshotColumn,
  added: { table: SnapshotTable; role: 'union' | 'join' }[],
  features: Set<string> | null,
  warnings: string[],
): Promise<Projection> {
  const empty: Projection = { sql: null, columns: [], columnsOf: new Map(), leaks: [], rowCount: null, labelledRows: null };
  if (!plan.executable || !plan.sql) return empty;
  const groupOf = new Map(plan.unionGroups.map((g) => [g.id, g]));
  const baseGroup = plan.unionGroups.find((g) => g.tableIds.includes(base.id))!;
  const targetOut = plan.outputColumns.find((o) => o.groupId === baseGroup.id && groupOf.get(o.groupId)!.columnMapping.find((m) => m.name === o.column)?.columns.some((s) => s.columnId === target.id));
  if (!targetOut) {
    warnings.push(`the target ${target.name} is not in the fused output`);
    return empty;
  }
  const added_ = plan.outputColumns.filter((o) => o.groupId !== baseGroup.id);
  const sourceTable = (o: (typeof plan.outputColumns)[number]) => groupOf.get(o.groupId)!.columnMapping.find((m) => m.name === o.column)!.columns[0]!.tableId;
  const leaks = await findLeaks(plan.sql, targetOut.name, NUMERIC.has(target.logicalType), added_.map((o) => ({ output: o.name, table: snapshot.tableById.get(sourceTable(o))?.name ?? sourceTable(o), key: isKeyOutput(o, groupOf, snapshot) })));
  const leaked = new Set<string>();
  for (const l of leaks) {
    l.kept = features?.has(l.column.toLowerCase()) ?? false;
    if (!l.kept) leaked.add(l.column);
    warnings.push(
      l.kept
        ? `${l.table}.${l.column} reproduces the target (${l.evidence}); kept because features names it`
        : `${l.table}.${l.column} reproduces the target (${l.evidence}) and was left out (name it in features to keep it)`,
    );
  }
  const keep = plan.outputColumns.filter((o) => {
    if (o.groupId === baseGroup.id) return !features || o === targetOut || features.has(o.name.toLowerCase()) || isKeyOutput(o, groupOf, snapshot);
    if (leaked.has(o.name)) return false;
    return !features || features.has(o.name.toLowerCase());
  });
  const columnsOf = new Map<string, string[]>();
  for (const o of keep) {
    if (o.groupId === baseGroup.id) continue;
    for (const s of groupOf.get(o.groupId)!.columnMapping.find((m) => m.name === o.column)!.columns) {
      columnsOf.set(s.tableId, [...(columnsOf.get(s.tableId) ?? []), o.name]);
    }
  }
  for (const a of added) {
    if (a.role === 'join' && !plan.joinedGroupIds.some((g) => groupOf.get(g)!.tableIds.includes(a.table.id))) {
      warnings.push(`${a.table.name} is not connected to the base by a join in the plan`);
    }
  }
  const sql = `SELECT ${keep.map((o) => sqlIdent(o.name)).join(', ')}\nFROM (\n${plan.sql}\n) AS fused`;
  const rowCount = await countFusion({ ...plan, sql });
  const labelledRows = await countFusion({ ...plan, sql: `${sql}\nWHERE ${sqlIdent(targetOut.name)} IS NOT NULL` });
  return { sql, columns: keep.map((o) => o.name), columnsOf, leaks, rowCount, labelledRows };
}

function isKeyOutput(o: { groupId: string; column: string }, groups: Map<string, FusionPlan['unionGroups'][number]>, snapshot: LakeSnapshot): boolean {
  const sources = groups.get(o.groupId)!.columnMapping.find((m) => m.name === o.column)?.columns ?? [];
  return sources.some((s) => {
    const c = snapshot.columnById.get(s.columnId);
    const t = snapshot.tableById.get(s.tableId);
    return c !== undefined && t !== undefined && isKey(c, t);
  });
}

function explainChoice(
  units: PieceUnit[],
  numAtoms: number,
  options: { contentNoise: number },
  atoms: IntentAtom[],
  newColumns: string[],
  snapshot: LakeSnapshot,
): ScoreExplanation {
  const objective = pieceObjective(units, numAtoms, options);
  const atomIds = [...atoms.map((a) => a.id), ...newColumns.map((c) => `new:${c}`)];
  const ex = explainIgms(objective, units.map((_, i) => i), { atomIds });
  const name = (id: string) => snapshot.tableById.get(id)?.name ?? id;
  return {
    tableIds: units.map((x) => x.id),
    score: ex.value,
    atoms: atomIds.map((atomId, j) => ({
      atomId,
      kind: j < atoms.length ? atoms[j].kind : 'attribute',
      label: j < atoms.length ? atoms[j].label : newColumns[j - atoms.length],
      support: ex.atomSupport[j]?.maxUnitSupport ?? 0,
      supportedBy: units.filter((x) => x.support[j] > 0).map((x) => x.id),
    })),
    tables: ex.unitContributions.map((c) => ({ tableId: units[c.unit].id, name: name(units[c.unit].id), marginalGain: c.greedyGain, leaveOneOutLoss: c.leaveOneOutLoss })),
    redundancy: ex.redundantPairs.map((p) => ({ tableA: p.a, tableB: p.b, rho: p.redundancy })),
    determinant: { atoms: ex.atoms, logDetPrior: ex.logDetPrior, logDetPosterior: ex.logDetPosterior },
    unsupportedAtoms: ex.unsupportedAtoms,
    warnings: [],
  };
}
