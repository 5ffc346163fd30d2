import { describe, expect, it } from 'vitest';
import { chooseSynthesis, logicalSeeds } from '../../src/search/candidates.js';
import { DEFAULT_RECALL_OPTIONS, LexicalIndex, QuestionRecall } from '../../src/search/recall.js';
import type { SnapshotTable } from '../../src/search/index.js';
import { entity, join, modelOf, shardedKeyLake, snapshotOf, table } from './fixture.js';

/**
 * Which candidate synthesis wins when two cover the question alike and differ only in how their
 * tables are linked: `orders` joins two same-named `customer` tables (two sources), one through
 * a strong key edge, one through a weak edge (the kind small integer ids give by chance). The
 * weakly linked one sorts first by uri, so a tie on coverage alone goes to it.
 */
function renamed(t: SnapshotTable, id: string, uri: string): SnapshotTable {
  return { ...t, id, uri, columns: t.columns.map((c) => ({ ...c, id: `${id}.${c.name}`, tableId: id })) };
}

const QUESTION = 'amount of the orders with the customer name';

function lake(weakScore: number, strongScore: number) {
  const orders = table('orders', ['order_id', 'customer_id', 'amount']);
  const weak = renamed(table('customer', ['customer_id', 'customer_name']), 'customer@a', '/lake/a/customer.csv');
  const strong = renamed(table('customer', ['customer_id', 'customer_name']), 'customer@b', '/lake/b/customer.csv');
  const snapshot = snapshotOf([orders, weak, strong], [join(orders, weak, 'customer_id', weakScore), join(orders, strong, 'customer_id', strongScore)]);
  const model = modelOf(snapshot, [entity('e0', 'orders'), entity('e1', 'customer')]);
  // No WordNet or word vectors: the match strengths follow from the names alone.
  const recall = new QuestionRecall(LexicalIndex.of(snapshot), QUESTION, { ...DEFAULT_RECALL_OPTIONS, synonyms: false, wordVectors: false });
  return { model, recall };
}

describe('candidate syntheses: link strength', () => {
  it('of two tables that cover the question alike, the one behind the stronger join is in the core, the other an alternate', () => {
    const { model, recall } = lake(0.5, 0.9);
    // Every offer kept (floor 0): which offers the fitted model keeps is alternate-confidence.test.ts's.
    const choice = chooseSynthesis(model, recall, { budget: 3 }, { minAlternateConfidence: 0 });
    expect([...choice.core].sort()).toEqual(['customer@b', 'orders']);
    expect(choice.alternates.flatMap((o) => o.tables)).toEqual(['customer@a']);
    expect(chooseSynthesis(model, recall, { budget: 3 }).core).toEqual(choice.core);
  });

  it('without the link terms the uri order decides (what the test above guards against)', () => {
    const { model, recall } = lake(0.5, 0.9);
    const choice = chooseSynthesis(model, recall, { budget: 3 }, { linkStrengthExponent: 0, weakLinkPenalty: 0 });
    expect([...choice.core].sort()).toEqual(['customer@a', 'orders']);
  });

  it('a weak link costs less than what the table behind it adds: a question naming both tables gets both', () => {
    const { model, recall } = lake(0.6, 0.6);
    const choice = chooseSynthesis(model, recall, { budget: 2 });
    expect(choice.core).toHaveLength(2);
    expect(choice.core).toContain('orders');
  });
});

describe('candidate syntheses: a key table cut into row shards', () => {
  const choose = (budget: number, extra?: string[][]) => {
    const { snapshot } = shardedKeyLake();
    const model = modelOf(snapshot, [entity('e0', 'race'), entity('e1', 'track')]);
    const recall = new QuestionRecall(LexicalIndex.of(snapshot), 'the track name of each race', { ...DEFAULT_RECALL_OPTIONS, synonyms: false, wordVectors: false });
    return chooseSynthesis(model, recall, { budget, ...(extra ? { extra } : {}) }, { minAlternateConfidence: 0 });
  };

  it("wins with all its pieces over another source's whole table that joins the referring table by chance", () => {
    // Each piece's own edge (0.65) is weaker than the other table's (0.7); the pieces together hold every referenced id.
    expect([...choose(3).core].sort()).toEqual(['race', 'track@a1', 'track@a2']);
  });

  it('one piece alone is no whole table: a candidate without its shards counts its own edge', () => {
    // At budget 2 the pieces do not fit beside `race`; the one-piece candidate is given as the intent's answer.
    expect([...choose(2, [['race', 'track@a1']]).core].sort()).toEqual(['race', 'track@b']);
  });
});

/**
 * A lookup table the question reaches only through a column it names: `superhero.hair_colour_id`
 * points at `colour` by a weak edge (a key table cut into row shards joins this way), and so does
 * `publisher_id` at `publisher`, a column the question does not name. "blonde" is a cell of
 * `colour`, no word of its name.
 */
