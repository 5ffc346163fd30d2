import type { CatalogDatabase } from '../catalog/database.js';
import { embedQuery, type Embedder } from '../embed/index.js';
import { planFusion, previewFusion, type FusionInput, type FusionPlan, type ValueFilter } from '../fusion/index.js';
import { explainIgms, pieceObjective } from '../igms/index.js';
import {
  LlmIntentExtractor,
  llmConfigFromEnv,
  OfflineExtractor,
  parseIntentGraph,
  type IntentAtom,
  type IntentGraph,
} from '../intent/index.js';
import {
  buildSynthesisModel,
  fitQuestionEmbedder,
  loadLakeSnapshot,
  checkpoint,
  DEFAULT_SEARCH_OPTIONS,
  LakeSnapshot,
  searchSynthesis,
  SynthesisModel,
  type ValueFunction,
} from '../search/index.js';
import type { ValueModelRecord } from '../catalog/index.js';
import { BadInputError, NotFoundError } from '../util/errors.js';
import type { FusionPlanSummary } from './fusionSummary.js';
import type { AskOptions, IntentResult, ScoreExplanation, SynthesisResult, TableFilter } from './types.js';

export const MAX_BUDGET = 100;
export const MAX_BEAM = 64;

/**
 * The engine `createEngine` builds: questions in, intent graphs, syntheses and explanations out,
 * plus the snapshot, model and value-function accessors that enrichment, the worker pool and the
 * benchmark use. The API serves a narrower `ServedEngine` (src/api/servedEngine.ts).
 */
export interface Engine {
  intentGraph(question: string, opts?: { extractor?: 'offline' | 'llm'; allowTable?: TableFilter; signal?: AbortSignal }): Promise<IntentResult>;
  synthesize(question: string, opts?: AskOptions): Promise<SynthesisResult>;
  explain(args: { question?: string; intent?: IntentGraph; tableIds: string[]; allowTable?: TableFilter; signal?: AbortSignal }): Promise<ScoreExplanation>;
  /** Drops the in-memory snapshot (call after an ingest or delete). */
  invalidate(): void;
  /** Registers a value function under a name (`AskOptions.valueFunction`). */
  registerValueFunction(fn: ValueFunction): void;
  snapshot(allow?: TableFilter): Promise<LakeSnapshot>;
  /** The synthesis model of an intent graph grounded in the caller's view of the catalog. */
  modelForIntent(graph: IntentGraph, allow?: TableFilter): Promise<{ model: SynthesisModel; atoms: IntentAtom[] }>;
  /** Which value function answers when a call names none, and the learned model behind it. */
  valueModel(): Promise<ValueModelStatus>;
  /** A registered value function by name (the learned one once loaded). */
  valueFunction(name: string): Promise<ValueFunction | undefined>;
}

export interface EngineOptions {
  /**
   * 'auto' (default): load the newest learned value model trained on this lake state and make
   * it the default value function; 'off': the heuristic only.
   */
  valueModel?: 'auto' | 'off';
  /** onnxruntime execution provider for the learned model (CUDA falls back to CPU). */
  valueProvider?: 'cpu' | 'cuda';
  log?: (msg: string) => void;
  /**
   * Where the snapshot comes from (default: `LakeSnapshot.load(db)`). Pool workers pass the one
   * the main thread loaded and shipped: they never open the catalog themselves.
   */
  loadSnapshot?: () => Promise<LakeSnapshot>;
  /**
   * Loads the learned value model matching the catalog's lake state (value's
   * `loadLearnedValueFunction`). Passed in by the caller so the engine does not import value
   * (value builds its training models through search); without it `valueModel: 'auto'` falls
   * back to the heuristic.
   */
  loadValueModel?: (
    db: CatalogDatabase,
    opts: { provider?: 'cpu' | 'cuda'; log?: (msg: string) => void },
  ) => Promise<{ fn: ValueFunction; record: ValueModelRecord; provider: 'cpu' | 'cuda' } | { fn: null; reason: string }>;
}

