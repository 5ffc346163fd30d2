import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGraft } from '../support/cli.js';
import { makeDemoLake } from '../support/demoLake.js';

describe('graft value train / list, and ask with the learned model', () => {
  let home: string;
  let lake: string;

  beforeAll(async () => {
    home = await mkdtemp(path.join(os.tmpdir(), 'graft-cli-value-'));
    ({ dir: lake } = await makeDemoLake());
    const r = await runGraft(home, ['ingest', lake]);
    expect(r.code, r.stderr).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
    await rm(lake, { recursive: true, force: true });
  });

  it('rejects bad flags with a message naming the flag, storing nothing', async () => {
    const bad = await runGraft(home, ['value', 'train', '--sampler', 'random']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--sampler must be one of centrality, anchor, uniform/);
    const gamma = await runGraft(home, ['value', 'train', '--gamma', '1.5']);
    expect(gamma.code).toBe(1);
    expect(gamma.stderr).toMatch(/--gamma must be a number in 0\.\.1 \(got "1\.5"\)/);
    const hidden = await runGraft(home, ['value', 'train', '--hidden', '8,0']);
    expect(hidden.code).toBe(1);
    expect(hidden.stderr).toMatch(/--hidden must be a comma-separated list of integers >= 1 \(got "8,0"\)/);
    const list = await runGraft(home, ['value', 'list']);
    expect(list.stdout).toMatch(/no value model stored/);
  }, 120_000);

  it('trains, writes the ONNX file, lists the model, and ask answers with it', async () => {
    const out = path.join(home, 'q.onnx');
    const t = await runGraft(home, ['value', 'train', '--trajectories', '20', '--steps', '30', '--hidden', '8,8', '--sampler', 'uniform', '--out', out]);
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout).toMatch(/value model [0-9a-f-]{36}: \d+ trajectories, \d+ transitions, sampler uniform, gamma 0.8/);
    expect(t.stdout).toMatch(/IQL \d+(\.\d)? ms\/step on tfjs (wasm|cpu)/);
    const bytes = await readFile(out);
    expect(bytes.length).toBeGreaterThan(100);
    const list = await runGraft(home, ['value', 'list']);
    expect(list.stdout).toMatch(/uniform/);
    const ask = await runGraft(home, ['ask', 'points scored by players of each club', '--json']);
    expect(ask.code, ask.stderr).toBe(0);
    const result = JSON.parse(ask.stdout) as { valueFunction: string; tables: unknown[] };
    expect(result.valueFunction).toBe('learned');
    expect(result.tables.length).toBeGreaterThan(0);
    const heuristic = await runGraft(home, ['ask', 'points scored by players of each club', '--json', '--value', 'heuristic']);
    expect(JSON.parse(heuristic.stdout).valueFunction).toBe('heuristic');
    const off = await runGraft(home, ['ask', 'points scored by players of each club', '--json'], { GRAFT_VALUE_MODEL: 'off' });
    expect(JSON.parse(off.stdout).valueFunction).toBe('heuristic');
    // The alternates' floor: 0 keeps every offer that fits (each with its confidence), 1 leaves
    // the core alone, and the flag must be a number.
    const filled = await runGraft(home, ['ask', 'points scored by players of each club', '--json', '--min-alternate-confidence', '0']);
    const offered = (JSON.parse(filled.stdout) as { tables: { role: string; confidence?: number }[] }).tables.filter((t) => t.role === 'alternate');
    expect(offered.length).toBeGreaterThan(0);
    for (const t of offered) expect(t.confidence).toBeGreaterThan(0);
    const coreOnly = await runGraft(home, ['ask', 'points scored by players of each club', '--json', '--min-alternate-confidence', '1']);
    expect(coreOnly.code, coreOnly.stderr).toBe(0);
    const tables = (JSON.parse(coreOnly.stdout) as { tables: { role: string }[] }).tables;
    expect(tables.length).toBeGreaterThan(0);
    expect(tables.filter((t) => t.role === 'alternate')).toEqual([]);
    const bad = await runGraft(home, ['ask', 'points scored by players of each club', '--min-alternate-confidence', 'most']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--min-alternate-confidence must be a number');
    // Outside 0..1 the flag is refused by its own name, before any engine work.
    const above = await runGraft(home, ['ask', 'points scored by players of each club', '--min-alternate-confidence', '1.5']);
    expect(above.code).not.toBe(0);
    expect(above.stderr).toContain('--min-alternate-confidence must be a number in 0..1 (got "1.5")');
  }, 240_000);
});
