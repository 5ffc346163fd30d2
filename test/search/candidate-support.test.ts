import { describe, expect, it } from 'vitest';
import { WordVectors } from '../../src/embed/index.js';
import { chooseSynthesis } from '../../src/search/candidates.js';
import { DEFAULT_RECALL_OPTIONS, LexicalIndex, QuestionRecall } from '../../src/search/recall.js';
import { entity, modelOf, snapshotOf, table } from './fixture.js';

/**
 * Which candidate may be the core when the best-scoring one is supported only by a relative of a
 * question word (a word-vector neighbour: vocalist ~ singer), not by the catalog's own words: a
 * `singer` table the neighbour names in full, and four album tables whose `genre` column the
 * question names (a common word, so it weighs less). No edges: every candidate is one table.
 */
function lake() {
  const albums = [1, 2, 3, 4].map((i) => table(`album${i}`, ['album_id', 'genre']));
  const snapshot = snapshotOf([table('singer', ['singer_id', 'country']), ...albums], []);
  const q = (x: number, y: number, z: number) => [x, y, z].map((v) => Math.round(v * 127));
  // vocalist ~ singer 0.9; genre, album and country far from both.
  const vectors = new WordVectors(['vocalist', 'singer', 'genre', 'album', 'country'], 3, Int8Array.from([...q(1, 0, 0), ...q(0.9, 0.44, 0), ...q(0, 0, 1), ...q(0, 1, 0), ...q(0, -1, 0)]));
  const recall = new QuestionRecall(LexicalIndex.of(snapshot), 'Which vocalist has the genre?', { ...DEFAULT_RECALL_OPTIONS, synonyms: false, wordVectors: vectors });
  return { model: modelOf(snapshot, [entity('e0', 'vocalist')]), recall };
}

describe('candidate syntheses: the core needs support by the catalog\'s own words', () => {
  it('the best candidate the catalog supports is the core; one that only a relative accounts for stays an alternate', () => {
    const { model, recall } = lake();
    const vocalist = recall.terms.findIndex((t) => t.token === 'vocalist');
    const genre = recall.terms.findIndex((t) => t.token === 'genre');
    // The neighbour outweighs the common word: the singer table is the most relevant, but only through it.
    expect(recall.ranked()[0]).toBe('singer');
    expect(recall.matchesLexically('singer', vocalist)).toBe(false);
    expect(recall.matchesLexically('album1', genre)).toBe(true);
    const choice = chooseSynthesis(model, recall, { budget: 3 });
    expect(choice.stoppedBy).toBe('candidates');
    expect(choice.core).toEqual(['album1']);
    expect(choice.alternates.flatMap((o) => o.tables)[0]).toBe('singer');
  });
});
