import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BadInputError } from '../../src/util/errors.js';
import { intentAtoms, intentFromDecomposition, parseIntentGraph } from '../../src/intent/index.js';

const SPIDER = fileURLToPath(new URL('../../../shared/data-raw/jar/spider/', import.meta.url));
const HAVE_SPIDER = existsSync(`${SPIDER}decomp.json`) && existsSync(`${SPIDER}dev.json`);
if (!HAVE_SPIDER) {
  console.warn(`skipping Spider decomposition tests: ${SPIDER}decomp.json not found (../shared is absent)`);
}

describe('intentFromDecomposition', () => {
  it('makes one tree per table, an attribute per column, edges chaining the tables', () => {
    const graph = intentFromDecomposition(['singer:name', 'singer:country of origin', 'song:title', 'singers:age']);
    expect(graph.trees.map((t) => [t.entity.label, t.attributes.map((a) => a.label)])).toEqual([
      ['singer', ['name', 'country of origin', 'age']],
      ['song', ['title']],
    ]);
    expect(graph.edges).toEqual([{ id: 'singer--song', from: 'singer', to: 'song' }]);
    expect(parseIntentGraph(graph)).toEqual(graph);
  });

  it('reads bare terms, operation words, values and value lists', () => {
    const graph = intentFromDecomposition([
      'countries',
      'average life expectancy',
      'order',
      'student:pet:dog',
      'student:pet:cat',
      "keywords: 'Brazil', 'Ireland'",
    ]);
    expect(graph.trees.map((t) => t.entity.label)).toEqual(['countries', 'student']);
    expect(graph.trees[0].attributes.map((a) => a.label)).toEqual(['life expectancy']);
    const student = graph.trees[1].attributes.map((a) => [a.label, a.value?.operator, a.value?.literal]);
    expect(student).toEqual([
      ['pet', '=', 'dog'],
      ['pet', '=', 'cat'],
      ['keywords', 'in', ['Brazil', 'Ireland']],
    ]);
  });

  it('uses the database table names to tell tables from columns when given', () => {
    const guess = intentFromDecomposition(['country', 'singers:age']);
    expect(guess.trees.map((t) => t.entity.label)).toEqual(['singers']);
    expect(guess.trees[0].attributes.map((a) => a.label)).toEqual(['country', 'age']);
    const known = intentFromDecomposition(['country', 'singers:age'], { tableNames: ['country', 'singer'] });
    expect(known.trees.map((t) => t.entity.label)).toEqual(['country', 'singers']);
  });

  it('gives a columns-only decomposition one entity and rejects an empty one', () => {
    expect(intentFromDecomposition(['year', 'population']).trees).toEqual([
      { entity: { id: 'year', label: 'year' }, attributes: [{ id: 'year.population', label: 'population' }] },
    ]);
    expect(() => intentFromDecomposition(['average', ' '])).toThrow(BadInputError);
  });

  it.skipIf(!HAVE_SPIDER)('converts Spider decompositions read from ../shared', () => {
    const decomp = JSON.parse(readFileSync(`${SPIDER}decomp.json`, 'utf8')) as string[][];
    const dev = JSON.parse(readFileSync(`${SPIDER}dev.json`, 'utf8')) as { question: string; db_id: string }[];
    // The file is a list aligned with dev.json: entry i decomposes question i.
    expect(Array.isArray(decomp)).toBe(true);
    expect(decomp.length).toBe(dev.length);

    // "Show name, country, age for all singers ordered by age ..." -> one singers tree.
    const i = decomp.findIndex((items) => items.join('|') === 'singers:name|singers:country|singers:age|order|age');
    expect(i).toBeGreaterThanOrEqual(0);
    const one = intentFromDecomposition(decomp[i]);
    expect(one.trees).toHaveLength(1);
    expect(one.trees[0].attributes.map((a) => a.label)).toEqual(['name', 'country', 'age']);

    // A two-table entry joins its tables with an edge.
    const j = decomp.findIndex((items) => items.join('|') === 'singer:name|singer:country of origin|song:title');
    const two = intentFromDecomposition(decomp[j]);
    expect(two.trees.map((t) => t.entity.label)).toEqual(['singer', 'song']);
    expect(two.edges).toHaveLength(1);

    // Every entry of the file converts to a valid graph with atoms for each item it names.
    for (const items of decomp) {
      const graph = intentFromDecomposition(items);
      expect(parseIntentGraph(graph)).toEqual(graph);
      expect(graph.edges).toHaveLength(graph.trees.length - 1);
      const qualified = items.filter((s) => /^[^:']+:[^:']+$/.test(s)).length;
      const atoms = intentAtoms(graph);
      expect(atoms.filter((a) => a.kind === 'attribute').length).toBeLessThanOrEqual(items.length);
      if (qualified > 0) expect(atoms.some((a) => a.kind === 'attribute')).toBe(true);
    }
  });
});
