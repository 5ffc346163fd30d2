import { describe, expect, it } from 'vitest';
import { MAX_SAMPLE_VALUES, columnEmbeddingText, parseColumnEmbeddingText } from '../../src/embed/index.js';

describe('columnEmbeddingText', () => {
  it('lays out header, table and up to ten values', () => {
    const values = Array.from({ length: 15 }, (_, i) => `v${i}`);
    const text = columnEmbeddingText('players', { name: 'player_id', sampleValues: values });
    expect(text).toBe(`column: player_id; table: players; values: ${values.slice(0, MAX_SAMPLE_VALUES).join(', ')}`);
    expect(parseColumnEmbeddingText(text)).toEqual({
      column: 'player_id',
      table: 'players',
      values: values.slice(0, 10).join(', '),
    });
  });

  it('omits the values part when there are none and cleans names and values', () => {
    expect(columnEmbeddingText('t', { name: 'a', sampleValues: ['', '  '] })).toBe('column: a; table: t');
    const text = columnEmbeddingText('my;table', { name: 'odd\nname; table: x', sampleValues: [`  ${'x'.repeat(80)} `] });
    const parsed = parseColumnEmbeddingText(text)!;
    expect(parsed.column).toBe('odd name table: x');
    expect(parsed.table).toBe('my table');
    expect(parsed.values).toBe('x'.repeat(48));
  });

  it('does not parse free text', () => {
    expect(parseColumnEmbeddingText('which player scored the most goals?')).toBeNull();
  });
});
