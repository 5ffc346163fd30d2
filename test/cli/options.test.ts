import { describe, expect, it } from 'vitest';
import { flagValue, intListOption, intOption, numberOption } from '../../src/cli/options.js';

describe('CLI option parsers', () => {
  it('intOption takes integers only, and an empty value is no 0', () => {
    const budget = intOption('budget');
    expect(budget('3')).toBe(3);
    expect(budget('-2')).toBe(-2);
    for (const bad of ['', ' ', '1.5', 'x']) expect(() => budget(bad)).toThrow(/--budget must be an integer/);
  });

  it('intOption with a least value refuses below it, naming the flag', () => {
    const sample = intOption('sample', { min: 1 });
    expect(sample('1200')).toBe(1200);
    expect(() => sample('0')).toThrow('--sample must be an integer >= 1 (got "0")');
    const seed = intOption('seed', { min: 0 });
    expect(seed('0')).toBe(0);
    try {
      seed('-1');
      expect.unreachable();
    } catch (e) {
      expect(e).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: '--seed' } });
    }
  });

  it('a range with both ends names both', () => {
    const port = intOption('port', { min: 0, max: 65_535 });
    expect(port('0')).toBe(0);
    expect(port('65535')).toBe(65_535);
    expect(() => port('65536')).toThrow('--port must be an integer in 0..65535 (got "65536")');
    const gamma = numberOption('gamma', { min: 0, max: 1 });
    expect(gamma('0.99')).toBe(0.99);
    expect(() => gamma('1.5')).toThrow('--gamma must be a number in 0..1 (got "1.5")');
  });

  it('numberOption takes finite numbers, and an empty value is no 0', () => {
    const floor = numberOption('min-alternate-confidence');
    expect(floor('0.05')).toBe(0.05);
    expect(floor('0')).toBe(0);
    for (const bad of ['', 'Infinity', 'abc']) expect(() => floor(bad)).toThrow(/--min-alternate-confidence must be a number/);
  });

  it('intListOption takes comma-separated integers of at least the least value', () => {
    const budgets = intListOption('budgets', { min: 1 });
    expect(budgets('5,10, 15')).toEqual([5, 10, 15]);
    expect(budgets('7')).toEqual([7]);
    for (const bad of ['', '5,,10', '5,x', '0,5', '2.5']) {
      expect(() => budgets(bad)).toThrow(`--budgets must be a comma-separated list of integers >= 1 (got "${bad}")`);
    }
  });

  it('flagValue reads the value after --name, or the fallback when the flag is absent or last', () => {
    const args = ['--home', '/tmp/h', '--rounds', '3', '--preview'];
    expect(flagValue(args, 'home', 'x')).toBe('/tmp/h');
    expect(flagValue(args, 'rounds', '4')).toBe('3');
    expect(flagValue(args, 'threads', '2')).toBe('2');
    expect(flagValue(args, 'preview', '5')).toBe('5');
  });
});
