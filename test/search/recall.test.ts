import { describe, expect, it } from 'vitest';
import { DEFAULT_RECALL_OPTIONS, LexicalIndex, QuestionRecall } from '../../src/search/recall.js';
import { snapshotOf, table } from './fixture.js';

/**
 * The recall stage's WordNet rules, on the shipped WordNet files: a question verb or adjective
 * meets the lake's nouns of its family (rated ~ rating, taught ~ teacher, oldest ~ age), and a
 * noun the lake does not hold meets its narrower nouns (aviators ~ pilot).
 */
function lake() {
  return snapshotOf(
    [
      table('song', ['song_id', 'title', 'genre']),
      table('rating', ['song_id', 'stars', 'reviewer_id']),
      table('instructor', ['instructor_id', 'name', 'age']),
      table('teacher', ['teacher_id', 'name', 'subject']),
      table('pilot', ['pilot_id', 'name', 'rank']),
      table('record', ['pilot_id', 'flight_date']),
      table('vessel', ['vessel_id', 'tonnage']),
      table('ship', ['ship_id', 'captain']),
    ],
    [],
  );
}

const recallOf = (question: string, derivedFactor = DEFAULT_RECALL_OPTIONS.derivedFactor, narrowerFactor = DEFAULT_RECALL_OPTIONS.narrowerFactor) =>
  new QuestionRecall(LexicalIndex.of(lake()), question, { ...DEFAULT_RECALL_OPTIONS, derivedFactor, narrowerFactor, wordVectors: false });

describe('question recall: the word family', () => {
  it('a verb meets the noun of its action ("rated" -> the rating table) at the family factor', () => {
    const recall = recallOf('Which songs were rated by more than five reviewers?');
    const k = recall.terms.findIndex((t) => t.token === 'rated');
    expect(k).toBeGreaterThanOrEqual(0);
    // A full name match, scaled by the family factor.
    expect(recall.match('rating')![k]).toBeCloseTo(DEFAULT_RECALL_OPTIONS.derivedFactor, 6);
    expect(recall.match('song')?.[k] ?? 0).toBe(0);
    // Without the rule "rated" matches no table and drops out of the question's terms.
    expect(recallOf('Which songs were rated by more than five reviewers?', 0).terms.map((t) => t.token)).not.toContain('rated');
  });

  it('an irregular verb goes through its lemma ("taught" -> teach -> teacher)', () => {
    const recall = recallOf('Who taught the most subjects?');
    const k = recall.terms.findIndex((t) => t.token === 'taught');
    expect(recall.match('teacher')![k]).toBeGreaterThan(0);
    expect(recall.match('instructor')?.[k] ?? 0).toBe(0);
  });

  it('an adjective meets the noun of what it measures ("older" is a stop word, "old" is not: old -> age)', () => {
    const recall = recallOf('How old is the instructor named Smith?');
    const k = recall.terms.findIndex((t) => t.token === 'old');
    // Bound to "instructor" next to it (the pair rule): the instructor table's own word.
    expect(recall.match('instructor')![k]).toBeCloseTo(DEFAULT_RECALL_OPTIONS.derivedFactor, 6);
    expect(recall.match('teacher')?.[k] ?? 0).toBe(0);
  });
});

describe('question recall: narrower nouns', () => {
  it('a noun the lake does not hold meets a narrower one it does ("aviators" -> the pilot table) at the narrower factor', () => {
    const question = 'Show names of aviators that have more than one record.';
    const recall = recallOf(question);
    const k = recall.terms.findIndex((t) => t.token === 'aviator');
    expect(k).toBeGreaterThanOrEqual(0);
    expect(recall.match('pilot')![k]).toBeCloseTo(DEFAULT_RECALL_OPTIONS.narrowerFactor, 6);
    // A relative, not the table's own word: it widens recall, it is not lexical support.
    expect(recall.matchesLexically('pilot', k)).toBe(false);
    // Without the rule "aviators" matches no table and drops out of the question's terms.
    expect(recallOf(question, undefined, 0).terms.map((t) => t.token)).not.toContain('aviator');
  });

  it('a noun the lake holds keeps its own tables: its narrower nouns are not added ("vessels" does not reach ship)', () => {
    // WordNet has ship among the narrower nouns of vessel (a ship is a kind of vessel).
    const recall = recallOf('How many vessels are there?');
    const k = recall.terms.findIndex((t) => t.token === 'vessel');
    expect(recall.match('vessel')![k]).toBe(1);
    expect(recall.match('ship')?.[k] ?? 0).toBe(0);
  });
});

describe('LexicalIndex.oneLakeWords', () => {
  it('keeps the phrases that are one lake word, in order, once per source and key', () => {
    const index = LexicalIndex.of(lake());
    const source = {};
    let calls = 0;
    const phrases = () => (calls++, ['pilot', 'air base', 'qwertyuiop', 'songs', 'pilot']);
    // "air base" is two words, "qwertyuiop" no lake word; "songs" is the lake's song.
    expect(index.oneLakeWords(source, 'narrower:aviator', phrases)).toEqual(['pilot', 'song', 'pilot']);
    expect(index.oneLakeWords(source, 'narrower:aviator', phrases)).toEqual(['pilot', 'song', 'pilot']);
    expect(calls).toBe(1);
    // Another source (a test's own synonyms) is not answered from the first one's cache.
    expect(index.oneLakeWords({}, 'narrower:aviator', () => ['teacher'])).toEqual(['teacher']);
  });
});
