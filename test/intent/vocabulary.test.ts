import { describe, expect, it } from 'vitest';
import { InMemoryVocabulary } from '../../src/intent/vocabulary.js';
import { valueHash } from '../../src/text/index.js';
import { WordNetSynonyms } from '../../src/intent/wordnet.js';
import { schoolLake } from './fixtures/school-lake.js';

describe('InMemoryVocabulary', () => {
  it('finds a hashed value in every column that holds it, a top value first, only when asked for all values', () => {
    const h = (...values: string[]) => values.map((v) => valueHash(v)!);
    const vocab = new InMemoryVocabulary([
      { id: 'a', name: 'heroes', columns: [{ id: 'name', name: 'name', logicalType: 'text', valueHashes: h('Hulk', 'Storm', 'Rogue') }] },
      {
        id: 'b',
        name: 'films',
        columns: [
          { id: 'title', name: 'title', logicalType: 'text', values: ['Hulk'], valueHashes: h('Hulk', 'Alien') },
          { id: 'star', name: 'star', logicalType: 'text', valueHashes: h('Rogue', 'Storm') },
        ],
      },
    ]);
    expect(vocab.lookupValue('hulk')).toEqual([{ tableId: 'b', columnId: 'title' }]);
    expect(vocab.lookupValue('hulk', { allValues: true })).toEqual([
      { tableId: 'b', columnId: 'title' },
      { tableId: 'a', columnId: 'name', hashed: true },
    ]);
    const storm = vocab.lookupValue('STORM', { allValues: true });
    expect(storm).toHaveLength(2);
    expect(storm).toEqual(expect.arrayContaining([{ tableId: 'a', columnId: 'name', hashed: true }, { tableId: 'b', columnId: 'star', hashed: true }]));
    expect(vocab.lookupValue('Alien', { allValues: true })).toEqual([{ tableId: 'b', columnId: 'title', hashed: true }]);
    expect(vocab.lookupValue('Batman', { allValues: true })).toEqual([]);
  });

  it('finds values case- and spacing-insensitively, multi-word values included', () => {
    const vocab = schoolLake();
    expect(vocab.lookupValue('AIB')).toEqual([{ tableId: 'league.clubs', columnId: 'club_name' }]);
    expect(vocab.lookupValue(' aib ')).toEqual([{ tableId: 'league.clubs', columnId: 'club_name' }]);
    expect(vocab.lookupValue('computer   science')).toEqual([{ tableId: 'school.departments', columnId: 'department_name' }]);
    expect(vocab.lookupValue('history of art')).toHaveLength(1);
    expect(vocab.lookupValue('Atlantis')).toEqual([]);
  });

  it('lists every column holding a value', () => {
    const hits = schoolLake().lookupValue('Bohemians');
    expect(hits).toEqual(
      expect.arrayContaining([
        { tableId: 'league.clubs', columnId: 'club_name' },
        { tableId: 'league.games', columnId: 'opponent' },
      ]),
    );
    expect(hits).toHaveLength(2);
  });

  it('does not let callers mutate the index through results', () => {
    const vocab = schoolLake();
    vocab.lookupValue('AIB')[0].columnId = 'hacked';
    expect(vocab.lookupValue('AIB')[0].columnId).toBe('club_name');
  });

  it('copies tables without their value lists', () => {
    const vocab = new InMemoryVocabulary([
      { id: 't', name: 't', columns: [{ id: 'c', name: 'c', logicalType: 'text', values: ['x', 'X', 'y'] }] },
    ]);
    expect(vocab.tables[0].columns[0]).toEqual({ id: 'c', name: 'c', logicalType: 'text' });
    expect(vocab.valueCount).toBe(2);
  });
});

describe('WordNetSynonyms', () => {
  const wn = new WordNetSynonyms();
  it('gives noun synonyms from the shipped WordNet files', () => {
    expect(wn.synonyms('pupil')).toContain('student');
    expect(wn.synonyms('automobile')).toEqual(expect.arrayContaining(['car', 'auto']));
    expect(wn.synonyms('computer science')).toContain('computing');
    expect(wn.synonyms('qwertyuiop')).toEqual([]);
  });
  it('keeps to the most frequent senses', () => {
    // "order" is a sense of "club" (a society), but not among order's first senses.
    expect(new WordNetSynonyms({ maxSenses: 3 }).synonyms('order')).not.toContain('club');
  });
  it('knows nouns', () => {
    expect(wn.isNoun('unicorn')).toBe(true);
    expect(wn.isNoun('quickly')).toBe(false);
  });
  it("gives a verb's and an adjective's nouns of the same family, from the word itself", () => {
    expect(wn.relatedNouns('rate')).toContain('rating');
    expect(wn.relatedNouns('teach')).toEqual(expect.arrayContaining(['teacher', 'teaching']));
    expect(wn.relatedNouns('publish')).toEqual(expect.arrayContaining(['publication', 'publisher']));
    // Adjectives: the attribute they measure.
    expect(wn.relatedNouns('old')).toContain('age');
    expect(wn.relatedNouns('heavy')).toContain('weight');
    // Lexical pointers of the synset's other words do not count: "instruct" shares a sense with
    // "teach", and its own "instructor" is not teach's.
    expect(wn.relatedNouns('teach')).not.toContain('instructor');
    expect(wn.relatedNouns('rate')).not.toContain('rate');
    expect(wn.relatedNouns('qwertyuiop')).toEqual([]);
  });
  it('narrowerNouns: the kinds of a noun (WordNet hyponyms and instances), the word itself excluded', () => {
    expect(wn.narrowerNouns('aviator')).toContain('pilot');
    expect(wn.narrowerNouns('article')).toContain('paper');
    expect(wn.narrowerNouns('vessel')).toContain('ship');
    // Up the hierarchy is not narrower: a pilot is an aviator, not the other way round.
    expect(wn.narrowerNouns('pilot')).not.toContain('aviator');
    expect(wn.narrowerNouns('aviator')).not.toContain('aviator');
    expect(wn.narrowerNouns('qwertyuiop')).toEqual([]);
  });
});
