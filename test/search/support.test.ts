import { describe, expect, it } from 'vitest';
import { SupportScorer } from '../../src/search/index.js';
import { attribute, contextsOf, entity, footballLake, isConnected, modelOf, randomLake, relation, subsets } from './fixture.js';

/**
 * Support of node atoms by single tables (SupportScorer) and the set utility built on it
 * (SynthesisModel), on the hand-made football lake, where every support is a short computation
 * from the rules in src/search/README.md.
 */
describe('support of an atom by a table', () => {
  const f = footballLake();
  const atoms = [entity('e0', 'player'), entity('e1', 'club'), attribute('a0', 'name', 'e0'), relation('r0', 'e0', 'e1')];
  const model = modelOf(f.snapshot, atoms);
  const raw = (t: { id: string }) => Array.from(model.scorer.row(f.snapshot.tableById.get(t.id)!));

  it('entities: the table the label names fully, a table naming it in part by the share of its name, a foreign key at x0.3', () => {
    // player: label covered 1 x (0.5 + 0.5 x 1/1)
    expect(raw(f.player)[0]).toBeCloseTo(1, 12);
    // player_club_map: label covered 1 x (0.5 + 0.5 x 1/3): the bridge names players only in part
    expect(raw(f.map)[0]).toBeCloseTo(2 / 3, 12);
    expect(raw(f.map)[1]).toBeCloseTo(2 / 3, 12);
    // match only has club_id: column coverage 1 x entityFromColumn 0.3
    expect(raw(f.match)[1]).toBeCloseTo(0.3, 12);
    expect(raw(f.stadium)[0]).toBe(0);
  });

  it('attributes are gated by their entity: m x (0.6 + 0.4 m_entity)', () => {
    expect(raw(f.player)[2]).toBeCloseTo(1, 12); // player_name, entity 1
    expect(raw(f.club)[2]).toBeCloseTo(0.6, 12); // club_name, entity player 0
    expect(raw(f.stadium)[2]).toBeCloseTo(0.6, 12);
    expect(raw(f.player)[3]).toBe(0); // relation atoms get no node support
  });

  it('drops support below the witness threshold (0.35) from the model rows', () => {
    expect(model.row(f.match.id)[1]).toBe(0);
    expect(model.row(f.map.id)[1]).toBeCloseTo(2 / 3, 12);
    expect(model.witnessesOf(1)).toEqual(['player_club_map', 'club']);
  });

  it('a grounding counts with its score and halves the lexical evidence of the tables it did not name', () => {
    const grounded = [entity('e0', 'player'), entity('e1', 'club', [{ tableId: 'club', score: 0.9 }])];
    const scorer = new SupportScorer(f.snapshot, contextsOf(f.snapshot, grounded));
    expect(scorer.row(f.club)[1]).toBeCloseTo(1, 12); // max(lexical 1, grounding 0.9)
    expect(scorer.row(f.map)[1]).toBeCloseTo((2 / 3) * 0.5, 12);
    expect(scorer.row(f.map)[0]).toBeCloseTo(2 / 3, 12); // player is not grounded: unchanged
  });

  it('is monotone in the grounding score and stays in [0, 1]', () => {
    for (const t of f.snapshot.tables) {
      let previous = -1;
      for (const score of [0, 0.2, 0.4, 0.6, 0.8, 1]) {
        const scorer = new SupportScorer(f.snapshot, contextsOf(f.snapshot, [entity('e0', 'club', [{ tableId: t.id, score }])]));
        const s = scorer.row(t)[0];
        expect(s).toBeGreaterThanOrEqual(previous);
        expect(s).toBeGreaterThanOrEqual(0);
        expect(s).toBeLessThanOrEqual(1);
        previous = s;
      }
    }
  });
});

describe('set utility U(S)', () => {
  it('is monotone: adding a table never lowers U, on the football lake and on random lakes', () => {
    const cases = [
      { snapshot: footballLake().snapshot, atoms: [entity('e0', 'player'), entity('e1', 'club'), attribute('a0', 'name', 'e0'), relation('r0', 'e0', 'e1')] },
      ...[1, 2, 3, 4, 5].map((seed) => randomLake(seed, 7)),
    ];
    let checked = 0;
    for (const { snapshot, atoms } of cases) {
      const model = modelOf(snapshot, atoms);
      const ids = snapshot.tables.map((t) => t.id);
      for (const s of subsets(ids)) {
        const u = model.utility(s);
        for (const t of ids) {
          if (s.includes(t)) continue;
          expect(model.utility([...s, t])).toBeGreaterThanOrEqual(u - 1e-12);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('a table that supports nothing adds nothing; the empty set is worth 0', () => {
    const f = footballLake();
    const model = modelOf(f.snapshot, [entity('e0', 'player'), entity('e1', 'club'), relation('r0', 'e0', 'e1')]);
    expect(model.utility([])).toBe(0);
    expect(model.utility([f.match.id])).toBe(0);
    const core = [f.player.id, f.map.id, f.club.id];
    expect(model.utility([...core, f.match.id, f.coach.id])).toBeCloseTo(model.utility(core), 12);
  });

  it('realises a relation only through a path inside the set', () => {
    const f = footballLake();
    const model = modelOf(f.snapshot, [entity('e0', 'player'), entity('e1', 'club'), relation('r0', 'e0', 'e1')]);
    // player and club alone are not linked (and not connected)
    expect(isConnected(f.snapshot, [f.player.id, f.club.id])).toBe(false);
    expect(model.realisations([f.player.id, f.club.id])).toEqual([]);
    // the bridge witnesses both ends (2/3 >= 0.35): player -> bridge is a one-edge path of strength 0.9
    expect(model.realisations([f.player.id, f.map.id])).toEqual([{ atomIndex: 2, path: ['player', 'player_club_map'], strength: 0.9 }]);
    // the bridge alone stands in for both entities at 0.6
    expect(model.realisations([f.map.id])).toEqual([{ atomIndex: 2, path: ['player_club_map'], strength: 0.6 }]);
    expect(model.utility([f.player.id, f.map.id, f.club.id])).toBeGreaterThan(model.utility([f.player.id, f.club.id]));
  });
});