export interface ValueModelStatus {
  defaultValueFunction: string;
  model: ValueModelRecord | null;
  provider?: 'cpu' | 'cuda';
  /** Why no learned model is in use. */
  reason?: string;
}

interface View {
  snapshot: LakeSnapshot;
  extractor: OfflineExtractor;
}

/**
 * The GRAFT engine over one catalog: loads the lake graph and embeddings once into memory
 * (reloaded after `invalidate`), and answers questions without touching the database.
 */
export function createEngine(db: CatalogDatabase | null, embedder: Embedder, options: EngineOptions = {}): Engine {
  let base: Promise<LakeSnapshot> | null = null;
  const views = new Map<string, Promise<View>>();
  const valueFunctions = new Map<string, ValueFunction>([['heuristic', DEFAULT_SEARCH_OPTIONS.valueFunction]]);
  let learned: Promise<ValueModelStatus> | null = null;
  let learnedFn: ValueFunction | null = null;
  // Bumped by `invalidate`: a load that started before it must not register its (stale) model.
  let learnedGeneration = 0;

  // The learned value model is looked up with the snapshot (and again after `invalidate`): an
  // ingest changes the lake fingerprint, and a model of another lake state must not be used.
  const loadLearned = (): Promise<ValueModelStatus> => {
    if (!learned) {
      const generation = learnedGeneration;
      learned = (async (): Promise<ValueModelStatus> => {
        if ((options.valueModel ?? 'auto') === 'off' || !db) return { defaultValueFunction: 'heuristic', model: null, reason: 'learned value model disabled' };
        let r;
        try {
          if (!options.loadValueModel) return { defaultValueFunction: 'heuristic', model: null, reason: 'no learned value model loader given (EngineOptions.loadValueModel)' };
          r = await options.loadValueModel(db, { provider: options.valueProvider, log: options.log });
        } catch (err) {
          // A model that cannot be loaded must not take question answering down with it.
          const reason = `learned value model not loaded: ${(err as Error).message}`;
          options.log?.(reason);
          return { defaultValueFunction: 'heuristic', model: null, reason };
        }
        if (!r.fn) return { defaultValueFunction: 'heuristic', model: null, reason: r.reason };
        if (generation !== learnedGeneration) return { defaultValueFunction: 'heuristic', model: null, reason: 'catalog changed while the model was loading' };
        valueFunctions.set(r.fn.name, r.fn);
        learnedFn = r.fn;
        return { defaultValueFunction: r.fn.name, model: r.record, provider: r.provider };
      })();
      learned.catch(() => {
        learned = null;
      });
    }
    return learned;
  };

  const loadBase = () => {
    if (!base) {
      base = (async () => {
        if (!db && !options.loadSnapshot) throw new Error('createEngine without a catalog needs options.loadSnapshot');
        if (options.loadSnapshot) return fitQuestionEmbedder(await options.loadSnapshot(), embedder);
        return loadLakeSnapshot(db!, embedder);
      })();
      base.catch(() => {
        base = null;
      });
    }
    return base;
  };

  // One view per distinct visible table set (grants); the extractor's indexes are built per view.
  const view = async (allow?: TableFilter): Promise<View> => {
    const snap = await loadBase();
    // Key on the visible ids first: the restricted snapshot and its extractor are built only on a miss.
    const key = allow ? snap.tables.filter((t) => allow({ id: t.id, name: t.name, uri: t.uri, sourceRoot: t.sourceRoot })).map((t) => t.id).join(',') : '*';
    let v = views.get(key);
    if (!v) {
      const restricted = snap.restrict(allow);
      v = Promise.resolve({ snapshot: restricted, extractor: new OfflineExtractor(restricted.vocabulary()) });
      views.set(key, v);
      if (views.size > 64) views.delete(views.keys().next().value!);
    }
    return v;
  };

  const extract = async (question: string, v: View, extractor: 'offline' | 'llm' = 'offline'): Promise<IntentResult> => {
    const started = performance.now();
    if (extractor === 'llm') {
      const config = llmConfigFromEnv();
      if (!config) throw new BadInputError('extractor LLM needs GRAFT_LLM_BASE_URL and GRAFT_LLM_MODEL');
      const llm = new LlmIntentExtractor({ ...config, fallback: v.extractor });
      const r = await llm.extract(question);
      return { graph: r.graph, source: r.source, warnings: r.warnings, elapsedMs: performance.now() - started };
    }
    const r = v.extractor.extract(question);
    return { graph: r.graph, source: 'offline', warnings: r.warnings, elapsedMs: performance.now() - started };
  };

  const modelFor = (graph: IntentGraph, snapshot: LakeSnapshot) => buildSynthesisModel(graph, snapshot, embedder);

  const engine: Engine = {
    snapshot: async (allow) => (await view(allow)).snapshot,

    invalidate() {
      base = null;
      views.clear();
      // The lake may have changed under the learned model: forget it until it is matched again.
      // Its session is not released here: a search in flight may still be scoring with it.
      learned = null;
      learnedGeneration++;
      if (learnedFn && valueFunctions.get(learnedFn.name) === learnedFn) valueFunctions.delete(learnedFn.name);
      learnedFn = null;
    },

    valueModel: loadLearned,

    async valueFunction(name) {
      await loadLearned();
      return valueFunctions.get(name);
    },

    async modelForIntent(graph, allow) {
      const v = await view(allow);
      return modelFor(v.extractor.ground(parseIntentGraph(graph)), v.snapshot);
    },

    registerValueFunction(fn) {
      valueFunctions.set(fn.name, fn);
    },

    async intentGraph(question, opts = {}) {
      checkQuestion(question);
      await checkpoint(opts.signal);
      return extract(question, await view(opts.allowTable), opts.extractor);
    },

    async synthesize(question, opts = {}) {
      const started = performance.now();
      if (!opts.intent) checkQuestion(question);
      const budget = opts.budget ?? 10;
      const beamWidth = opts.beamWidth ?? DEFAULT_SEARCH_OPTIONS.beamWidth;
      if (!Number.isInteger(budget) || budget < 0 || budget > MAX_BUDGET) {
        throw new BadInputError(`budget must be an integer in 0..${MAX_BUDGET} (got ${budget})`, { field: 'budget' });
      }
      if (!Number.isInteger(beamWidth) || beamWidth < 1 || beamWidth > MAX_BEAM) {
        throw new BadInputError(`beamWidth must be an integer in 1..${MAX_BEAM} (got ${beamWidth})`, { field: 'beamWidth' });
      }
      const status = await loadLearned();
      const valueFunction = valueFunctions.get(opts.valueFunction ?? status.defaultValueFunction);
      if (!valueFunction) {
        const why = opts.valueFunction === 'learned' && status.reason ? `: ${status.reason}` : ` (known: ${[...valueFunctions.keys()].join(', ')})`;
        throw new BadInputError(`unknown value function "${opts.valueFunction}"${why}`, { field: 'valueFunction' });
      }
      const v = await view(opts.allowTable);
      await checkpoint(opts.signal);
      const intent: IntentResult = opts.intent
        ? { graph: v.extractor.ground(parseIntentGraph(opts.intent)), source: 'given', warnings: [], elapsedMs: 0 }
        : await extract(question, v, opts.extractor);
      await checkpoint(opts.signal);
      const { model, atoms } = await modelFor(intent.graph, v.snapshot);
      const outcome = await searchSynthesis(model, {
        budget,
        beamWidth,
        valueFunction,
        question,
        strategy: opts.strategy ?? 'beam',
        signal: opts.signal,
        ...(opts.minGain !== undefined ? { minGain: opts.minGain } : {}),
      });
      await checkpoint(opts.signal);
      const warnings = [...intent.warnings];
      if (v.snapshot.tables.length === 0) warnings.push('the catalog holds no tables you may read: ingest a lake first');
      else if (outcome.tables.length === 0) {
        warnings.push(
          outcome.stoppedBy === 'no-match'
            ? 'nothing in the catalog supports the question: no table matches any of its specific words'
            : 'no table in the catalog matches the question',
        );
      }
      // The fused plan and the unsupported atoms are about the core synthesis; alternates ride along.
      const chosenIds = outcome.tables.filter((t) => t.role !== 'alternate').map((t) => t.id);
      const fusionInput = buildFusionInput(v.snapshot, chosenIds, atoms);
      const plan = planFusion(fusionInput);
      const result: SynthesisResult = {
        question,
        intent,
        tables: outcome.tables.map((t) => {
          const table = v.snapshot.tableById.get(t.id)!;
          return { id: t.id, name: table.name, uri: table.uri, role: t.role, atoms: t.atoms.map((j) => atoms[j].id), gain: t.gain };
        }),
        plan: summarisePlan(plan, v.snapshot),
        score: outcome.utility,
        unsupportedAtoms: unsupported(model, chosenIds, atoms),
        valueFunction: opts.strategy === 'exact' ? 'none (exact)' : valueFunction.name,
        elapsedMs: 0,
        warnings: [...warnings, ...plan.warnings],
        search: { regionTableIds: outcome.region, stoppedBy: outcome.stoppedBy },
      };
      if (opts.preview && opts.preview > 0 && plan.executable && plan.sql) {
        await checkpoint(opts.signal);
        const p = await previewFusion(plan, opts.preview);
        result.preview = {
          columns: p.columns,
          rows: p.rows,
          engine: p.engine,
          readBy: Object.fromEntries(p.sources.map((s) => [s.name, s.readBy])),
        };
        result.warnings.push(...p.warnings);
      }
      result.elapsedMs = performance.now() - started;
      return result;
    },

    async explain(args) {
      const v = await view(args.allowTable);
      await checkpoint(args.signal);
      for (const id of args.tableIds) {
        if (!v.snapshot.tableById.has(id)) throw new NotFoundError(`table ${id} not found`, { field: 'tables' });
      }
      let graph: IntentGraph;
      const warnings: string[] = [];
      if (args.intent) graph = v.extractor.ground(parseIntentGraph(args.intent));
      else if (args.question) {
        checkQuestion(args.question);
        const r = await extract(args.question, v);
        graph = r.graph;
        warnings.push(...r.warnings);
      } else throw new BadInputError('explain needs a question or an intent graph', { field: 'question' });
      await checkpoint(args.signal);
      const { model, atoms } = await modelFor(graph, v.snapshot);
      await checkpoint(args.signal);
      const units = model.units(args.tableIds);
      const objective = pieceObjective(units, atoms.length, { prior: model.prior, contentNoise: model.options.contentNoise });
      const ex = explainIgms(objective, units.map((_, i) => i), { atomIds: atoms.map((a) => a.id) });
      const name = (id: string) => v.snapshot.tableById.get(id)?.name ?? id;
      return {
        tableIds: args.tableIds,
        score: ex.value,
        atoms: atoms.map((a, j) => ({
          atomId: a.id,
          kind: a.kind,
          label: a.label,
          support: ex.atomSupport[j]?.maxUnitSupport ?? 0,
          supportedBy: args.tableIds.filter((_, i) => units[i].support[j] >= model.options.witnessThreshold),
        })),
        tables: ex.unitContributions.map((u, i) => ({
          tableId: args.tableIds[i],
          name: name(args.tableIds[i]),
          marginalGain: u.greedyGain,
          leaveOneOutLoss: u.leaveOneOutLoss,
        })),
        redundancy: ex.redundantPairs.map((p) => ({ tableA: p.a, tableB: p.b, rho: p.redundancy })),
        determinant: { atoms: ex.atoms, logDetPrior: ex.logDetPrior, logDetPosterior: ex.logDetPosterior },
        unsupportedAtoms: ex.unsupportedAtoms,
        warnings,
      };
    },
  };
  return engine;
}

function checkQuestion(question: string): void {
  if (typeof question !== 'string' || question.trim() === '') throw new BadInputError('question must be a non-empty string', { field: 'question' });
  if (question.length > 2000) throw new BadInputError('question is longer than 2000 characters', { field: 'question' });
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
    return { id: t.id, name: t.name, uri: t.uri, format: t.format, columns, ...(t.sourceRootPath ? { root: t.sourceRootPath } : {}) };
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

