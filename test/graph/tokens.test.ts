import { describe, expect, it } from 'vitest';
import {
  editDistance,
  editSimilarity,
  identifierTerms,
  tokeniseIdentifier,
  weightedTokenJaccard,
} from '../../src/graph/index.js';

describe('tokeniseIdentifier', () => {
  it.each([
    ['player_id', ['player', 'id']],
    ['CountryCode', ['country', 'code']],
    ['countryCode', ['country', 'code']],
    ['HTTPServerName', ['http', 'server', 'name']],
    ['Stadium_ID', ['stadium', 'id']],
    ['game_part1', ['game', 'part', '1']],
    ['address2Line', ['address', '2', 'line']],
    ['home-team id', ['home', 'team', 'id']],
    ['Cities', ['city']],
    ['players', ['player']],
    ['class', ['class']],
    ['classes', ['class']],
    ['status', ['status']],
    ['matches', ['match']],
    ['movies', ['movie']],
    ['People', ['person']],
    ['__', []],
    ['', []],
    ['Straße_Name', ['straße', 'name']],
  ])('%s -> %j', (input, expected) => {
    expect(tokeniseIdentifier(input)).toEqual(expected);
  });
});

describe('identifierTerms', () => {
  it.each([
    ['Forms_297f151b', ['form']],
    ['singer_48d1c03c', ['singer']],
    ['orders-3m', ['order', '3']],
    ['export_a1b2c3d4e5', ['export']],
    // A word with a number after it is a word, not a hash (`isNoiseToken`).
    ['game_part1', ['game', 'part', '1']],
    ['covid19_cases_3fa9c2e1', ['covid', '19', 'case']],
    ['address_line1', ['address', 'line', '1']],
    ['game_p1', ['game', '1']],
    ['f_id', ['id']],
  ])('%s -> %j', (input, expected) => {
    expect(identifierTerms(input)).toEqual(expected);
  });
});

describe('string similarity', () => {
  it('edit distance', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
    expect(editSimilarity('', '')).toBe(1);
    expect(editSimilarity('countrycode', 'countrycode')).toBe(1);
    expect(editSimilarity('abc', 'xyz')).toBe(0);
  });

  it('weighted token jaccard discounts generic tokens', () => {
    // {player, id} vs {id}: 0.5 / 1.5
    expect(weightedTokenJaccard(new Set(['player', 'id']), new Set(['id']))).toBeCloseTo(1 / 3);
    expect(weightedTokenJaccard(new Set(['player', 'id']), new Set(['player', 'id']))).toBe(1);
    expect(weightedTokenJaccard(new Set(), new Set())).toBe(0);
  });
});
