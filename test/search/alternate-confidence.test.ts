import { describe, expect, it } from 'vitest';
import { ALTERNATE_FEATURES, alternateConfidence, alternateFeatures, fitLogistic, type AlternateWeights } from '../../src/search/alternateConfidence.js';
import { ALTERNATE_WEIGHTS } from '../../src/search/alternateWeights.js';
import { chooseSynthesis } from '../../src/search/candidates.js';
import { DEFAULT_RECALL_OPTIONS, LexicalIndex, QuestionRecall } from '../../src/search/recall.js';
import type { SnapshotTable } from '../../src/search/index.js';
import { entity, join, modelOf, snapshotOf, table } from './fixture.js';

/** A model that reads only the bias and the offer's join score to the core. */
function joinScoreModel(bias: number, perJoinScore: number): AlternateWeights {
  const weights = ALTERNATE_FEATURES.map((name) => (name === 'bias' ? bias : name === 'joinScore' ? perJoinScore : 0));
  return { features: [...ALTERNATE_FEATURES], weights };
}

/**
 * `orders` joins two same-named `customer` tables: `customer@b` by a strong key edge (the core
 * takes it), `customer@a` by a weak one (an alternate). `region` joins `orders` strongly and no
 * question word names it: the last stage offers it, when the budget has room.
 */
function lake() {
  const renamed = (t: SnapshotTable, id: string, uri: string): SnapshotTable => ({ ...t, id, uri, columns: t.columns.map((c) => ({ ...c, id: `${id}.${c.name}`, tableId: id })) });
  const orders = table('orders', ['order_id', 'customer_id', 'region_id', 'amount']);
  const weak = renamed(table('customer', ['customer_id', 'customer_name']), 'customer@a', '/lake/a/customer.csv');
  const strong = renamed(table('customer', ['customer_id', 'customer_name']), 'customer@b', '/lake/b/customer.csv');
  const region = table('region', ['region_id', 'label']);
  const snapshot = snapshotOf([orders, weak, strong, region], [join(orders, weak, 'customer_id', 0.5), join(orders, strong, 'customer_id', 0.9), join(orders, region, 'region_id', 0.9)]);
  const model = modelOf(snapshot, [entity('e0', 'orders'), entity('e1', 'customer')]);
  const recall = new QuestionRecall(LexicalIndex.of(snapshot), 'amount of the orders with the customer name', { ...DEFAULT_RECALL_OPTIONS, synonyms: false, wordVectors: false });
  return { model, recall };
}

describe('alternate confidence: the model', () => {
  it('the stored weights name the features the code computes, in order', () => {
    expect(ALTERNATE_WEIGHTS.features).toEqual([...ALTERNATE_FEATURES]);
    expect(ALTERNATE_WEIGHTS.weights).toHaveLength(ALTERNATE_FEATURES.length);
    const features = alternateFeatures({ stage: 'lookup', joinScore: 0.6, linked: true, unionToCore: false, relevance: 3, sameName: false, coverageGain: 0.1, position: 2, coreCoverage: 0.8, coreTables: 2, candidateScore: 0, nameShare: 0.5 });
    expect(features).toHaveLength(ALTERNATE_FEATURES.length);
    expect(features[ALTERNATE_FEATURES.indexOf('stage:lookup')]).toBe(1);
    expect(features[ALTERNATE_FEATURES.indexOf('relevance')]).toBe(2); // capped
  });

  it('refuses weights that do not match the features', () => {
    expect(() => alternateConfidence([1, 2], { features: ['bias'], weights: [0] })).toThrow(/1 weights for 2 features/);
  });

  it('fitLogistic recovers the weights that generated the labels', () => {
    // Deterministic pseudo-random features; labels drawn from a known logistic model.
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const truth = [-1, 2.5, -1.5];
    const x: number[][] = [];
    const y: number[] = [];
    for (let i = 0; i < 4000; i++) {
      const row = [1, rand() * 2 - 1, rand() * 2 - 1];
      x.push(row);
      y.push(rand() < alternateConfidence(row, { features: [], weights: truth }) ? 1 : 0);
    }
    const w = fitLogistic(x, y, { l2: 0.1 });
    w.forEach((wi, i) => expect(Math.abs(wi - truth[i])).toBeLessThan(0.3));
  });
});

describe('alternate confidence: the choice', () => {
  it('records every offer with its evidence, and keeps only those that clear the floor', () => {
    const { model, recall } = lake();
    const alternateModel = joinScoreModel(-5, 10); // join score 0.5 -> 0.5, 0.9 -> 0.98
    const all = chooseSynthesis(model, recall, { budget: 3 }, { alternateModel, minAlternateConfidence: 0 });
    expect([...all.core].sort()).toEqual(['customer@b', 'orders']);
    expect(all.alternates).toEqual(['customer@a']);
    const offer = all.offers.find((o) => o.tables.includes('customer@a'))!;
    expect(offer.evidence).toMatchObject({ joinScore: 0.5, linked: true, sameName: true, position: 0, coreTables: 2 });
    expect(offer.confidence).toBeCloseTo(0.5, 6);
    const strict = chooseSynthesis(model, recall, { budget: 3 }, { alternateModel, minAlternateConfidence: 0.6 });
    expect(strict.core).toEqual(all.core);
    expect(strict.alternates).not.toContain('customer@a');
    expect(strict.offers.map((o) => o.tables)).toContainEqual(['customer@a']);
  });

  it('an offer refused leaves its room to a later, likelier one', () => {
    const { model, recall } = lake();
    const alternateModel = joinScoreModel(-5, 7); // 0.5 -> 0.18, 0.9 -> 0.79
    expect(chooseSynthesis(model, recall, { budget: 3 }, { alternateModel, minAlternateConfidence: 0 }).alternates).toEqual(['customer@a']);
    const choice = chooseSynthesis(model, recall, { budget: 3 }, { alternateModel, minAlternateConfidence: 0.5 });
    expect(choice.alternates).toEqual(['region']);
    expect(choice.offers.map((o) => [o.tables[0], o.evidence.stage])).toEqual([
      ['customer@a', expect.any(String)],
      ['region', 'strong-join'],
    ]);
  });
});