function heroLake() {
  const superhero = table('superhero', ['hero_id', 'hero_name', 'hair_colour_id', 'publisher_id']);
  const colour = table('colour', ['colour_id', 'colour']);
  const publisher = table('publisher', ['publisher_id', 'publisher_name']);
  const ref = (from: SnapshotTable, column: string, to: SnapshotTable, key: string, score: number) => ({
    fromTableId: from.id,
    toTableId: to.id,
    fromColumnId: `${from.id}.${column}`,
    toColumnId: `${to.id}.${key}`,
    score,
    containmentFromTo: 0.5,
    containmentToFrom: 1,
  });
  const snapshot = snapshotOf([superhero, colour, publisher], [ref(superhero, 'hair_colour_id', colour, 'colour_id', 0.6), ref(superhero, 'publisher_id', publisher, 'publisher_id', 0.6)]);
  const model = modelOf(snapshot, [entity('e0', 'superhero')]);
  const recall = new QuestionRecall(LexicalIndex.of(snapshot), 'Which superheroes have blonde hair?', { ...DEFAULT_RECALL_OPTIONS, synonyms: false, wordVectors: false });
  return { model, recall };
}

describe('candidate syntheses: lookup tables of named columns', () => {
  it('adds the table a core column the question names points to, though its link is weak and no word names it', () => {
    const { model, recall } = heroLake();
    // Every offer kept (floor 0): here the stage's offer is what is tested, not the fitted model's verdict.
    const choice = chooseSynthesis(model, recall, { budget: 5 }, { minAlternateConfidence: 0 });
    expect(choice.core).toEqual(['superhero']);
    expect(choice.alternates.flatMap((o) => o.tables)).toEqual(['colour']);
    expect(choice.offers.map((o) => [o.tables, o.evidence.stage])).toEqual([[['colour'], 'lookup']]);
    expect(choice.offers[0].evidence).toMatchObject({ referencedByCore: 0.6, referencedByNamedColumn: 0.6 });
  });

  it('without the rule the weak link is not followed (what the test above guards)', () => {
    const { model, recall } = heroLake();
    const choice = chooseSynthesis(model, recall, { budget: 5 }, { lookupMinScore: 2, minAlternateConfidence: 0 });
    expect(choice.alternates.flatMap((o) => o.tables)).toEqual([]);
    expect(choice.offers).toEqual([]);
  });

  it("lists a column's references strongest first, and none into a table the caller may not see", () => {
    const superhero = table('superhero', ['hero_id', 'colour_id']);
    const a = table('colour_a', ['colour_id', 'colour']);
    const b = table('colour_b', ['colour_id', 'colour']);
    const ref = (to: SnapshotTable, score: number) => ({ fromTableId: 'superhero', toTableId: to.id, fromColumnId: 'superhero.colour_id', toColumnId: `${to.id}.colour_id`, score, containmentFromTo: 0.5, containmentToFrom: 1 });
    const snapshot = snapshotOf([superhero, a, b], [ref(a, 0.55), ref(b, 0.62)]);
    expect(snapshot.referencesFrom('superhero.colour_id').map((j) => j.toTableId)).toEqual(['colour_b', 'colour_a']);
    expect(snapshot.referencesFrom('superhero.hero_id')).toEqual([]);
    const view = snapshot.restrict((t) => t.id !== 'colour_b');
    expect(view.referencesFrom('superhero.colour_id').map((j) => j.toTableId)).toEqual(['colour_a']);
  });

  it('follows a named column only down to lookupMinScore', () => {
    const { model, recall } = heroLake();
    expect(chooseSynthesis(model, recall, { budget: 5 }, { lookupMinScore: 0.65, minAlternateConfidence: 0 }).alternates.flatMap((o) => o.tables)).toEqual([]);
  });
});

describe('candidate syntheses: seeds', () => {
  it("are logical tables: a table's row shards fill one seed, so the next table grows a candidate of its own", () => {
    const { snapshot } = shardedKeyLake({ thirdPiece: true });
    const model = modelOf(snapshot, [entity('e0', 'race'), entity('e1', 'track')]);
    const recall = new QuestionRecall(LexicalIndex.of(snapshot), 'the track names', { ...DEFAULT_RECALL_OPTIONS, synonyms: false, wordVectors: false });
    // The three pieces are the most relevant tables, each as relevant as the other source's `track`.
    expect(recall.ranked().slice(0, 4)).toEqual(['track@a1', 'track@a2', 'track@a3', 'track@b']);
    const seeds = chooseSynthesis(model, recall, { budget: 3 }, { seeds: 2, minAlternateConfidence: 0 }).seeds;
    expect(seeds).toEqual(['track@a1', 'track@b']);
    // Above the union edges' scores no piece is another's row shard: each is a logical table of its own.
    expect(logicalSeeds(model, recall.ranked(), 2, 0.95)).toEqual(['track@a1', 'track@a2']);
  });
});
