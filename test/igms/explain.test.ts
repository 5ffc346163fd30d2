import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  explainIgms,
  gaussianObjective,
  igmsPieceUtility,
  igmsUtility,
  objectiveValue,
  pieceObjective,
  type PieceUnit,
} from '../../src/igms/index.js';
import { gaussianInstanceArb, pieceInstanceArb } from './generators.js';

describe('explainIgms', () => {
  const units: PieceUnit[] = [
    { id: 'orders', support: [1, 0.3, 0], content: [{ piece: 'orders-rows' }] },
    { id: 'orders_copy', support: [1, 0.3, 0], content: [{ piece: 'orders-rows' }] },
    { id: 'customers', support: [0, 1, 0], content: [{ piece: 'customers-rows' }] },
  ];
  const objective = pieceObjective(units, 3);
  const ex = explainIgms(objective, [0, 1, 2], { atomIds: ['order', 'customer', 'region'] });

  it('reports the determinant terms consistently with the utility', () => {
    expect(ex.atoms).toBe(3);
    expect(ex.logDetPrior).toBeCloseTo(0, 14);
    expect(ex.value).toBeCloseTo((ex.logDetPosterior - ex.logDetPrior) / 3, 14);
    expect(ex.value).toBeCloseTo(igmsPieceUtility(units, 3), 12);
    expect(ex.selected).toEqual(['orders', 'orders_copy', 'customers']);
  });

  it('per-atom support: variance reduction, information gain and the best unit', () => {
    const [order, customer, region] = ex.atomSupport;
    // atom "order": two copies of the same rows, m = 1: d = 2/(1 + 2) = 2/3
    expect(order.posteriorVariance).toBeCloseTo(1 / (1 + 2 / 3), 12);
    expect(order.support).toBeCloseTo(1 - 1 / (1 + 2 / 3), 12);
    expect(order.informationGain).toBeCloseTo(Math.log(1 + 2 / 3), 12);
    expect(order.maxUnitSupport).toBe(1);
    expect(order.bestUnit).toBe('orders');
    expect(customer.bestUnit).toBe('customers');
    expect(region).toMatchObject({ atomId: 'region', support: 0, informationGain: 0, maxUnitSupport: 0, bestUnit: null });
    expect(ex.unsupportedAtoms).toEqual(['region']);
  });

  it('per-unit contributions: greedy gains sum to the value; the copy comes last and loses least', () => {
    const sum = ex.unitContributions.reduce((s, c) => s + c.greedyGain, 0);
    expect(sum).toBeCloseTo(ex.value, 12);
    const byId = Object.fromEntries(ex.unitContributions.map((c) => [c.unitId, c]));
    expect(byId.orders.greedyRank).toBe(0);
    expect(byId.orders_copy.greedyRank).toBe(2);
    expect(byId.orders_copy.leaveOneOutLoss).toBeLessThan(0.5 * byId.customers.leaveOneOutLoss);
    // dropping either copy loses the same
    expect(byId.orders.leaveOneOutLoss).toBeCloseTo(byId.orders_copy.leaveOneOutLoss, 12);
    for (const c of ex.unitContributions) expect(c.leaveOneOutLoss).toBeGreaterThanOrEqual(0);
  });

  it('lists the redundant pair and round-trips through JSON', () => {
    expect(ex.redundantPairs).toEqual([{ a: 'orders', b: 'orders_copy', redundancy: 1 }]);
    expect(JSON.parse(JSON.stringify(ex))).toEqual(ex);
  });

  it('explains the Gaussian form too: value == igmsUtility, redundancy = noise correlation', () => {
    const M = [
      [1, 0],
      [1, 0],
      [0, 0.5],
    ];
    const C = [
      [2, 1.5, 0],
      [1.5, 2, 0],
      [0, 0, 2],
    ];
    const g = explainIgms(gaussianObjective({ M, C, unitIds: ['a', 'b', 'c'] }), [0, 1, 2], { redundancyThreshold: 0.7 });
    expect(g.value).toBeCloseTo(igmsUtility({ M, C }), 12);
    expect(g.redundantPairs).toEqual([{ a: 'a', b: 'b', redundancy: 0.75 }]);
    expect(g.unsupportedAtoms).toEqual([]);
  });

  it('greedy gains always telescope to the value and leave-one-out losses are within [0, value] (random instances)', () => {
    fc.assert(
      fc.property(pieceInstanceArb({ maxUnits: 5 }), (inst) => {
        const obj = pieceObjective(inst.units, inst.numAtoms, inst.options);
        const all = inst.units.map((_, i) => i);
        const e = explainIgms(obj, all);
        expect(e.value).toBeCloseTo(igmsPieceUtility(inst.units, inst.numAtoms, inst.options), 10);
        expect(e.unitContributions.reduce((s, c) => s + c.greedyGain, 0)).toBeCloseTo(e.value, 10);
        for (const c of e.unitContributions) {
          expect(c.leaveOneOutLoss).toBeGreaterThanOrEqual(-1e-12);
          expect(c.leaveOneOutLoss).toBeLessThanOrEqual(e.value + 1e-12);
        }
        for (const s of e.atomSupport) {
          expect(s.support).toBeGreaterThanOrEqual(0);
          expect(s.support).toBeLessThan(1);
        }
      }),
      { numRuns: 100 },
    );
    fc.assert(
      fc.property(gaussianInstanceArb({ maxUnits: 5 }), ({ M, C, prior, numAtoms, n }) => {
        const obj = gaussianObjective({ M, C, prior });
        const all = Array.from({ length: n }, (_, i) => i);
        expect(objectiveValue(obj, all)).toBeCloseTo(igmsUtility({ M, C, prior, numAtoms }), 10);
        const e = explainIgms(obj, all);
        expect(e.unitContributions.reduce((s, c) => s + c.greedyGain, 0)).toBeCloseTo(e.value, 10);
      }),
      { numRuns: 100 },
    );
  });

  it('rejects bad selections and atom ids', () => {
    expect(() => explainIgms(objective, [0, 0])).toThrow(/listed twice/);
    expect(() => explainIgms(objective, [7])).toThrow(/outside/);
    expect(() => explainIgms(objective, [0], { atomIds: ['x'] })).toThrow(/atomIds/);
  });
});
