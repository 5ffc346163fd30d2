import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRunRows } from '../../src/bench/runFile.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'graft-run-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const row = (questionIndex: number, method: string, budget: number) => ({
  questionIndex, method, budget, intent: 'offline', retrieved: ['a'], gold: ['a'], goldBaseCount: 1,
  recall: 1, precision: 1, f1: 1, sufficiency: 1, returned: 1, latencyMs: 1,
});
const write = (name: string, content: string) => {
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return file;
};

describe('readRunRows', () => {
  it("keeps one method's rows at one budget", () => {
    const file = write('run.json', JSON.stringify({ protocol: 'graft-bench-results-v1', rows: [row(0, 'graft', 10), row(0, 'bm25', 10), row(1, 'graft', 10), row(0, 'graft', 5)] }));
    const { results, rows } = readRunRows(file, 'graft', 10);
    expect(rows.map((r) => r.questionIndex)).toEqual([0, 1]);
    expect(results.rows).toHaveLength(4);
  });

  it('refuses, naming the file: no such rows, another JSON, no JSON', () => {
    const run = write('run2.json', JSON.stringify({ protocol: 'graft-bench-results-v1', rows: [row(0, 'graft', 10)] }));
    expect(() => readRunRows(run, 'graft', 15)).toThrow(`${run}: no rows of method graft at budget 15`);
    const other = write('other.json', JSON.stringify({ name: 'graft-catalog' }));
    expect(() => readRunRows(other, 'graft', 10)).toThrow(`${other}: not the results of \`graft bench run\``);
    const broken = write('broken.json', '{"rows": [');
    expect(() => readRunRows(broken, 'graft', 10)).toThrow(`${broken}: not a readable JSON file`);
    expect(() => readRunRows(path.join(dir, 'missing.json'), 'graft', 10)).toThrow(/missing\.json: not a readable JSON file/);
  });
});
