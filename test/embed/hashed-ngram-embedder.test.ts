import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  DocumentFrequencyTable,
  EMBEDDING_DIM,
  HashedNgramEmbedder,
  columnEmbeddingText,
  cosine,
  embedQuery,
  headerLemmas,
} from '../../src/embed/index.js';
import { splitHeaderWords } from '../../src/text/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const embedder = new HashedNgramEmbedder();
const vec = (text: string) => embedder.embedSync(text);
const sim = (a: string, b: string) => cosine(vec(a), vec(b));
const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
const bytes = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');

const SAMPLE_TEXTS = [
  'player_id',
  'PlayerID',
  '',
  '   ',
  '___',
  'Straße_nummer',
  '日本語の列',
  'which player scored the most goals?',
  columnEmbeddingText('players', { name: 'player_id', sampleValues: ['1', '2', '3'] }),
  columnEmbeddingText('finance', { name: 'revenue_usd', sampleValues: ['12.50', '99.10', 'n/a'] }),
  columnEmbeddingText('t', { name: 'to', sampleValues: [] }),
];

describe('splitHeaderWords / headerLemmas', () => {
  it('splits snake, camel, Pascal, acronyms and digits', () => {
    expect(splitHeaderWords('player_id')).toEqual(['player', 'id']);
    expect(splitHeaderWords('PlayerID')).toEqual(['player', 'id']);
    expect(splitHeaderWords('playerId')).toEqual(['player', 'id']);
    expect(splitHeaderWords('HTTPStatusCode')).toEqual(['http', 'status', 'code']);
    expect(splitHeaderWords('userIDs')).toEqual(['user', 'ids']);
    expect(splitHeaderWords('address2-line')).toEqual(['address', '2', 'line']);
    expect(splitHeaderWords('  ')).toEqual([]);
  });

  it('lemmatises plurals, expands abbreviations and drops function words', () => {
    expect(headerLemmas('player ids')).toEqual(['player', 'id']);
    expect(headerLemmas('Countries')).toEqual(['country']);
    expect(headerLemmas('order_statuses')).toEqual(['order', 'status']);
    expect(headerLemmas('cust_qty')).toEqual(['customer', 'quantity']);
    expect(headerLemmas('number of goals')).toEqual(['number', 'goal']);
    // Only function words: keep them rather than embed nothing.
    expect(headerLemmas('to')).toEqual(['to']);
  });
});

