import { describe, expect, it } from 'vitest';
import {
  admissibleActions,
  anchorRegion,
  beamSearch,
  exactSearch,
  HeuristicValueFunction,
  lazyRerank,
  type BeamOptions,
  type SynthesisModel,
} from '../../src/search/index.js';
import type { LakeSnapshot } from '../../src/search/index.js';
import { attribute, entity, footballLake, isConnected, modelOf, randomLake, relation, subsets } from './fixture.js';

/**
 * Beam search, lazy rerank and GRAFT-Exact on hand-made lakes (test/search/fixture.ts): exact
 * against an independent brute force, beam and rerank against the exact optimum and against
 * facts of the football lake worked out by hand.
 */

/** The best connected set of at most `budget` tables of `pool` by U(S) - minGain |S| (0 for the empty set), by enumerating every subset. */
function bruteForce(model: SynthesisModel, snapshot: LakeSnapshot, pool: string[], budget: number, minGain: number) {
  let best = { tables: [] as string[], objective: 0 };
  for (const s of subsets(pool)) {
    if (s.length === 0 || s.length > budget || !isConnected(snapshot, s)) continue;
    const objective = model.utility(s) - minGain * s.length;
    if (objective > best.objective + 1e-12) best = { tables: s, objective };
  }
  return best;
}

const sorted = (xs: readonly string[]) => [...xs].sort();

const footballAtoms = () => [entity('e0', 'player'), entity('e1', 'club'), attribute('a0', 'name', 'e0'), relation('r0', 'e0', 'e1')];

const BEAM: BeamOptions = { budget: 5, beamWidth: 4, lookaheadHops: 2, shardThreshold: 0.8, maxActionsPerState: 32 };

describe('GRAFT-Exact', () => {
  it('equals brute force on the football lake for every budget and table cost', async () => {
    const f = footballLake();
    const model = modelOf(f.snapshot, footballAtoms());
    const pool = f.snapshot.tables.map((t) => t.id);
    for (const budget of [1, 2, 3, 4, 6]) {
      for (const minGain of [0, 0.005, 0.01, 0.05, 0.2]) {
        const exact = await exactSearch(model, pool, { budget, minGain, maxTables: 10 });
        const brute = bruteForce(model, f.snapshot, pool, budget, minGain);
        expect(exact.objective).toBeCloseTo(brute.objective, 12);
        expect(sorted(exact.tables)).toEqual(sorted(brute.tables));
        expect(exact.utility).toBe(model.utility(exact.tables));
      }
    }
  });

  it('picks what the utilities say on the football lake', async () => {
    const f = footballLake();
    const model = modelOf(f.snapshot, footballAtoms());
    const pool = f.snapshot.tables.map((t) => t.id);
    // Without a table cost every useful table is worth taking: players, the bridge and clubs
    // (match and coach support nothing and add exactly nothing, so the smaller set wins).
    expect(sorted((await exactSearch(model, pool, { budget: 6, minGain: 0, maxTables: 10 })).tables)).toEqual(['club', 'player', 'player_club_map']);
    // One table: the club table (U 0.0896) beats player (0.0798) and the bridge (0.0763).
    expect((await exactSearch(model, pool, { budget: 1, minGain: 0, maxTables: 10 })).tables).toEqual(['club']);
    // A cost above every gain: nothing.
    expect((await exactSearch(model, pool, { budget: 6, minGain: 0.2, maxTables: 10 })).tables).toEqual([]);
  });

  it('equals brute force on random lakes', async () => {
    for (const seed of [11, 12, 13, 14, 15, 16]) {
      const { snapshot, atoms } = randomLake(seed, 8);
      const model = modelOf(snapshot, atoms);
      const pool = snapshot.tables.map((t) => t.id);
      for (const [budget, minGain] of [[3, 0.01], [8, 0.002], [2, 0]] as const) {
        const exact = await exactSearch(model, pool, { budget, minGain, maxTables: 8 });
        const brute = bruteForce(model, snapshot, pool, budget, minGain);
        expect(exact.objective).toBeCloseTo(brute.objective, 12);
        expect(isConnected(snapshot, exact.tables)).toBe(true);
      }
    }
  });

  it('enumerates only the first maxTables candidates, and stops on an aborted signal', async () => {
    const f = footballLake();
    const model = modelOf(f.snapshot, footballAtoms());
    const capped = await exactSearch(model, ['stadium', 'player', 'player_club_map', 'club'], { budget: 4, minGain: 0, maxTables: 1 });
    expect(capped.tables).toEqual(['stadium']);
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(exactSearch(model, ['player'], { budget: 2, minGain: 0, maxTables: 4, signal: controller.signal })).rejects.toThrow('stop');
  });
});

