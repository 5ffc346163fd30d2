import { describe, expect, it } from 'vitest';
import { DEFAULT_RECALL_OPTIONS, LexicalIndex, QuestionRecall } from '../../src/search/recall.js';
import { snapshotOf, table } from './fixture.js';

/**
 * The recall stage's word-family rule, on the shipped WordNet files: a question verb or adjective
 * meets the lake's nouns of its family (rated ~ rating, taught ~ teacher, oldest ~ age).
 */
function lake() {
  return snapshotOf(
    [
      table('song', ['song_id', 'title', 'genre']),
      table('rating', ['song_id', 'stars', 'reviewer_id']),
      table('instructor', ['instructor_id', 'name', 'age']),
      table('teacher', ['teacher_id', 'name', 'subject']),
    ],
    [],
  );
}

const recallOf = (question: string, derivedFactor = DEFAULT_RECALL_OPTIONS.derivedFactor) =>
  new QuestionRecall(LexicalIndex.of(lake()), question, { ...DEFAULT_RECALL_OPTIONS, derivedFactor, wordVectors: false });

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
