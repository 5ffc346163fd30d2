import { describe, expect, it } from 'vitest';
import { tokeniseIdentifier } from '../../src/graph/index.js';
import { singularise } from '../../src/text/index.js';

describe('identifier tokens that collide with Object.prototype', () => {
  it('treats constructor, toString and __proto__ as plain words', () => {
    expect(tokeniseIdentifier('constructorResults')).toEqual(['constructor', 'result']);
    for (const w of ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf']) {
      expect(typeof singularise(w)).toBe('string');
    }
  });
});
