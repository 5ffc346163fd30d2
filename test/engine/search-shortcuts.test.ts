import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogDatabase } from '../../src/catalog/index.js';
import { createEngine, type Engine } from '../../src/engine/index.js';
import { anchorRegion, reachableSupport, type SynthesisModel, type ValueContext } from '../../src/search/index.js';
import { openDemoCatalog, type DemoCatalog, type DemoGold } from '../support/demoLake.js';

/**
 * The search answers its hot questions through indexes and caches (witness lists per atom,
 * reachability lookups, interned content pieces). These tests pin them to the plain definitions
 * on the demo lake, exactly (no tolerance): the search must not change by being faster.
 */

/** reachableSupport as defined: every table within h hops, every still-uncovered atom. */
function reachableSupportByDefinition(from: string, inSet: Set<string>, covered: Float64Array, threshold: number, ctx: ValueContext): number {
  const { model } = ctx;
  let best = 0;
  for (const { id, strength } of model.reachable(from, ctx.lookaheadHops)) {
    if (inSet.has(id) || !ctx.region.has(id)) continue;
    const row = model.row(id);
    for (const j of model.nodeAtoms) {
      if (covered[j] < threshold && row[j] >= threshold) best = Math.max(best, (row[j] - covered[j]) * strength);
    }
  }
  return best / Math.max(1, model.numAtoms);
}

/** Content overlap as defined: the share of a's piece mass that b holds too. */
function redundancyByDefinition(model: SynthesisModel, a: string, b: string): number {
  const pa = model.content(a);
  const pb = new Set(model.content(b).map((p) => p.piece));
  const total = pa.reduce((s, p) => s + (p.mass ?? 0), 0);
  if (total === 0) return 0;
  let shared = 0;
  for (const p of pa) if (pb.has(p.piece)) shared += p.mass ?? 0;
  return shared / total;
}

describe('search shortcuts agree with their definitions (demo lake)', () => {
  let demo: DemoCatalog;
  let db: CatalogDatabase;
  let engine: Engine;
  let lake: string;
  let gold: DemoGold;

  beforeAll(async () => {
    demo = await openDemoCatalog();
    ({ db, lake, gold } = demo);
    engine = createEngine(db, demo.embedder);
  });
  afterAll(async () => demo?.close());

  it('reachableSupport and redundancy are exactly their definitions for every region table and growing states', async () => {
    let checked = 0;
    for (const q of gold.questions) {
      const { graph } = await engine.intentGraph(q.question);
      const { model } = await engine.modelForIntent(graph);
      const region = anchorRegion(model, { anchorsPerAtom: 5, hops: 2, maxTables: 300 });
      const tau = model.options.witnessThreshold;
      for (const lookaheadHops of [1, 2]) {
        const ctx: ValueContext = { model, region: region.tables, budget: 10, lookaheadHops };
        for (const seed of region.seeds) {
          const states = [[seed], [seed, ...model.snapshot.neighbours(seed).slice(0, 2).map((n) => n.tableId)]];
          for (const state of states) {
            const inSet = new Set(state);
            const covered = model.coverage(state);
            for (const t of region.tables) {
              for (const threshold of [tau, 0.6]) {
                expect(reachableSupport(t, inSet, covered, threshold, ctx)).toBe(reachableSupportByDefinition(t, inSet, covered, threshold, ctx));
                checked++;
              }
            }
          }
        }
      }
      for (const a of region.tables) for (const b of region.tables) expect(model.redundancy(a, b)).toBe(redundancyByDefinition(model, a, b));
    }
    expect(checked).toBeGreaterThan(100);
  });
});