describe('beam search', () => {
  it('finds the best connected set and keeps every state connected, in the region and within budget', async () => {
    const f = footballLake();
    const model = modelOf(f.snapshot, footballAtoms());
    const region = anchorRegion(model, { anchorsPerAtom: 5, hops: 2, maxTables: 300 });
    expect(sorted(region.seeds)).toEqual(['club', 'player', 'player_club_map', 'stadium']);
    const result = await beamSearch(model, region, new HeuristicValueFunction(), BEAM);
    for (const s of result.states) {
      expect(s.tables.length).toBeLessThanOrEqual(BEAM.budget);
      expect(new Set(s.tables).size).toBe(s.tables.length);
      expect(s.tables.every((t) => region.tables.has(t))).toBe(true);
      expect(isConnected(f.snapshot, s.tables)).toBe(true);
      expect(s.utility).toBe(model.utility(s.tables));
    }
    const best = bruteForce(model, f.snapshot, [...region.tables], BEAM.budget, 0);
    expect(result.states[0].utility).toBeCloseTo(best.objective, 12);
    expect(sorted(result.states[0].tables)).toEqual(['club', 'player', 'player_club_map']);
  });

  it('admits a table that covers an uncovered atom, and nothing once every atom is covered', () => {
    const f = footballLake();
    const model = modelOf(f.snapshot, footballAtoms());
    const region = anchorRegion(model, { anchorsPerAtom: 5, hops: 2, maxTables: 300 });
    const ctx = { model, region: region.tables, budget: 5, lookaheadHops: 2 };
    const fromPlayer = admissibleActions(model, { tables: ['player'], utility: model.utility(['player']) }, ctx, BEAM);
    expect(fromPlayer).toEqual([{ tableId: 'player_club_map', via: 'player', kind: 'join', edgeScore: 0.9, reason: 'covers' }]);
    const core = ['player', 'player_club_map', 'club'];
    expect(admissibleActions(model, { tables: core, utility: model.utility(core) }, ctx, BEAM)).toEqual([]);
  });

  it('with a budget of one table holds only the seeds; an aborted signal stops it', async () => {
    const f = footballLake();
    const model = modelOf(f.snapshot, footballAtoms());
    const region = anchorRegion(model, { anchorsPerAtom: 5, hops: 2, maxTables: 300 });
    const one = await beamSearch(model, region, new HeuristicValueFunction(), { ...BEAM, budget: 1 });
    expect(one.states.every((s) => s.tables.length === 1 && region.seeds.includes(s.tables[0]))).toBe(true);
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(beamSearch(model, region, new HeuristicValueFunction(), { ...BEAM, signal: controller.signal })).rejects.toThrow('stop');
  });

  it('never beats the exact optimum on random lakes, and its sets stay connected', async () => {
    for (const seed of [21, 22, 23, 24]) {
      const { snapshot, atoms } = randomLake(seed, 8);
      const model = modelOf(snapshot, atoms);
      const region = anchorRegion(model, { anchorsPerAtom: 5, hops: 2, maxTables: 300 });
      const result = await beamSearch(model, region, new HeuristicValueFunction(), { ...BEAM, budget: 4 });
      const optimum = bruteForce(model, snapshot, [...region.tables], 4, 0);
      for (const s of result.states) {
        expect(isConnected(snapshot, s.tables)).toBe(true);
        expect(s.utility).toBeLessThanOrEqual(optimum.objective + 1e-12);
      }
    }
  });
});

describe('lazy rerank', () => {
  const rerankOf = (model: SynthesisModel, pool: string[], budget: number, minGain: number, start?: string) =>
    lazyRerank(model, pool, { budget, shardThreshold: 0.8, minGain, ...(start ? { start } : {}) });

  it('grows the football answer from the best single table and stops when the gain per table falls below minGain', () => {
    const f = footballLake();
    const model = modelOf(f.snapshot, footballAtoms());
    const pool = f.snapshot.tables.map((t) => t.id);
    const r = rerankOf(model, pool, 5, 0.01);
    // club is the best single table; the bridge (and the players behind it) follow; match and coach add nothing.
    expect(r.tables).toEqual(['club', 'player_club_map', 'player']);
    expect(r.stoppedBy).toBe('minGain');
    expect(r.utility).toBeCloseTo(model.utility(r.tables), 12);
    expect(r.picks.reduce((s, p) => s + p.gain, 0)).toBeCloseTo(r.utility, 12);
    for (const p of r.picks.slice(1)) expect(p.gain / p.tables.length).toBeGreaterThanOrEqual(0.01);
  });

  it('honours the budget and the start table', () => {
    const f = footballLake();
    const model = modelOf(f.snapshot, footballAtoms());
    const pool = f.snapshot.tables.map((t) => t.id);
    const one = rerankOf(model, pool, 1, 0);
    expect(one).toMatchObject({ tables: ['club'], stoppedBy: 'budget' });
    const two = rerankOf(model, pool, 2, 0, 'player');
    expect(two.tables).toEqual(['player', 'player_club_map']);
    expect(two.stoppedBy).toBe('budget');
    // A pool without the bridge cannot connect players to clubs.
    expect(rerankOf(model, ['player', 'club', 'match'], 3, 0.001).tables).toEqual(['club']);
  });

  it('returns connected sets within budget whose objective never beats the exact optimum (random lakes)', async () => {
    for (const seed of [31, 32, 33, 34, 35]) {
      const { snapshot, atoms } = randomLake(seed, 8);
      const model = modelOf(snapshot, atoms);
      const pool = snapshot.tables.map((t) => t.id);
      for (const [budget, minGain] of [[3, 0.01], [6, 0.002]] as const) {
        const r = rerankOf(model, pool, budget, minGain);
        expect(r.tables.length).toBeLessThanOrEqual(budget);
        expect(isConnected(snapshot, r.tables)).toBe(true);
        const exact = await exactSearch(model, pool, { budget, minGain, maxTables: 8 });
        expect(model.utility(r.tables) - minGain * r.tables.length).toBeLessThanOrEqual(exact.objective + 1e-12);
      }
    }
  });
});
