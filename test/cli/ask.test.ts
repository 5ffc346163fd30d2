import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGraft } from '../support/cli.js';

describe('graft ask refuses bad input by the flag and the file', () => {
  let home: string;

  beforeAll(async () => {
    home = await mkdtemp(path.join(os.tmpdir(), 'graft-cli-ask-'));
  });
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('refuses a budget, beam or preview out of range, naming the flag', async () => {
    const cases: [string[], RegExp][] = [
      [['--budget', '0'], /--budget must be an integer in 1\.\.100 \(got "0"\)/],
      [['--budget', '101'], /--budget must be an integer in 1\.\.100 \(got "101"\)/],
      [['--beam', '0'], /--beam must be an integer in 1\.\.64 \(got "0"\)/],
      [['--preview', '-1'], /--preview must be an integer >= 0 \(got "-1"\)/],
    ];
    for (const [flags, message] of cases) {
      const r = await runGraft(home, ['ask', 'orders', ...flags]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(message);
    }
  }, 120_000);

  it('names the intent file it cannot read or parse', async () => {
    const missing = path.join(home, 'missing.json');
    const notJson = path.join(home, 'not-json.json');
    const wrongShape = path.join(home, 'wrong-shape.json');
    await writeFile(notJson, 'not json');
    await writeFile(wrongShape, JSON.stringify({ version: 1, trees: 3, edges: [] }));
    const cases: [string, RegExp][] = [
      [missing, /--intent file:\S+missing\.json: cannot read it \(no such file\)/],
      [home, /--intent file:\S+: cannot read it \(a directory, not a file\)/],
      [notJson, /--intent file:\S+not-json\.json: invalid intent graph: \(root\): not valid JSON/],
      [wrongShape, /--intent file:\S+wrong-shape\.json: invalid intent graph: trees/],
    ];
    for (const [file, message] of cases) {
      const r = await runGraft(home, ['ask', 'orders', '--intent', `file:${file}`]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace
    }
  }, 120_000);
});
