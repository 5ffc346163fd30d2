import { describe, expect, it } from 'vitest';
import { OfflineExtractor, intentAtoms, parseIntentGraph } from '../../src/intent/index.js';
import { SYNTHETIC_QUESTIONS, syntheticLake } from './fixtures/synthetic-lake.js';

// Timing is measured by bench/intent-speed.ts; here a lake-sized vocabulary must simply work.
describe('OfflineExtractor on a lake-sized vocabulary', () => {
  const vocab = syntheticLake(1100, 6);
  const extractor = new OfflineExtractor(vocab);

  it('has the advertised size', () => {
    expect(vocab.tables).toHaveLength(1100);
    expect(vocab.tables.every((t) => t.columns.length === 6)).toBe(true);
  });

  it('extracts a valid, grounded graph for every question', () => {
    for (const q of SYNTHETIC_QUESTIONS) {
      const { graph } = extractor.extract(q);
      expect(parseIntentGraph(graph)).toEqual(graph);
      expect(intentAtoms(graph).length).toBeGreaterThan(0);
    }
    const { graph, warnings } = extractor.extract('What is the average capacity of stadiums in Dublin?');
    const stadium = graph.trees.find((t) => t.entity.label === 'stadium');
    // Dozens of "stadiums" tables: the grounding keeps at most five, best first.
    expect(stadium?.entity.grounding?.length).toBe(5);
    expect(stadium?.entity.grounding?.every((g) => vocab.tables.find((t) => t.id === g.tableId)?.name === 'stadiums')).toBe(true);
    expect(warnings.some((w) => w.includes("'stadium' is ambiguous"))).toBe(true);
  });
});
