/**
 * The engine as benchmark methods: `graft` (beam search + lazy IGMS rerank with the heuristic
 * value function) and `graft-exact` (GRAFT-Exact over the capped candidate region). With the
 * `decomp:<file>` intent the question's published decomposition is turned into the intent graph
 * (src/intent decomposition adapter); otherwise the offline extractor reads the question.
 */
import { createEngine, type EngineApi } from '../engine/index.js';
import { intentFromDecomposition } from '../intent/index.js';
import { registerRetrievalMethod, type BenchContext, type BenchQuestion, type RetrievalMethod } from './methods.js';

class GraftMethod implements RetrievalMethod {
  private engine?: EngineApi;
  private ctx?: BenchContext;
  private fallbacks = 0;

  constructor(
    readonly name: string,
    private readonly strategy: 'beam' | 'exact',
    private readonly valueFunction = 'heuristic',
  ) {}

  async prepare(ctx: BenchContext): Promise<void> {
    this.ctx = ctx;
    this.engine = createEngine(ctx.db, ctx.embedder);
    await this.engine.snapshot(); // load the lake graph before the clock starts
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
    });
    return r.tables.map((t) => t.id);
  }

  stats(): Record<string, number> {
    return { decompositionMissing: this.fallbacks };
  }
}

registerRetrievalMethod('graft', () => new GraftMethod('graft', 'beam'));
registerRetrievalMethod('graft-exact', () => new GraftMethod('graft-exact', 'exact'));
