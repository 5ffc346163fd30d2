import type { CatalogDatabase } from '../catalog/database.js';
import type { Embedder } from '../embed/index.js';
import { parseIntentGraph, type IntentAtom, type IntentGraph } from '../intent/index.js';
import { checkpoint, DEFAULT_SEARCH_OPTIONS, LakeSnapshot, SynthesisModel, type ValueFunction } from '../search/index.js';
import type { ValueModelRecord } from '../catalog/index.js';
import { BadInputError, NotFoundError } from '../util/errors.js';
import { MAX_BEAM, MAX_BUDGET } from './limits.js';
import { runSynthesis } from './pipeline.js';
import { createSnapshotCache } from './snapshotCache.js';
import { explainSet } from './stages/explain.js';
import { extractStage } from './stages/extract.js';
import { modelStage } from './stages/model.js';
import { createValueModels } from './valueModels.js';
import type { AskOptions, IntentResult, ScoreExplanation, SynthesisResult, TableFilter } from './types.js';

export { buildFusionInput, summarisePlan } from './stages/fuse.js';

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

/**
 * The GRAFT engine over one catalog: loads the lake graph and embeddings once into memory
 * (reloaded after `invalidate`), and answers questions without touching the database. A
 * composition of the snapshot cache, the value-model registry and the stages in `./stages`.
 */
export function createEngine(db: CatalogDatabase | null, embedder: Embedder, options: EngineOptions = {}): Engine {
  const snapshots = createSnapshotCache(db, embedder, options);
  const valueModels = createValueModels(db, options);

  const engine: Engine = {
    snapshot: async (allow) => (await snapshots.view(allow)).snapshot,

    invalidate() {
      snapshots.invalidate();
      // The lake may have changed under the learned model: forget it until it is matched again.
      valueModels.invalidate();
    },

    valueModel: () => valueModels.status(),

    async valueFunction(name) {
      await valueModels.status();
      return valueModels.get(name);
    },

    async modelForIntent(graph, allow) {
      const v = await snapshots.view(allow);
      return modelStage({ graph: v.extractor.ground(parseIntentGraph(graph)), snapshot: v.snapshot, embedder });
    },

    registerValueFunction(fn) {
      valueModels.register(fn);
    },

    async intentGraph(question, opts = {}) {
      checkQuestion(question);
      await checkpoint(opts.signal);
      return extractStage({ question, view: await snapshots.view(opts.allowTable), extractor: opts.extractor, signal: opts.signal });
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
      if (opts.preview !== undefined && !(Number.isInteger(opts.preview) && opts.preview >= 0)) {
        throw new BadInputError(`preview must be an integer >= 0 (got ${opts.preview})`, { field: 'preview' });
      }
      const minConfidence = opts.minAlternateConfidence;
      if (minConfidence !== undefined && !(Number.isFinite(minConfidence) && minConfidence >= 0 && minConfidence <= 1)) {
        throw new BadInputError(`minAlternateConfidence must be a number in 0..1 (got ${minConfidence})`, { field: 'minAlternateConfidence' });
      }
      const status = await valueModels.status();
      const valueFunction = valueModels.get(opts.valueFunction ?? status.defaultValueFunction);
      if (!valueFunction) {
        const why = opts.valueFunction === 'learned' && status.reason ? `: ${status.reason}` : ` (known: ${valueModels.names().join(', ')})`;
        throw new BadInputError(`unknown value function "${opts.valueFunction}"${why}`, { field: 'valueFunction' });
      }
      const view = await snapshots.view(opts.allowTable);
      const result = await runSynthesis({ question, options: opts, view, embedder, budget, beamWidth, valueFunction });
      result.elapsedMs = performance.now() - started;
      return result;
    },

    async explain(args) {
      const v = await snapshots.view(args.allowTable);
      await checkpoint(args.signal);
      for (const id of args.tableIds) {
        if (!v.snapshot.tableById.has(id)) throw new NotFoundError(`table ${id} not found`, { field: 'tables' });
      }
      let graph: IntentGraph;
      const warnings: string[] = [];
      if (args.intent) graph = v.extractor.ground(parseIntentGraph(args.intent));
      else if (args.question) {
        checkQuestion(args.question);
        const r = await extractStage({ question: args.question, view: v, signal: args.signal });
        graph = r.graph;
        warnings.push(...r.warnings);
      } else throw new BadInputError('explain needs a question or an intent graph', { field: 'question' });
      const { model, atoms } = await modelStage({ graph, snapshot: v.snapshot, embedder, signal: args.signal });
      await checkpoint(args.signal);
      return explainSet(model, atoms, args.tableIds, v.snapshot, warnings);
    },
  };
  return engine;
}

function checkQuestion(question: string): void {
  if (typeof question !== 'string' || question.trim() === '') throw new BadInputError('question must be a non-empty string', { field: 'question' });
  if (question.length > 2000) throw new BadInputError('question is longer than 2000 characters', { field: 'question' });
}

