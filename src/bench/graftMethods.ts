/**
 * The engine as benchmark methods: `graft` (beam search + lazy IGMS rerank with the heuristic
 * value function), `graft-learned` (the same search guided by the learned value network stored
 * in the catalog for this lake: `graft value train`) and `graft-exact` (GRAFT-Exact over the
 * capped candidate region). With the
 * `decomp:<file>` intent the question's published decomposition is turned into the intent graph
 * (src/intent decomposition adapter); otherwise the offline extractor reads the question.
 */
import { createEngine, type Engine, type SynthesisResult } from '../engine/index.js';
import { intentFromDecomposition } from '../intent/index.js';
import type { ValueFunction } from '../search/index.js';
import { LearnedValueFunction } from '../value/learnedValueFunction.js';
import { registerRetrievalMethod, type BenchContext, type BenchQuestion, type RetrievalMethod, type RetrievalTrace } from './methods.js';

export class GraftMethod implements RetrievalMethod {
  private engine?: Engine;
  private ctx?: BenchContext;
  private fallbacks = 0;
  private model?: { id: string; heldOutMape: number; trajectories: number };
  private learned?: ValueFunction;
  private last?: RetrievalTrace;
  private lastResult?: SynthesisResult;

  constructor(
    readonly name: string,
    private readonly strategy: 'beam' | 'exact',
    /** A registered value function's name, or a value function object (ablations: never stored in the catalog). */
    private readonly value: string | ValueFunction = 'heuristic',
  ) {}

  private get valueFunction(): string {
    return typeof this.value === 'string' ? this.value : this.value.name;
  }

  async prepare(ctx: BenchContext): Promise<void> {
    this.ctx = ctx;
    this.engine = createEngine(ctx.db, ctx.embedder, { valueModel: this.value === 'learned' ? 'auto' : 'off', loadValueModel: async (db, o) => (await import('../value/loader.js')).loadLearnedValueFunction(db, o) });
    await this.engine.snapshot(); // load the lake graph before the clock starts
    if (typeof this.value !== 'string') this.engine.registerValueFunction(this.value);
    if (this.value === 'learned') {
      const status = await this.engine.valueModel();
      if (!status.model) throw new Error(`${this.name}: no learned value model for this lake: ${status.reason ?? 'unknown'} (train one: graft value train)`);
      this.model = { id: status.model.id, heldOutMape: status.model.heldOutMape, trajectories: status.model.trajectories };
      this.learned = await this.engine.valueFunction('learned');
    }
  }

  async retrieve(question: string, budget: number, q?: BenchQuestion): Promise<string[]> {
    const engine = this.engine!;
    let intent;
    if (this.ctx!.intent.kind === 'decomp') {
      // Decompositions name base tables ("singer:name"); the engine grounds those labels in the lake.
      if (q?.decomposition && q.decomposition.length > 0) intent = intentFromDecomposition(q.decomposition);
      else this.fallbacks++;
    }
    const r = await engine.synthesize(question, {
      budget,
      intent,
      extractor: this.ctx!.intent.kind === 'llm' ? 'llm' : 'offline',
      strategy: this.strategy,
      valueFunction: this.valueFunction,
      ...this.ctx!.engineOptions,
    });
    this.lastResult = r;
    this.last = {
      core: r.tables.filter((t) => t.role !== 'alternate').length,
      region: r.search?.regionTableIds ?? [],
      // GRAFT-Exact offers no alternates: its misses are no offers' misses.
      ...(this.strategy === 'beam'
        ? {
            offers: (r.search?.alternateOffers ?? []).map((o) => ({ tables: o.tables, stage: o.evidence.stage, confidence: o.confidence })),
            alternateFloor: r.search?.alternateFloor ?? 0,
          }
        : {}),
    };
    return r.tables.map((t) => t.id);
  }

  trace(): RetrievalTrace | undefined {
    return this.last;
  }

  /** The last call's whole synthesis, search trace included (for tools that read more than the answer). */
  lastSynthesis(): SynthesisResult | undefined {
    return this.lastResult;
  }

  stats(): Record<string, number> {
    const learned = this.learnedFunction();
    return {
      decompositionMissing: this.fallbacks,
      ...(this.model ? { valueModelMape: this.model.heldOutMape, valueModelTrajectories: this.model.trajectories } : {}),
      ...(learned ? { valueCalls: learned.stats.calls, valueRows: learned.stats.rows, valueFeatureMs: learned.stats.featureMs, valueInferenceMs: learned.stats.inferenceMs } : {}),
    };
  }

  /** The learned value function this method searches with, if any (its cost counters). */
  private learnedFunction(): LearnedValueFunction | undefined {
    const fn = typeof this.value === 'string' ? this.learned : this.value;
    return fn instanceof LearnedValueFunction ? fn : undefined;
  }
}

registerRetrievalMethod('graft', () => new GraftMethod('graft', 'beam'));
registerRetrievalMethod('graft-learned', () => new GraftMethod('graft-learned', 'beam', 'learned'));
registerRetrievalMethod('graft-exact', () => new GraftMethod('graft-exact', 'exact'));
