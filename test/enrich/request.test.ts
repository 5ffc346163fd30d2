import { describe, expect, it } from 'vitest';
import { parseEnrichRequest } from '../../src/enrich/index.js';

describe('enrichment requests in words', () => {
  it('recognises requests for tables that help predict a column', () => {
    expect(parseEnrichRequest('find tables that help predict price in this table')).toEqual({ target: 'price', table: null });
    expect(parseEnrichRequest('Find tables that help predict price in the houses table')).toEqual({ target: 'price', table: 'houses' });
    expect(parseEnrichRequest('Which data would help to predict miles per gallon of cars?')).toEqual({ target: 'miles per gallon', table: 'cars' });
    expect(parseEnrichRequest('enrich student to predict gpa')).toEqual({ target: 'gpa', table: 'student' });
    expect(parseEnrichRequest('what columns could improve a model of gpa for students')).toEqual({ target: 'gpa', table: 'students' });
  });

  it('leaves ordinary questions to synthesize', () => {
    expect(parseEnrichRequest('What points did the players of club AIB score in games?')).toBeNull();
    expect(parseEnrichRequest('Which tables list the price of houses?')).toBeNull();
    expect(parseEnrichRequest('How many students are in each department?')).toBeNull();
  });
});
