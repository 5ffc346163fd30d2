import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cholesky,
  contentRedundancy,
  expandPieceModel,
  igmsPieceUtility,
  igmsUtility,
  IgmsInputError,
  IgmsState,
  Matrix,
  normalisePieceUnit,
  pieceAtomInformation,
  PieceIgmsState,
  piecesFromSignatures,
  unitOf,
  type PieceUnit,
} from '../../src/igms/index.js';
import { allValues, monotonicityViolation, pieceInstanceArb, submodularityViolation, type PieceInstance } from './generators.js';

const utilityOf = (inst: PieceInstance, subset: number[], withPrior = true) =>
  igmsPieceUtility(
    subset.map((i) => inst.units[i]),
    inst.numAtoms,
    withPrior ? inst.options : { ...inst.options, prior: undefined },
  );

describe('content-piece model: hand cases', () => {
  it('one unit, one atom: d = m²/(s0² + ψ m²); at m = 1, ψ = 1 this is log(1 + 1/(1 + s0²))', () => {
    for (const s0 of [0.5, 1, 2]) {
      for (const m of [0.2, 0.6, 1]) {
        const u: PieceUnit = { id: 't', support: [m] };
        const d = (m * m) / (s0 * s0 + m * m);
        expect(igmsPieceUtility([u], 1, { noiseScale: s0 })).toBeCloseTo(Math.log1p(d), 12);
      }
      expect(igmsPieceUtility([{ id: 't', support: [1] }], 1, { noiseScale: s0 })).toBeCloseTo(Math.log(1 + 1 / (1 + s0 * s0)), 12);
    }
  });

  it('how a unit splits its content into pieces does not change its value alone', () => {
    const support = [0.8, 0.3];
    const whole = igmsPieceUtility([{ id: 't', support, content: [{ piece: 'all' }] }], 2);
    const split = igmsPieceUtility(
      [{ id: 't', support, content: [{ piece: 'a', mass: 0.25 }, { piece: 'b', mass: 0.5 }, { piece: 'c', mass: 0.25 }] }],
      2,
    );
    expect(split).toBeCloseTo(whole, 12);
  });

  it('two identical units with perfect redundancy are worth one unit (exactly in the limit s0 → 0)', () => {
    const u: PieceUnit = { id: 'a', support: [1, 0.6], content: [{ piece: 'rows' }] };
    const copy: PieceUnit = { ...u, id: 'b' };
    const opts = { noiseScale: 1e-3 };
    const one = igmsPieceUtility([u], 2, opts);
    expect(igmsPieceUtility([u, copy], 2, opts) - one).toBeLessThan(1e-5);
    expect(one).toBeGreaterThan(0.3);
  });

  it('two complementary units supporting different atoms add up', () => {
    const a: PieceUnit = { id: 'a', support: [0.9, 0], content: [{ piece: 'x' }] };
    const b: PieceUnit = { id: 'b', support: [0, 0.7], content: [{ piece: 'x' }] };
    expect(igmsPieceUtility([a, b], 2)).toBeCloseTo(igmsPieceUtility([a], 2) + igmsPieceUtility([b], 2), 12);
  });

  it('disjoint row shards with the same support add their evidence; copies saturate', () => {
    const shard1: PieceUnit = { id: 's1', support: [1], content: [{ piece: 'rows-1' }] };
    const shard2: PieceUnit = { id: 's2', support: [1], content: [{ piece: 'rows-2' }] };
    const copy: PieceUnit = { id: 'c', support: [1], content: [{ piece: 'rows-1' }] };
    const single = pieceAtomInformation([shard1], 1)[0];
    expect(single).toBeCloseTo(0.5, 12);
    expect(pieceAtomInformation([shard1, shard2], 1)[0]).toBeCloseTo(2 * single, 12);
    expect(pieceAtomInformation([shard1, copy], 1)[0]).toBeCloseTo(2 / 3, 12);
    // defaults: a copy gains less than half of what a complementary shard gains
    const base = igmsPieceUtility([shard1], 1);
    const dupGain = igmsPieceUtility([shard1, copy], 1) - base;
    const shardGain = igmsPieceUtility([shard1, shard2], 1) - base;
    expect(dupGain).toBeLessThan(0.5 * shardGain);
  });

  it('contentNoise = 0 switches the redundancy discount off (copies count like shards)', () => {
    const u: PieceUnit = { id: 'a', support: [0.7], content: [{ piece: 'p' }] };
    const copy: PieceUnit = { ...u, id: 'b' };
    const shard: PieceUnit = { id: 'c', support: [0.7], content: [{ piece: 'q' }] };
    expect(igmsPieceUtility([u, copy], 1, { contentNoise: 0 })).toBeCloseTo(igmsPieceUtility([u, shard], 1, { contentNoise: 0 }), 12);
  });
});

