import { describe, expect, it } from 'vitest';
import { ALTERNATE_FEATURES, alternateConfidence, alternateFeatures, fitBoostedTrees, type AlternateEvidence, type AlternateModel } from '../../src/search/alternateConfidence.js';
import { ALTERNATE_MODEL } from '../../src/search/alternateModel.js';
import { chooseSynthesis, keptOffers } from '../../src/search/candidates.js';
import { DEFAULT_RECALL_OPTIONS, LexicalIndex, QuestionRecall } from '../../src/search/recall.js';
import type { SnapshotTable } from '../../src/search/index.js';
import { entity, join, modelOf, snapshotOf, table } from './fixture.js';

const logit = (p: number) => Math.log(p / (1 - p));

/** One split on the offer's join score to the core: confidence `below` under `threshold`, `above` from it. */
function joinScoreModel(threshold: number, below: number, above: number): AlternateModel {
  const tree = [ALTERNATE_FEATURES.indexOf('joinScore'), threshold, 1, 2, -1, logit(below), 0, 0, -1, logit(above), 0, 0];
  return { features: [...ALTERNATE_FEATURES], base: 0, learningRate: 1, trees: [tree] };
}

/**
 * `orders` joins two same-named `customer` tables: `customer@b` by a strong key edge (the core
 * takes it), `customer@a` by a weak one (an alternate). `region` joins `orders` strongly and no
 * question word names it: the last stage offers it.
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

/** An offer's evidence with the given fields, the rest neutral. */
function evidence(e: Partial<AlternateEvidence>): AlternateEvidence {
  return {
    stage: 'relevant', joinScore: 0, linked: false, unionToCore: false, relevance: 0, sameName: false, coverageGain: 0, position: 0, coreCoverage: 1, coreTables: 1,
    candidateScore: 0, nameShare: 0, referencedByCore: 0, referencedByNamedColumn: 0, refersToCore: 0, nameGain: 0, relevanceRank: 0, tables: 1, name: 't', ...e,
  };
}

describe('alternate confidence: the model', () => {
  it('the stored model names the features the code computes, in order, and its trees read only those', () => {
    expect(ALTERNATE_MODEL.features).toEqual([...ALTERNATE_FEATURES]);
    expect(ALTERNATE_MODEL.trees.length).toBeGreaterThan(0);
    for (const tree of ALTERNATE_MODEL.trees) for (let n = 0; n < tree.length; n += 4) expect(tree[n]).toBeLessThan(ALTERNATE_FEATURES.length);
  });

  it('reads each offer and where it stands among the question\'s others', () => {
    const rows = alternateFeatures([
      evidence({ stage: 'lookup', name: 'customer', joinScore: 0.5, relevance: 3, tables: 2 }),
      evidence({ name: 'customer', joinScore: 0.9, relevance: 1 }),
      evidence({ name: 'region', relevance: 0.5, coverageGain: 0.2 }),
    ]);
    const at = (row: number, name: (typeof ALTERNATE_FEATURES)[number]) => rows[row][ALTERNATE_FEATURES.indexOf(name)];
    expect(rows.every((r) => r.length === ALTERNATE_FEATURES.length)).toBe(true);
    expect(at(0, 'stage:lookup')).toBe(1);
    expect(at(0, 'relevance')).toBe(2); // capped
    expect(at(0, 'log(tables)')).toBeCloseTo(Math.log(2), 12);
    expect(at(0, 'log(offers of its name)')).toBeCloseTo(Math.log(2), 12);
    expect(at(2, 'log(offers of its name)')).toBe(0);
    // Of the two customers, the second joins the core more strongly.
    expect([at(0, 'strongest join of its name'), at(1, 'strongest join of its name'), at(2, 'strongest join of its name')]).toEqual([0, 1, 1]);
    expect([at(0, 'offers more relevant'), at(1, 'offers more relevant'), at(2, 'offers more relevant')]).toEqual([0, 1, 2]);
    expect([at(0, 'offers adding more'), at(2, 'offers adding more')]).toEqual([1, 0]);
    expect(at(2, 'relevance below the best offer')).toBeCloseTo(-1.5, 12);
    expect(at(1, 'offers')).toBe(3);
  });

  it('refuses a row whose length is not the model\'s', () => {
    expect(() => alternateConfidence([1, 2], ALTERNATE_MODEL)).toThrow(/reads 26 features, given 2/);
  });

  it('fitBoostedTrees learns what two features say together, and fits the same trees twice', () => {
    // Deterministic pseudo-random features; a needed table mostly where both a and b are high.
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const truth = (a: number, b: number) => (a > 0.5 && b > 0.5 ? 0.6 : 0.05);
    const x: number[][] = [];
    const y: number[] = [];
    for (let i = 0; i < 6000; i++) {
      const row = [rand(), rand(), rand()];
      x.push(row);
      y.push(rand() < truth(row[0], row[1]) ? 1 : 0);
    }
    const features = ['a', 'b', 'noise'];
    const model = fitBoostedTrees(x, y, features, { trees: 60, depth: 2 });
    expect(model.features).toEqual(features);
    for (const [a, b] of [[0.2, 0.2], [0.2, 0.8], [0.8, 0.2], [0.8, 0.8]]) expect(Math.abs(alternateConfidence([a, b, 0.5], model) - truth(a, b))).toBeLessThan(0.06);
    expect(fitBoostedTrees(x, y, features, { trees: 60, depth: 2 })).toEqual(model);
    expect(() => fitBoostedTrees(x, y, ['a', 'b'])).toThrow(/the 2 features named/);
  });
});

