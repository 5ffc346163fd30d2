import { describe, expect, it } from 'vitest';
import { crossValidate, encodeColumn, groupFolds } from '../../src/enrich/bench/predictor.js';
import { mulberry32 } from '../../src/util/prng.js';

const rand = mulberry32(11);
const noise = Array.from({ length: 400 }, () => rand());

describe('the benchmark predictor (ml-random-forest, grouped k-fold)', () => {
  it('classifies a class that one feature separates perfectly', () => {
    const rows = noise.map((x, i) => ({ id: i, x, label: x > 0.5 ? 'high' : 'low' }));
    const r = crossValidate({ rows, target: 'label', keys: ['id'] }, { task: 'classification' });
    expect(r.value).toBeGreaterThanOrEqual(0.99);
    expect(r.rows).toBe(400);
    expect(r.features).toEqual(['x']);
  });

  it('regresses a target a category determines up to uniform noise: RMSE is the noise (1/sqrt(12) = 0.289)', () => {
    // (ml-cart never takes a split that leaves zero error, so the noise is needed, not decoration.)
    const rows = noise.map((u, i) => ({ id: i, group: ['a', 'b', 'c'][i % 3], y: [3, 7, 11][i % 3]! + u - 0.5 }));
    const r = crossValidate({ rows, target: 'y', keys: ['id'] }, { task: 'regression' });
    expect(r.value).toBeGreaterThan(0.25);
    expect(r.value).toBeLessThan(0.33);
  });

  it('without features predicts the training mean: RMSE of a fair coin 0/1 target is 0.5 up to fold means', () => {
    const rows = noise.map((_, i) => ({ id: i, y: i % 2 }));
    const r = crossValidate({ rows, target: 'y', keys: ['id'] }, { task: 'regression' });
    expect(r.features).toEqual([]);
    expect(r.value).toBeGreaterThan(0.5 - 1e-9);
    expect(r.value).toBeLessThan(0.51);
  });

  it('grouped folds: copies of a row (a fan-out) cannot be memorised across folds', () => {
    // Pure noise target; a per-row code would let a forest memorise duplicates if they were split.
    const once = noise.map((y, i) => ({ id: i, code: i, y }));
    const twice = [...once, ...once];
    // Trees grown on every training row, so that a split copy would be memorised.
    const opts = { task: 'regression' as const, treeSamples: 1000 };
    const a = crossValidate({ rows: once, target: 'y', keys: ['id'] }, opts);
    const b = crossValidate({ rows: twice, target: 'y', keys: ['id'] }, opts);
    const ungrouped = crossValidate({ rows: twice.map((r, i) => ({ ...r, id: i })), target: 'y', keys: ['id'] }, opts);
    expect(b.value).toBeGreaterThan(0.9 * a.value);
    expect(ungrouped.value).toBeLessThan(0.8 * b.value);
  });

  it('drops rows without the target and is deterministic by seed', () => {
    const rows = noise.map((x, i) => ({ id: i, x, y: i % 10 === 0 ? null : x * 2 }));
    const a = crossValidate({ rows, target: 'y', keys: ['id'] }, { task: 'regression', seed: 3 });
    const b = crossValidate({ rows, target: 'y', keys: ['id'] }, { task: 'regression', seed: 3 });
    expect(a.rows).toBe(360);
    expect(a.value).toBe(b.value);
  });

  it('encodes text by rank and fills missing numbers with the mean; folds keep groups together', () => {
    expect(encodeColumn(['b', 'a', null, 'b'])).toEqual([1, 0, -1, 1]);
    expect(encodeColumn([1, null, 3])).toEqual([1, 2, 3]);
    const folds = groupFolds(['k1', 'k2', 'k1', 'k3', 'k2'], 2, 7);
    expect(folds[0]).toBe(folds[2]);
    expect(folds[1]).toBe(folds[4]);
    expect(groupFolds(['k1', 'k2', 'k1', 'k3', 'k2'], 2, 7)).toEqual(folds);
  });

  it('refuses too few labelled rows and an unknown target, naming the field', () => {
    expect(() => crossValidate({ rows: [{ id: 1, y: 1 }], target: 'y', keys: ['id'] }, { task: 'regression' })).toThrow(/too few/);
    expect(() => crossValidate({ rows: [{ id: 1, y: 1 }], target: 'z', keys: ['id'] }, { task: 'regression' })).toThrow(/no column z/);
  });
});