describe('HashedNgramEmbedder', () => {
  it('returns 256-d unit Float32Arrays, one per text, in order', async () => {
    const vectors = await embedder.embed(SAMPLE_TEXTS);
    expect(embedder.id).toBe('builtin-hash-v1');
    expect(embedder.dim).toBe(EMBEDDING_DIM);
    expect(vectors).toHaveLength(SAMPLE_TEXTS.length);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(256);
      expect(Math.abs(norm(v) - 1)).toBeLessThan(1e-6);
      expect(v.every(Number.isFinite)).toBe(true);
    }
    vectors.forEach((v, i) => expect(bytes(v)).toBe(bytes(vec(SAMPLE_TEXTS[i]))));
  });

  it('is deterministic within a process and across processes (bit-identical)', async () => {
    const first = (await embedder.embed(SAMPLE_TEXTS)).map(bytes);
    const again = (await new HashedNgramEmbedder().embed([...SAMPLE_TEXTS].reverse())).map(bytes).reverse();
    expect(again).toEqual(first);
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', path.join(here, 'embed-child.mts'), JSON.stringify(SAMPLE_TEXTS)],
      { cwd: path.join(here, '..', '..') },
    );
    expect(JSON.parse(stdout)).toEqual(first);
  });

  it('gives similar headers a high cosine and unrelated ones a low one', () => {
    expect(sim('player_id', 'PlayerID')).toBeGreaterThan(0.8);
    expect(sim('player_id', 'player ids')).toBeGreaterThan(0.8);
    expect(sim('PlayerID', 'player ids')).toBeGreaterThan(0.8);
    expect(sim('country', 'Countries')).toBeGreaterThan(0.8);
    expect(sim('player_id', 'revenue_usd')).toBeLessThan(0.3);
    expect(sim('created_at', 'goals_scored')).toBeLessThan(0.3);
    // Partial overlap ranks between the two.
    const partial = sim('player_id', 'player_name');
    expect(partial).toBeGreaterThan(sim('player_id', 'revenue_usd'));
    expect(partial).toBeLessThan(sim('player_id', 'PlayerID'));
    // Character 3-grams let an unsplit header meet its split form.
    expect(sim('playerid', 'player_id')).toBeGreaterThan(sim('playerid', 'revenue_usd') + 0.15);
  });

  it('keeps same-header columns close across tables and sample values', () => {
    const a = columnEmbeddingText('players', { name: 'player_id', sampleValues: ['1', '2', '3'] });
    const b = columnEmbeddingText('match_events', { name: 'PlayerID', sampleValues: ['17', '23', '42', 'x7'] });
    const c = columnEmbeddingText('finance', { name: 'revenue_usd', sampleValues: ['12.50', '99.10'] });
    expect(sim(a, b)).toBeGreaterThan(0.8);
    expect(sim(a, c)).toBeLessThan(0.3);
  });

  it('lets sample values and table names nudge, not decide', () => {
    const dates = (name: string, table: string) =>
      columnEmbeddingText(table, { name, sampleValues: ['2021-03-04', '2020-12-31', '2019-01-01'] });
    const words = (name: string, table: string) =>
      columnEmbeddingText(table, { name, sampleValues: ['France', 'Spain', 'Italy'] });
    // Same header: same-shaped values are closer than different-shaped ones.
    expect(sim(dates('value', 'a'), dates('value', 'b'))).toBeGreaterThan(sim(dates('value', 'a'), words('value', 'b')));
    // Different headers stay apart even with identical values.
    expect(sim(dates('birth_date', 'a'), dates('revenue_usd', 'a'))).toBeLessThan(0.5);
  });

  it('embeds questions into the same space as columns', async () => {
    const goals = columnEmbeddingText('players', { name: 'goals_scored', sampleValues: ['0', '3', '12'] });
    const revenue = columnEmbeddingText('finance', { name: 'revenue_usd', sampleValues: ['12.50', '99.10'] });
    const q = await embedder.embedQuery('Which player scored the most goals?');
    expect(cosine(q, vec(goals))).toBeGreaterThan(cosine(q, vec(revenue)) + 0.2);
    expect(bytes(await embedQuery(embedder, 'total revenue'))).toBe(bytes(vec('total revenue')));
    expect(cosine(vec('total revenue in dollars'), vec(revenue))).toBeGreaterThan(cosine(vec('total revenue in dollars'), vec(goals)));
  });

  it('down-weights headers words common across the catalog when given document frequencies', () => {
    const headers = ['player_id', 'match_id', 'team_id', 'stadium_id', 'league_id', 'season_id', 'player_name', 'goals'];
    const df = DocumentFrequencyTable.fromHeaders(headers);
    expect(df.documents).toBe(headers.length);
    expect(df.df('w:id')).toBe(6);
    expect(df.df('w:player')).toBe(2);
    const weighted = new HashedNgramEmbedder({ documentFrequency: df });
    const wsim = (a: string, b: string) => cosine(weighted.embedSync(a), weighted.embedSync(b));
    // 'id' is in 6 of 8 headers: sharing it means less, sharing the rare 'player' means more.
    expect(wsim('player_id', 'match_id')).toBeLessThan(sim('player_id', 'match_id') - 0.1);
    expect(wsim('player_id', 'player_name')).toBeGreaterThan(sim('player_id', 'player_name') + 0.05);
    // A persisted snapshot reproduces the vectors exactly.
    const restored = new HashedNgramEmbedder({ documentFrequency: DocumentFrequencyTable.fromJSON(JSON.parse(JSON.stringify(df))) });
    expect(bytes(restored.embedSync('player_id'))).toBe(bytes(weighted.embedSync('player_id')));
  });

  it('embeds on the order of 10k columns per second', async () => {
    const heads = ['player_id', 'revenue_usd', 'customerName', 'created_at', 'goals_scored', 'HomeTeamAPIId'];
    const texts = Array.from({ length: 10_000 }, (_, i) =>
      columnEmbeddingText(`table_${i % 200}`, {
        name: `${heads[i % heads.length]}${i % 37}`,
        sampleValues: Array.from({ length: 10 }, (_, j) => (j % 2 ? `value ${i * 10 + j}` : `${i * 7 + j}`)),
      }),
    );
    await embedder.embed(texts.slice(0, 500)); // warm the lemma cache and JIT
    const start = performance.now();
    const vectors = await embedder.embed(texts);
    const seconds = (performance.now() - start) / 1000;
    expect(vectors).toHaveLength(10_000);
    // ~0.5 s on a laptop core; the bound leaves room for a loaded CI machine.
    expect(seconds).toBeLessThan(4);
  });
});
