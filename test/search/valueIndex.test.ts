import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogDatabase } from '../../src/catalog/index.js';
import { HashedNgramEmbedder } from '../../src/embed/index.js';
import { ingestLake } from '../../src/ingest/index.js';
import { TOP_TEXT_VALUES } from '../../src/lake/index.js';
import { LakeSnapshot } from '../../src/search/index.js';
import { LexicalIndex, QuestionRecall } from '../../src/search/recall.js';
import { valueHash } from '../../src/text/index.js';
import { catalogBackends } from '../support/catalogs.js';
import { makeDemoLake } from '../support/demoLake.js';

/**
 * The value index beyond a column's top values: the demo lake's `player.full_name` holds 150
 * names, 50 of them top values; the rest are kept as hashes, stored, loaded into the snapshot,
 * and found by a question that names one of them.
 */
describe.each(catalogBackends)('value hashes beyond the top values ($name)', (backend) => {
  let db: CatalogDatabase;
  let lake: string;
  let snap: LakeSnapshot;
  let names: string[];
  let rare: string;

  beforeAll(async () => {
    lake = (await makeDemoLake()).dir;
    db = await backend.open();
    await ingestLake(db, lake, { embedder: new HashedNgramEmbedder() });
    snap = await LakeSnapshot.load(db);
    const csv = (await readFile(path.join(lake, 'player.csv'), 'utf8')).trim().split('\n');
    const col = csv[0].split(',').indexOf('full_name');
    names = csv.slice(1).map((line) => line.split(',')[col]);
    const top = new Set(fullName().topValues);
    rare = names.find((n) => !top.has(n))!;
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    if (lake) await rm(lake, { recursive: true, force: true });
  });

  const player = () => snap.tables.find((t) => t.name === 'player')!;
  const fullName = () => player().columns.find((c) => c.name === 'full_name')!;

  it('stores the hash of every distinct value of a text column with more than its top values, ascending', () => {
    const c = fullName();
    expect(new Set(names).size).toBeGreaterThan(TOP_TEXT_VALUES);
    expect(c.topValues).toHaveLength(TOP_TEXT_VALUES);
    expect(rare).toBeDefined();
    const hashes = [...c.valueHashes!];
    expect(hashes).toHaveLength(new Set(names).size);
    expect(hashes).toEqual([...hashes].sort((a, b) => a - b));
    expect(new Set(hashes)).toEqual(new Set(names.map((n) => valueHash(n))));
    // A column whose top values hold every value keeps no hashes.
    expect(player().columns.find((x) => x.name === 'nationality')!.valueHashes ?? null).toBeNull();
  });

  it('finds a value beyond the top values only when asked for all values, marked as found by hash', () => {
    const vocab = snap.vocabulary();
    expect(vocab.lookupValue(rare)).toEqual([]);
    expect(vocab.lookupValue(` ${rare.toUpperCase()}. `, { allValues: true })).toEqual([{ tableId: player().id, columnId: fullName().id, hashed: true }]);
    // A top value is found as before, not as a hashed hit.
    const top = fullName().topValues[0];
    expect(vocab.lookupValue(top, { allValues: true })).toEqual([{ tableId: player().id, columnId: fullName().id }]);
  });

  it('gives a question that names the value as a name the player table, and a lower-case mention not', () => {
    const surname = rare.split(' ').at(-1)!.toLowerCase();
    const termOf = (r: QuestionRecall) => r.terms.findIndex((t) => t.token === surname);
    const named = new QuestionRecall(LexicalIndex.of(snap), `Which club did ${rare} play for?`);
    expect(termOf(named)).toBeGreaterThanOrEqual(0);
    expect(named.match(player().id)![termOf(named)]).toBeCloseTo(named.opts.valueMatch * named.opts.hashedValueFactor);
    expect(named.matchesLexically(player().id, termOf(named))).toBe(true);
    const quoted = new QuestionRecall(LexicalIndex.of(snap), `Which club did "${rare.toLowerCase()}" play for?`);
    expect(quoted.match(player().id)![termOf(quoted)]).toBeGreaterThan(0);
    const plain = new QuestionRecall(LexicalIndex.of(snap), `which club did ${rare.toLowerCase()} play for?`);
    expect(termOf(plain) < 0 || (plain.match(player().id)?.[termOf(plain)] ?? 0) === 0).toBe(true);
    // A quoted string no cell holds whole is looked up word by word among the top values only.
    const inQuotes = new QuestionRecall(LexicalIndex.of(snap), `Which club did "The ${rare}" play for?`);
    expect(termOf(inQuotes) < 0 || (inQuotes.match(player().id)?.[termOf(inQuotes)] ?? 0) === 0).toBe(true);
  });
});