describe('alternate confidence: the choice', () => {
  it('records every offer with its evidence, and keeps only those that clear the floor', () => {
    const { model, recall } = lake();
    const alternateModel = joinScoreModel(0.7, 0.3, 0.9);
    const all = chooseSynthesis(model, recall, { budget: 4 }, { alternateModel, minAlternateConfidence: 0 });
    expect([...all.core].sort()).toEqual(['customer@b', 'orders']);
    // Most likely first: the strong join before the weak one.
    expect(all.alternates.flatMap((o) => o.tables)).toEqual(['region', 'customer@a']);
    // The kept alternates are offers, with the confidence each was kept on.
    expect(all.alternates.every((o) => all.offers.includes(o))).toBe(true);
    const offer = all.offers.find((o) => o.tables.includes('customer@a'))!;
    expect(offer.evidence).toMatchObject({ joinScore: 0.5, linked: true, sameName: true, position: 0, coreTables: 2, referencedByCore: 0.5, refersToCore: 0, name: 'customer', tables: 1 });
    expect(offer.features).toHaveLength(ALTERNATE_FEATURES.length);
    expect(offer.confidence).toBeCloseTo(0.3, 6);
    const region = all.offers.find((o) => o.tables.includes('region'))!;
    expect(region.evidence).toMatchObject({ stage: 'strong-join', referencedByCore: 0.9, referencedByNamedColumn: 0 });
    const strict = chooseSynthesis(model, recall, { budget: 4 }, { alternateModel, minAlternateConfidence: 0.5 });
    expect(strict.core).toEqual(all.core);
    expect(strict.alternates.flatMap((o) => o.tables)).toEqual(['region']);
    expect(strict.offers.map((o) => o.tables)).toContainEqual(['customer@a']);
  });

  it('keptOffers: most likely first, down to the floor, each that fits what is left of the room', () => {
    const offers = [
      { tables: ['a', 'a2'], confidence: 0.3 },
      { tables: ['b'], confidence: 0.9 },
      { tables: ['c'], confidence: 0.5 },
      { tables: ['d'], confidence: 0.01 },
    ];
    expect(keptOffers(offers, 3, 0.02)).toEqual([1, 2]); // `a` and its shard no longer fit
    expect(keptOffers(offers, 4, 0.02)).toEqual([1, 2, 0]);
    expect(keptOffers(offers, 5, 0)).toEqual([1, 2, 0, 3]);
    expect(keptOffers(offers, 5, 0.6)).toEqual([1]);
    expect(keptOffers(offers, 0, 0)).toEqual([]);
  });

  it('a smaller budget takes the likeliest offers, and a larger one more of the same ranking', () => {
    const { model, recall } = lake();
    const alternateModel = joinScoreModel(0.7, 0.3, 0.9);
    const small = chooseSynthesis(model, recall, { budget: 3 }, { alternateModel, minAlternateConfidence: 0 });
    const large = chooseSynthesis(model, recall, { budget: 4 }, { alternateModel, minAlternateConfidence: 0 });
    // `region` is offered last (the strong joins' stage) and taken first.
    expect(small.offers.map((o) => o.tables[0])).toEqual(['customer@a', 'region']);
    expect(small.alternates.flatMap((o) => o.tables)).toEqual(['region']);
    expect(large.alternates.slice(0, small.alternates.length)).toEqual(small.alternates);
    expect(large.offers).toEqual(small.offers);
  });
});
