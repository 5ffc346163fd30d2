import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine/index.js';
import { HeuristicValueFunction, type SearchAction, type SearchState, type ValueContext } from '../../src/search/index.js';
import { openDemoCatalog, type DemoCatalog, type DemoGold } from '../support/demoLake.js';

/**
 * AskOptions.signal stops the engine: a call whose signal is aborted throws the signal's reason
 * instead of answering, and a search aborted while it runs stops at its next checkpoint (the
 * next beam depth) rather than finishing the search.
 */
describe('engine cancellation on the demo lake', () => {
  let demo: DemoCatalog;
  let engine: Engine;
  let gold: DemoGold;

  beforeAll(async () => {
    demo = await openDemoCatalog();
    gold = demo.gold;
    engine = createEngine(demo.db, demo.embedder, { valueModel: 'off' });
  });
  afterAll(async () => demo?.close());

  it('refuses to work for an already aborted signal, with the signal reason', async () => {
    const reason = new Error('caller gave up');
    const controller = new AbortController();
    controller.abort(reason);
    const q = gold.questions[0].question;
    await expect(engine.synthesize(q, { budget: 10, signal: controller.signal })).rejects.toBe(reason);
    await expect(engine.explain({ question: q, tableIds: [], signal: controller.signal })).rejects.toBe(reason);
    await expect(engine.intentGraph(q, { signal: controller.signal })).rejects.toBe(reason);
  });

  it('stops a beam search aborted mid-way at the next depth', async () => {
    const heuristic = new HeuristicValueFunction();
    let controller: AbortController | undefined;
    let depthsScored = 0;
    // Scores like the heuristic, and aborts the call while the first beam depth is being scored.
    engine.registerValueFunction({
      name: 'aborting',
      score(state: SearchState, actions: SearchAction[], ctx: ValueContext) {
        return heuristic.score(state, actions, ctx);
      },
      async scoreFrontier(frontier, ctx) {
        depthsScored++;
        controller?.abort(new Error('timed out'));
        return Promise.all(frontier.map((f) => heuristic.score(f.state, f.actions, ctx)));
      },
    });
    // Without a signal the same question runs several depths (the abort is the only difference).
    const q = gold.questions.find((x) => x.tables.length >= 3)!.question;
    const full = await engine.synthesize(q, { budget: 10, valueFunction: 'aborting' });
    expect(full.tables.length).toBeGreaterThan(0);
    expect(depthsScored).toBeGreaterThan(1);
    depthsScored = 0;
    controller = new AbortController();
    await expect(engine.synthesize(q, { budget: 10, valueFunction: 'aborting', signal: controller.signal })).rejects.toThrow('timed out');
    expect(depthsScored).toBe(1);
  });
});
