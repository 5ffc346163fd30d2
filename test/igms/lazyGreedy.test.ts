import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  IgmsState,
  lazyGreedy,
  PieceIgmsState,
  plainGreedy,
  unitOf,
  type GreedyOptions,
  type PieceUnit,
} from '../../src/igms/index.js';
import { gaussianInstanceArb, pieceInstanceArb, type PieceInstance } from './generators.js';

function pieceOptions(inst: PieceInstance, budget: number, extra: Partial<GreedyOptions<PieceUnit, PieceIgmsState>> = {}) {
  return {
    budget,
    state: new PieceIgmsState(inst.numAtoms, inst.options),
    gainOf: (s: PieceIgmsState, u: PieceUnit) => s.gain(u),
    commit: (s: PieceIgmsState, u: PieceUnit) => {
      s.add(u);
    },
    ...extra,
  };
}

describe('lazyGreedy', () => {
  it('selects exactly what plain greedy selects on random content-piece instances (prior on and off)', () => {
    fc.assert(
      fc.property(pieceInstanceArb({ maxUnits: 9, maxAtoms: 5 }), fc.integer({ min: 0, max: 9 }), (inst, budget) => {
        const lazy = lazyGreedy(inst.units, pieceOptions(inst, budget));
        const plain = plainGreedy(inst.units, pieceOptions(inst, budget));
        expect(lazy.picks.map((p) => p.index)).toEqual(plain.picks.map((p) => p.index));
        lazy.picks.forEach((p, k) => expect(p.gain).toBeCloseTo(plain.picks[k].gain, 12));
        expect(lazy.stoppedBy).toBe(plain.stoppedBy);
        expect(lazy.total).toBeCloseTo(lazy.state.value(), 10);
        expect(lazy.evaluations).toBeLessThanOrEqual(plain.evaluations);
        expect(lazy.picks.length).toBeLessThanOrEqual(budget);
      }),
      { numRuns: 300 },
    );
  });

  it('agrees with plain greedy under a feasibility constraint that depends on the picks (connectivity)', () => {
    fc.assert(
      fc.property(
        pieceInstanceArb({ minUnits: 3, maxUnits: 9, maxAtoms: 4 }),
        fc.array(fc.tuple(fc.nat(8), fc.nat(8)), { maxLength: 20 }),
        fc.integer({ min: 1, max: 6 }),
        (inst, rawEdges, budget) => {
          const n = inst.units.length;
          const adj = Array.from({ length: n }, () => new Set<number>());
          for (const [x, y] of rawEdges) {
            if (x < n && y < n && x !== y) {
              adj[x].add(y);
              adj[y].add(x);
            }
          }
          // first pick anywhere, then only neighbours of something already picked
          const feasible = (_u: PieceUnit, index: number, picks: ReadonlyArray<{ index: number }>) =>
            picks.length === 0 || picks.some((p) => adj[p.index].has(index));
          const lazy = lazyGreedy(inst.units, pieceOptions(inst, budget, { feasible }));
          const plain = plainGreedy(inst.units, pieceOptions(inst, budget, { feasible }));
          expect(lazy.picks.map((p) => p.index)).toEqual(plain.picks.map((p) => p.index));
          expect(lazy.stoppedBy).toBe(plain.stoppedBy);
          for (let k = 1; k < lazy.picks.length; k++) {
            expect(lazy.picks.slice(0, k).some((p) => adj[p.index].has(lazy.picks[k].index))).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('works with IgmsState (diagonal noise, submodular) through unitOf, matching plain greedy', () => {
    fc.assert(
      fc.property(gaussianInstanceArb({ maxUnits: 8, diagonal: true }), fc.integer({ min: 1, max: 8 }), ({ M, C, prior, numAtoms, n }, budget) => {
        const candidates = Array.from({ length: n }, (_, i) => i);
        const opts = () => ({
          budget,
          state: new IgmsState(numAtoms, { prior }),
          gainOf: (s: IgmsState, i: number) => s.gain(unitOf(M, C, i, s.selectedIds as number[])),
          commit: (s: IgmsState, i: number) => {
            s.add(unitOf(M, C, i, s.selectedIds as number[]));
          },
        });
        const lazy = lazyGreedy(candidates, opts());
        const plain = plainGreedy(candidates, opts());
        expect(lazy.picks.map((p) => p.index)).toEqual(plain.picks.map((p) => p.index));
      }),
      { numRuns: 150 },
    );
  });

  it('saves evaluations on a larger instance', () => {
    // 60 units over 8 atoms, each supporting one or two atoms, some sharing content.
    const units: PieceUnit[] = Array.from({ length: 60 }, (_, i) => {
      const support = new Array<number>(8).fill(0);
      support[i % 8] = 0.3 + ((i * 37) % 70) / 100;
      if (i % 3 === 0) support[(i + 3) % 8] = 0.5;
      return { id: `t${i}`, support, content: [{ piece: `c${i % 20}` }] };
    });
    const inst: PieceInstance = { numAtoms: 8, units, options: {} };
    const lazy = lazyGreedy(units, pieceOptions(inst, 6));
    const plain = plainGreedy(units, pieceOptions(inst, 6));
    expect(lazy.picks.map((p) => p.index)).toEqual(plain.picks.map((p) => p.index));
    expect(lazy.picks).toHaveLength(6);
    expect(lazy.evaluations).toBeLessThan(plain.evaluations / 2);
  });

  it('stops on budget, on minGain, and when candidates run out', () => {
    const units: PieceUnit[] = [
      { id: 'strong', support: [1, 1] },
      { id: 'weak', support: [0.1, 0] },
      { id: 'nothing', support: [0, 0] },
    ];
    const inst: PieceInstance = { numAtoms: 2, units, options: {} };
    const byBudget = lazyGreedy(units, pieceOptions(inst, 1));
    expect(byBudget.stoppedBy).toBe('budget');
    expect(byBudget.picks.map((p) => p.candidate.id)).toEqual(['strong']);

    const byGain = lazyGreedy(units, pieceOptions(inst, 3, { minGain: 0.01 }));
    expect(byGain.stoppedBy).toBe('minGain');
    expect(byGain.picks.map((p) => p.candidate.id)).toEqual(['strong']);

    // the default minGain refuses a zero-gain unit
    const byDefault = lazyGreedy(units, pieceOptions(inst, 3));
    expect(byDefault.picks.map((p) => p.candidate.id)).toEqual(['strong', 'weak']);
    expect(byDefault.stoppedBy).toBe('minGain');

    const exhausted = lazyGreedy(units.slice(0, 2), pieceOptions(inst, 5));
    expect(exhausted.stoppedBy).toBe('exhausted');
    expect(() => lazyGreedy(units, pieceOptions(inst, -1))).toThrow(/budget/);
  });

  it('accepts a commit that returns a new state instead of mutating', () => {
    const values = [3, 1, 2];
    type Sum = { total: number; used: Set<number> };
    const result = lazyGreedy(values, {
      budget: 2,
      state: { total: 0, used: new Set<number>() } as Sum,
      gainOf: (_s, v) => v,
      commit: (s, v, i) => ({ total: s.total + v, used: new Set([...s.used, i]) }),
    });
    expect(result.picks.map((p) => p.candidate)).toEqual([3, 2]);
    expect(result.state.total).toBe(5);
  });
});
