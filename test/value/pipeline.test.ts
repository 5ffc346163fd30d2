import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lakeFingerprint, latestValueModel, listValueModels, saveValueModel, type CatalogDatabase } from '../../src/catalog/index.js';
import type { HashedNgramEmbedder } from '../../src/embed/index.js';
import { createEngine } from '../../src/engine/index.js';
import { ingestLake } from '../../src/ingest/index.js';
import { admissibleActions, anchorRegion, type ValueContext } from '../../src/search/index.js';
import { trainAndStoreValueModel } from '../../src/value/catalogTraining.js';
import { loadLearnedValueFunction } from '../../src/value/loader.js';
import { FEATURE_DIM, FEATURE_NAMES, FEATURE_VERSION, STATE_DIM, stateActionFeatures, stateFeatures } from '../../src/value/features.js';
import { generateTransitions } from '../../src/value/transitions.js';
import { openDemoCatalog, type DemoCatalog } from '../support/demoLake.js';

/** Small enough to train in seconds on the 14-table demo lake. */
const TINY = { transitions: { trajectories: 30, seed: 3 }, iql: { steps: 40, hidden: [16, 16], batchSize: 64 } };

describe('learned value network on the demo lake', () => {
  let demo: DemoCatalog;
  let db: CatalogDatabase;
  let lake: string;
  let embedder: HashedNgramEmbedder;

  beforeAll(async () => {
    demo = await openDemoCatalog();
    ({ db, lake, embedder } = demo);
  });
  afterAll(async () => demo?.close());

  it('computes one feature row per action: the state part shared, the marginal gain exact', async () => {
    const engine = createEngine(db, embedder, { valueModel: 'off' });
    const r = await engine.intentGraph('points scored by players of each club');
    const { model } = await engine.modelForIntent(r.graph);
    const region = anchorRegion(model, { anchorsPerAtom: 5, hops: 2, maxTables: 300 });
    const ctx: ValueContext = { model, region: region.tables, budget: 10, lookaheadHops: 2 };
    const seed = region.seeds[0];
    const state = { tables: [seed], utility: model.utility([seed]) };
    const actions = admissibleActions(model, state, ctx, { budget: 10, beamWidth: 1, lookaheadHops: 2, shardThreshold: 0.7, maxActionsPerState: 24 });
    expect(actions.length).toBeGreaterThan(1);
    const x = stateActionFeatures(state, actions, ctx);
    expect(FEATURE_NAMES).toHaveLength(FEATURE_DIM);
    expect(x).toHaveLength(actions.length * FEATURE_DIM);
    const s = stateFeatures(state.tables, ctx, state.utility);
    const gainAt = FEATURE_NAMES.indexOf('marginal_gain');
    actions.forEach((a, i) => {
      const row = x.subarray(i * FEATURE_DIM, (i + 1) * FEATURE_DIM);
      expect(Array.from(row.subarray(0, STATE_DIM))).toEqual(Array.from(s));
      expect(row[gainAt]).toBeCloseTo(model.utility([seed, a.tableId]) - state.utility, 5);
      expect(row.every(Number.isFinite)).toBe(true);
    });
  });

  it('turns sampled table sets into transitions: reward only at the end, returns discounted back', async () => {
    const engine = createEngine(db, embedder, { valueModel: 'off' });
    const snapshot = await engine.snapshot();
    const set = await generateTransitions(snapshot, (g) => engine.modelForIntent(g), { trajectories: 20, seed: 5, gamma: 0.5 });
    const d = set.data;
    expect(d.n).toBeGreaterThan(0);
    expect(d.qInputs).toHaveLength(d.n * FEATURE_DIM);
    expect(d.vInputs).toHaveLength(d.n * STATE_DIM);
    expect(set.episodes).toBeGreaterThanOrEqual(set.subgraphs);
    // Walk the episodes: within one, rewards are 0 until the terminal transition, whose reward is
    // the episode's return; earlier returns are gamma^(steps to go) times it; s' of t is s of t+1.
    let start = 0;
    for (let i = 0; i < d.n; i++) {
      if (d.dones[i] !== 1) {
        expect(d.rewards[i]).toBe(0);
        expect(Array.from(d.nextVInputs.subarray(i * STATE_DIM, (i + 1) * STATE_DIM))).toEqual(Array.from(d.vInputs.subarray((i + 1) * STATE_DIM, (i + 2) * STATE_DIM)));
        continue;
      }
      for (let t = start; t <= i; t++) expect(set.returns[t]).toBeCloseTo(d.rewards[i] * 0.5 ** (i - t), 5);
      expect(d.rewards[i]).toBeGreaterThan(0);
      start = i + 1;
    }
    expect(start).toBe(d.n);
  });

  it('trains, stores the model for this lake, and the engine answers with it by default', async () => {
    const fp = await lakeFingerprint(db);
    const { record, model } = await trainAndStoreValueModel(db, embedder, TINY);
    expect(record.lakeFingerprint).toBe(fp);
    expect(record.featureVersion).toBe(FEATURE_VERSION);
    expect(record.inputDim).toBe(FEATURE_DIM);
    expect(record.transitions).toBeGreaterThan(0);
    expect(Number.isFinite(record.heldOutMape)).toBe(true);
    const stored = await latestValueModel(db, fp, FEATURE_VERSION);
    expect(stored?.id).toBe(record.id);
    expect(Buffer.compare(Buffer.from(stored!.onnx), Buffer.from(model.onnx))).toBe(0);

    const engine = createEngine(db, embedder, { loadValueModel: loadLearnedValueFunction });
    const status = await engine.valueModel();
    expect(status.defaultValueFunction).toBe('learned');
    expect(status.model?.id).toBe(record.id);
    const learned = await engine.synthesize('points scored by players of each club', { budget: 10 });
    expect(learned.tables.length).toBeGreaterThan(0);
    const heuristic = await engine.synthesize('points scored by players of each club', { budget: 10, valueFunction: 'heuristic' });
    expect(heuristic.tables.length).toBeGreaterThan(0);
    const off = createEngine(db, embedder, { valueModel: 'off' });
    expect((await off.valueModel()).defaultValueFunction).toBe('heuristic');
    await expect(off.synthesize('points scored by players of each club', { valueFunction: 'learned' })).rejects.toThrow(/value function "learned"/);
  });

  it('never uses a model of another feature version or of a changed lake', async () => {
    const fp = await lakeFingerprint(db);
    const newest = (await listValueModels(db))[0];
    const stored = (await latestValueModel(db, fp, FEATURE_VERSION))!;
    // Same lake, a feature version this build does not compute: ignored.
    await saveValueModel(db, { ...stored, featureVersion: FEATURE_VERSION + 1, metadata: {} });
    const engine = createEngine(db, embedder, { loadValueModel: loadLearnedValueFunction });
    expect((await engine.valueModel()).model?.id).toBe(newest.id);

    // The lake changes (a new file): the fingerprint moves and no model matches any more.
    await copyFile(path.join(lake, 'vendor.csv'), path.join(lake, 'vendor_2.csv'));
    await ingestLake(db, lake, { embedder });
    expect(await lakeFingerprint(db)).not.toBe(fp);
    engine.invalidate();
    const status = await engine.valueModel();
    expect(status.defaultValueFunction).toBe('heuristic');
    expect(status.model).toBeNull();
    expect(status.reason).toMatch(/lake changed/);
    const r = await engine.synthesize('points scored by players of each club', { budget: 10 });
    expect(r.tables.length).toBeGreaterThan(0);
    await expect(engine.synthesize('points scored by players of each club', { valueFunction: 'learned' })).rejects.toThrow(/lake changed/);
  });
});
