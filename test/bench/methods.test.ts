import { describe, expect, it } from 'vitest';
import { Bm25Index } from '../../src/bench/bm25.js';
import { selectionLp, solveSelection } from '../../src/bench/methods.js';
import { questionTokens, visibleTableName } from '../../src/bench/text.js';
import { foldPlural, splitIdentifier } from '../../src/text/index.js';

describe('text', () => {
  it('splits identifiers and questions the way the bm25 baseline needs', () => {
    expect(splitIdentifier('singer_in_concert')).toEqual(['singer', 'in', 'concert']);
    expect(splitIdentifier('PlayerID')).toEqual(['player', 'id']);
    expect(splitIdentifier('carMakers2')).toEqual(['car', 'makers', '2']);
    expect(visibleTableName('singer_in_concert_3e6bb210')).toBe('singer_in_concert');
    expect(questionTokens('How many singers do we have?')).toEqual(['singers']);
    expect(['singers', 'countries', 'matches', 'class', 'age'].map(foldPlural)).toEqual(['singer', 'country', 'match', 'class', 'age']);
  });
});

describe('Bm25Index', () => {
  it('matches a hand computation', () => {
    const idx = new Bm25Index([['singer', 'name'], ['concert', 'name', 'year'], ['stadium']]);
    // idf(singer) = ln(1 + (3 - 1 + 0.5) / (1 + 0.5)); avgdl = 2; doc 0 has dl 2 -> norm = k1
    const idf = Math.log(1 + 2.5 / 1.5);
    const expected = (idf * 1 * 2.2) / (1 + 1.2);
    const s = idx.scores(['singer', 'unknown']);
    expect(s[0]).toBeCloseTo(expected, 12);
    expect(s[1]).toBe(0);
    expect(s[2]).toBe(0);
  });
});

describe('JAR selection MIP (HiGHS)', () => {
  it('prefers a joinable pair over a slightly more relevant loner', async () => {
    // rel: 0.9 (loner), 0.8 and 0.7 joined with weight 1; budget 2, lambda 0.5
    // {0,1}: 1.7; {1,2}: 1.5 + 0.5 = 2.0 -> the pair wins.
    const m = { rel: [0.9, 0.8, 0.7], pairs: [{ i: 1, j: 2, w: 1 }], budget: 2, lambda: 0.5 };
    expect(await solveSelection(m, 5)).toEqual({ chosen: [1, 2], fallback: false });
    // with a weak link the loner comes back
    expect((await solveSelection({ ...m, lambda: 0.1 }, 5)).chosen).toEqual([0, 1]);
  });

  it('writes a well-formed LP and falls back to the rounded relaxation at the time limit', async () => {
    const m = { rel: [0.5, 0.4, 0.3, 0.2], pairs: [{ i: 0, j: 1, w: 1 }, { i: 2, j: 3, w: 2 }], budget: 2, lambda: 1 };
    const lp = selectionLp(m);
    expect(lp).toMatch(/^Maximize\n/);
    expect(lp).toContain('card: x0 + x1 + x2 + x3 <= 2');
    expect(lp).toContain('Binary');
    expect(selectionLp(m, true)).not.toContain('Binary');
    const exact = await solveSelection(m, 5);
    expect(exact).toEqual({ chosen: [2, 3], fallback: false }); // 0.5 + 2 = 2.5 > 0.9 + 1
    const relaxed = await solveSelection(m, 0);
    expect(relaxed.fallback).toBe(true);
    expect(relaxed.chosen.length).toBeLessThanOrEqual(2);
  });
});
