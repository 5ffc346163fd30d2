import { describe, expect, it } from 'vitest';
import { intOption, numberOption } from '../../src/cli/options.js';

describe('CLI option parsers', () => {
  it('intOption takes integers only, and an empty value is no 0', () => {
    const budget = intOption('budget');
    expect(budget('3')).toBe(3);
    for (const bad of ['', ' ', '1.5', 'x']) expect(() => budget(bad)).toThrow(/--budget must be an integer/);
  });

  it('numberOption takes finite numbers, and an empty value is no 0', () => {
    const floor = numberOption('min-alternate-confidence');
    expect(floor('0.05')).toBe(0.05);
    expect(floor('0')).toBe(0);
    for (const bad of ['', 'Infinity', 'abc']) expect(() => floor(bad)).toThrow(/--min-alternate-confidence must be a number/);
  });
});
