import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  RECORDED_OFFERS_PROTOCOL,
  answerAgain,
  heldOutDatabases,
  labelledOffers,
  readRecordedOffers,
  type RecordedQuestion,
} from '../../src/bench/alternateFit.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'graft-alternate-fit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A recorded question; each offer's one feature is the confidence the tests give it. */
function question(q: Partial<RecordedQuestion> & Pick<RecordedQuestion, 'gold' | 'core' | 'offers'>): RecordedQuestion {
  return { file: 'train.json', questionIndex: 0, database: 'db', goldBaseCount: 2, ...q };
}

describe('the alternates fit: rows, databases, answers again', () => {
  it('labels each offer of a multi-table question by whether it holds a gold table; one-table questions give no rows', () => {
    const { x, y } = labelledOffers([
      question({ gold: ['orders', 'customer_1', 'customer_2'], core: ['orders'], offers: [{ stems: ['customer_1', 'customer_2'], features: [0.9] }, { stems: ['region'], features: [0.1] }] }),
      // On a one-table question a gold offer is a rival of the core: not read.
      question({ goldBaseCount: 1, gold: ['singer'], core: ['singer_copy'], offers: [{ stems: ['singer'], features: [0.5] }] }),
    ]);
    expect(x).toEqual([[0.9], [0.1]]);
    expect(y).toEqual([1, 0]);
  });

  it('holds out the same whole databases whatever the order the questions name them in', () => {
    const names = Array.from({ length: 30 }, (_, i) => `db${i}`);
    const held = heldOutDatabases(names, 0.33);
    expect(held.size).toBe(10);
    expect(heldOutDatabases([...names].reverse().concat(names), 0.33)).toEqual(held);
    for (const db of held) expect(names).toContain(db);
    expect(() => heldOutDatabases(names, 1)).toThrow(/share of the databases must be in \(0,1\), got 1/);
    expect(() => heldOutDatabases(names, 0)).toThrow(/got 0/);
  });

  it('answers again as the choice does: the core cut to L, then offers most likely first down to the floor, each that fits', () => {
    const q = question({
      gold: ['a', 'b', 'c1', 'c2'],
      core: ['a', 'x'],
      offers: [
        { stems: ['c1', 'c2'], features: [0.5] },
        { stems: ['b'], features: [0.9] },
        { stems: ['y'], features: [0.04] },
      ],
    });
    const single = question({ goldBaseCount: 1, gold: ['z'], core: ['z'], offers: [] });
    const [low, high] = answerAgain([q, single], (f) => f[0], [0.03, 0.6], [3, 5, 6]);
    // Floor 0.03, L = 3: core a, x and b (0.9); the shards c1 + c2 no longer fit, y (0.04) does not either.
    expect(low.byBudget[0]).toMatchObject({ questions: 1, sufficiency: 0, recall: 0.5, precision: 2 / 3 });
    // L = 5: b, then c1 + c2; y finds no room. L = 6: y too.
    expect(low.byBudget[1]).toMatchObject({ sufficiency: 1, recall: 1, precision: 4 / 5 });
    expect(low.byBudget[2]).toMatchObject({ sufficiency: 1, precision: 4 / 6 });
    // Floor 0.6: b only.
    expect(high.byBudget[2]).toMatchObject({ sufficiency: 0, recall: 0.5, precision: 2 / 3 });
    // The core alone is cut to the budget.
    expect(answerAgain([q], () => 0, [0.5], [1])[0].byBudget[0]).toMatchObject({ recall: 0.25, precision: 1 });
  });

  it('reads a record back, refusing with its name one that is not a record or holds other features', () => {
    const features = ['joinScore', 'relevance'];
    const write = (name: string, content: string) => {
      const file = path.join(dir, name);
      writeFileSync(file, content);
      return file;
    };
    const record = { protocol: RECORDED_OFFERS_PROTOCOL, lake: '/lakes/spider', features, budget: 15, questions: [question({ gold: ['a'], core: ['a'], offers: [] })] };
    const good = write('offers.json', JSON.stringify(record));
    expect(readRecordedOffers(good, features)).toEqual(record);
    expect(() => readRecordedOffers(good, [...features, 'igmsGain'])).toThrow(`${good}: its offers hold the features [joinScore, relevance], the code computes [joinScore, relevance, igmsGain]: record them again`);
    const run = write('run.json', JSON.stringify({ protocol: 'graft-bench-results-v1', rows: [] }));
    expect(() => readRecordedOffers(run, features)).toThrow(`${run}: not offers recorded by \`bench/fit-alternates.ts --save-offers\``);
    const broken = write('broken.json', '{"questions": [');
    expect(() => readRecordedOffers(broken, features)).toThrow(`${broken}: not a readable JSON file`);
  });
});
