import { describe, expect, it } from 'vitest';
import { chooseSynthesis } from '../../src/search/candidates.js';
import { DEFAULT_RECALL_OPTIONS, LexicalIndex, QuestionRecall } from '../../src/search/recall.js';
import type { SnapshotTable } from '../../src/search/index.js';
import { entity, join, modelOf, snapshotOf, table } from './fixture.js';

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
    const choice = chooseSynthesis(model, recall, { budget: 3 });
    expect([...choice.core].sort()).toEqual(['customer@b', 'orders']);
    expect(choice.alternates).toEqual(['customer@a']);
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
