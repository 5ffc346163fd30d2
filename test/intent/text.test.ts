import { describe, expect, it } from 'vitest';
import { tokeniseQuestion } from '../../src/intent/text.js';
import { normaliseValue } from '../../src/text/index.js';
import { detectOperator } from '../../src/intent/operators.js';

describe('normaliseValue', () => {
  it('folds case, diacritics and punctuation, keeps decimals', () => {
    expect(normaliseValue('  St. Patrick’s  Athletic ')).toBe('st patrick s athletic');
    expect(normaliseValue('Zoë')).toBe('zoe');
    expect(normaliseValue('3.5')).toBe('3.5');
  });
});

describe('tokeniseQuestion', () => {
  it('keeps quoted strings whole and leaves apostrophes inside words alone', () => {
    const tokens = tokeniseQuestion(`Which players' clubs have the word 'St Patrick's' or "Hey Jude" in 2010?`);
    const quoted = tokens.filter((t) => t.kind === 'quoted').map((t) => t.text);
    expect(quoted).toEqual(["St Patrick's", 'Hey Jude']);
    expect(tokens.filter((t) => t.kind === 'number').map((t) => t.lower)).toEqual(['2010']);
    expect(tokens.filter((t) => t.kind === 'word').map((t) => t.lower)).toContain('players');
    expect(tokens[tokens.length - 1].kind).toBe('break');
  });

  it('reads numbers with separators and decimals', () => {
    const numbers = tokeniseQuestion('salary over 50,000 and GPA of 3.75, aged 21').filter((t) => t.kind === 'number');
    expect(numbers.map((t) => t.lower)).toEqual(['50000', '3.75', '21']);
  });
});

describe('detectOperator', () => {
  const op = (q: string, value: string) => {
    const tokens = tokeniseQuestion(q);
    const at = tokens.findIndex((t) => t.text === value);
    return detectOperator(tokens, at);
  };
  it('reads comparison phrases before and after a value', () => {
    expect(op('GPA above 3.5', '3.5').operator).toBe('>');
    expect(op('older than 30', '30').operator).toBe('>');
    expect(op('at least 3 goals', '3').operator).toBe('>=');
    expect(op('5 or more goals', '5').operator).toBe('>=');
    expect(op('no more than 7', '7').operator).toBe('<=');
    expect(op('released before 1990', '1990').operator).toBe('<');
    expect(op('club other than "AIB"', 'AIB').operator).toBe('!=');
    expect(op('produced in 1970', '1970').operator).toBe('=');
    expect(op('between 2000 and 2010', '2000')).toMatchObject({ operator: 'between' });
    expect(op("with the word 'Hey'", 'Hey')).toEqual({ operator: 'like', pattern: 'contains' });
    expect(op("names starting with 'A'", 'A')).toEqual({ operator: 'like', pattern: 'prefix' });
  });
});