describe('content-piece model is the Gaussian IGMS formula on its cell-level (M, C)', () => {
  it('igmsPieceUtility == igmsUtility(expandPieceModel(...)), with and without the prior; C is PD', () => {
    fc.assert(
      fc.property(pieceInstanceArb({ maxUnits: 5, maxAtoms: 3 }), (inst) => {
        const { M, C, cells } = expandPieceModel(inst.units, inst.numAtoms, inst.options);
        if (cells.length > 0) expect(() => cholesky(Matrix.fromRows(C))).not.toThrow();
        const viaCells = igmsUtility({ M, C, prior: inst.options.prior, numAtoms: inst.numAtoms });
        expect(Math.abs(igmsPieceUtility(inst.units, inst.numAtoms, inst.options) - viaCells)).toBeLessThan(1e-9);
      }),
      { numRuns: 200 },
    );
  });

  it('PieceIgmsState (incremental) matches the batch value and IgmsState fed the same cells, unit by unit', () => {
    fc.assert(
      fc.property(pieceInstanceArb({ maxUnits: 5, maxAtoms: 3 }), (inst) => {
        const { M, C, cells } = expandPieceModel(inst.units, inst.numAtoms, inst.options);
        const pieceState = new PieceIgmsState(inst.numAtoms, inst.options);
        const cellState = new IgmsState(inst.numAtoms, { prior: inst.options.prior });
        const chosenCells: number[] = [];
        inst.units.forEach((u, k) => {
          const g = pieceState.gain(u);
          expect(pieceState.size).toBe(k);
          expect(pieceState.add(u)).toBe(g);
          cells.forEach((c, r) => {
            if (c.unit !== u.id) return;
            cellState.add(unitOf(M, C, r, chosenCells));
            chosenCells.push(r);
          });
          const batch = igmsPieceUtility(inst.units.slice(0, k + 1), inst.numAtoms, inst.options);
          expect(Math.abs(pieceState.value() - batch)).toBeLessThan(1e-9);
          expect(Math.abs(cellState.value() - batch)).toBeLessThan(1e-9);
        });
        expect(pieceState.selectedIds).toEqual(inst.units.map((u) => u.id));
      }),
      { numRuns: 200 },
    );
  });

  it('one state scoring many sets: reset + addAll (raw or pre-normalised units) gives igmsPieceUtility bit for bit; clones stay independent', () => {
    fc.assert(
      fc.property(pieceInstanceArb({ maxUnits: 5, maxAtoms: 3 }), fc.array(fc.array(fc.nat(4), { maxLength: 5 }), { minLength: 1, maxLength: 6 }), (inst, sets) => {
        const state = new PieceIgmsState(inst.numAtoms, inst.options);
        const normalised = inst.units.map((u) => normalisePieceUnit(u, inst.numAtoms));
        for (const raw of sets) {
          const subset = [...new Set(raw.map((i) => i % inst.units.length))];
          const batch = igmsPieceUtility(
            subset.map((i) => inst.units[i]),
            inst.numAtoms,
            inst.options,
          );
          state.reset();
          state.addAll(subset.map((i) => normalised[i]));
          expect(state.value()).toBe(batch);
          expect(state.selectedIds).toEqual(subset.map((i) => inst.units[i].id));
          const copy = state.clone();
          state.reset();
          state.addAll(subset.map((i) => inst.units[i]));
          expect(state.value()).toBe(batch);
          copy.reset();
          expect(copy.value()).toBe(0);
          expect(state.value()).toBe(batch);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('content-piece model: properties on random instances', () => {
  it('is monotone: U(S ∪ {x}) >= U(S), GMRF prior on and off', () => {
    fc.assert(
      fc.property(pieceInstanceArb(), (inst) => {
        const n = inst.units.length;
        for (const withPrior of [false, true]) {
          const values = allValues(n, (S) => utilityOf(inst, S, withPrior));
          expect(monotonicityViolation(values, n)).toBeLessThanOrEqual(1e-12);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('is submodular: gain(x | S) >= gain(x | T) for S ⊆ T, GMRF prior on and off', () => {
    fc.assert(
      fc.property(pieceInstanceArb(), (inst) => {
        const n = inst.units.length;
        for (const withPrior of [false, true]) {
          const values = allValues(n, (S) => utilityOf(inst, S, withPrior));
          expect(submodularityViolation(values, n)).toBeLessThanOrEqual(1e-12);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('suppresses redundancy: an exact duplicate gains no more than an independent unit with the same support and content structure', () => {
    fc.assert(
      fc.property(pieceInstanceArb({ minUnits: 1, maxUnits: 4 }), fc.nat(), (inst, pick) => {
        const n = inst.units.length;
        const k = pick % n;
        // give the target explicit content so that "duplicate" really shares it
        const content = inst.units[k].content?.length ? inst.units[k].content! : [{ piece: `own-${k}`, mass: 1 }];
        const units = inst.units.map((u, i) => (i === k ? { ...u, content } : u));
        const state = new PieceIgmsState(inst.numAtoms, inst.options);
        for (const u of units) state.add(u); // the context S contains the original
        const duplicate: PieceUnit = { ...units[k], id: 'duplicate' };
        const independent: PieceUnit = {
          id: 'independent',
          support: units[k].support,
          content: content.map((p, t) => ({ piece: `fresh-${t}`, mass: p.mass })),
        };
        const dup = state.gain(duplicate);
        const ind = state.gain(independent);
        expect(dup).toBeLessThanOrEqual(ind + 1e-12);
        expect(dup).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 300 },
    );
  });

  it('per atom, a duplicate adds 1/(1 + 2ψπ) of what an independent unit adds (π = m²/s0²)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.05, max: 1, noNaN: true }),
        fc.double({ min: 0.3, max: 2, noNaN: true }),
        fc.double({ min: 0.1, max: 4, noNaN: true }),
        (m, s0, psi) => {
          const opts = { noiseScale: s0, contentNoise: psi };
          const orig: PieceUnit = { id: 'o', support: [m], content: [{ piece: 'p' }] };
          const d1 = pieceAtomInformation([orig], 1, opts)[0];
          const dDup = pieceAtomInformation([orig, { ...orig, id: 'd' }], 1, opts)[0];
          const dInd = pieceAtomInformation([orig, { id: 'i', support: [m], content: [{ piece: 'q' }] }], 1, opts)[0];
          const pi = (m * m) / (s0 * s0);
          expect((dDup - d1) / (dInd - d1)).toBeCloseTo(1 / (1 + 2 * psi * pi), 10);
        },
      ),
    );
  });

  it('suppresses redundancy strongly for strongly supporting units with the default noise (duplicate < half an independent unit)', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0.75, max: 1, noNaN: true }), { minLength: 1, maxLength: 5 }), (support) => {
        const a = support.length;
        const orig: PieceUnit = { id: 'o', support, content: [{ piece: 'p' }] };
        const base = igmsPieceUtility([orig], a);
        const dup = igmsPieceUtility([orig, { ...orig, id: 'd' }], a) - base;
        const ind = igmsPieceUtility([orig, { id: 'i', support, content: [{ piece: 'q' }] }], a) - base;
        expect(dup).toBeLessThan(0.5 * ind);
      }),
    );
  });
});

describe('content-piece model: inputs', () => {
  it('validates ids, supports and piece masses, naming the field', () => {
    expect(() => igmsPieceUtility([{ id: 'a', support: [1.2] }], 1)).toThrow(/^units\[0\]\.support\[0\]: must be in \[0,1\]/);
    expect(() => igmsPieceUtility([{ id: 'a', support: [1, 0] }], 1)).toThrow(/^units\[0\]\.support: expected 1/);
    expect(() =>
      igmsPieceUtility(
        [
          { id: 'a', support: [1] },
          { id: 'a', support: [1] },
        ],
        1,
      ),
    ).toThrow(/duplicate id "a"/);
    expect(() =>
      igmsPieceUtility(
        [
          { id: 'a', support: [1], content: [{ piece: 'p', mass: 1 }] },
          { id: 'b', support: [1], content: [{ piece: 'p', mass: 2 }] },
        ],
        1,
      ),
    ).toThrow(IgmsInputError);
    expect(() => igmsPieceUtility([{ id: 'a', support: [1], content: [{ piece: 'p' }, { piece: 'p' }] }], 1)).toThrow(/listed twice/);
    expect(() => new PieceIgmsState(1, { noiseScale: 0 })).toThrow(/noiseScale/);
  });

  it('state: gain of a selected unit is 0, adding it again throws, clone is independent', () => {
    const u: PieceUnit = { id: 'a', support: [1] };
    const s = new PieceIgmsState(1);
    s.add(u);
    expect(s.gain(u)).toBe(0);
    expect(() => s.add(u)).toThrow(/already selected/);
    const c = s.clone();
    c.add({ id: 'b', support: [1] });
    expect(s.size).toBe(1);
    expect(c.size).toBe(2);
    expect(s.value()).toBeCloseTo(Math.log(1.5), 12);
    expect(() => s.gain({ id: 'z', support: [1], content: [{ piece: '\u0000private:a', mass: 3 }] })).toThrow(/differs/);
  });

  it('contentRedundancy is 1 for identical content, 0 for disjoint, and tracks MinHash Jaccard via piecesFromSignatures', () => {
    const a: PieceUnit = { id: 'a', support: [1], content: [{ piece: 'x' }, { piece: 'y' }] };
    expect(contentRedundancy(a, { ...a, id: 'b' })).toBeCloseTo(1, 12);
    expect(contentRedundancy(a, { id: 'c', support: [1], content: [{ piece: 'z' }] })).toBe(0);
    expect(contentRedundancy(a, { id: 'd', support: [1] })).toBe(0);
    const sigA = [5, 6, 7, 8];
    const sigB = [5, 6, 9, 10]; // half the slots agree: Jaccard estimate 0.5
    const pa = piecesFromSignatures([sigA]);
    expect(pa).toHaveLength(4);
    expect(pa[0]).toEqual({ piece: '0:5', mass: 0.25 });
    expect(contentRedundancy({ id: 'a', support: [1], content: pa }, { id: 'b', support: [1], content: piecesFromSignatures([sigB]) })).toBeCloseTo(0.5, 12);
    expect(piecesFromSignatures([[2147483647, 3]])).toEqual([{ piece: '1:3', mass: 0.5 }]);
  });
});
