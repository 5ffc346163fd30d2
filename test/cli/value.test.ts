import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDemoLake } from '../support/demoLake.js';

const run = promisify(execFile);

/** The real CLI in a child process, on its own embedded catalog. */
async function graft(home: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
      env: { ...process.env, GRAFT_HOME: home, GRAFT_DB_DIR: path.join(home, 'db'), DATABASE_URL: '' },
      maxBuffer: 32 * 1024 * 1024,
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('graft value train / list, and ask with the learned model', () => {
  let home: string;
  let lake: string;

  beforeAll(async () => {
    home = await mkdtemp(path.join(os.tmpdir(), 'graft-cli-value-'));
    ({ dir: lake } = await makeDemoLake());
    const r = await graft(home, 'ingest', lake);
    expect(r.code, r.stderr).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
    await rm(lake, { recursive: true, force: true });
  });

  it('rejects bad flags with a message naming the flag, storing nothing', async () => {
    const bad = await graft(home, 'value', 'train', '--sampler', 'random');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--sampler must be one of centrality, anchor, uniform/);
    const gamma = await graft(home, 'value', 'train', '--gamma', '1.5');
    expect(gamma.code).toBe(1);
    expect(gamma.stderr).toMatch(/--gamma must be a number in 0\.\.1 \(got "1\.5"\)/);
    const hidden = await graft(home, 'value', 'train', '--hidden', '8,0');
    expect(hidden.code).toBe(1);
    expect(hidden.stderr).toMatch(/--hidden must be a comma-separated list of integers >= 1 \(got "8,0"\)/);
    const list = await graft(home, 'value', 'list');
    expect(list.stdout).toMatch(/no value model stored/);
  }, 120_000);

  it('trains, writes the ONNX file, lists the model, and ask answers with it', async () => {
    const out = path.join(home, 'q.onnx');
    const t = await graft(home, 'value', 'train', '--trajectories', '20', '--steps', '30', '--hidden', '8,8', '--sampler', 'uniform', '--out', out);
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout).toMatch(/value model [0-9a-f-]{36}: \d+ trajectories, \d+ transitions, sampler uniform, gamma 0.8/);
    expect(t.stdout).toMatch(/IQL \d+(\.\d)? ms\/step on tfjs (wasm|cpu)/);
    const bytes = await readFile(out);
    expect(bytes.length).toBeGreaterThan(100);
    const list = await graft(home, 'value', 'list');
    expect(list.stdout).toMatch(/uniform/);
    const ask = await graft(home, 'ask', 'points scored by players of each club', '--json');
    expect(ask.code, ask.stderr).toBe(0);
    const result = JSON.parse(ask.stdout) as { valueFunction: string; tables: unknown[] };
    expect(result.valueFunction).toBe('learned');
    expect(result.tables.length).toBeGreaterThan(0);
    const heuristic = await graft(home, 'ask', 'points scored by players of each club', '--json', '--value', 'heuristic');
    expect(JSON.parse(heuristic.stdout).valueFunction).toBe('heuristic');
    const off = await run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'ask', 'points scored by players of each club', '--json'], {
      env: { ...process.env, GRAFT_HOME: home, GRAFT_DB_DIR: path.join(home, 'db'), DATABASE_URL: '', GRAFT_VALUE_MODEL: 'off' },
    });
    expect(JSON.parse(off.stdout).valueFunction).toBe('heuristic');
    // The alternates' floor: 0 keeps every offer that fits (each with its confidence), 1 leaves
    // the core alone, and the flag must be a number.
    const filled = await graft(home, 'ask', 'points scored by players of each club', '--json', '--min-alternate-confidence', '0');
    const offered = (JSON.parse(filled.stdout) as { tables: { role: string; confidence?: number }[] }).tables.filter((t) => t.role === 'alternate');
    expect(offered.length).toBeGreaterThan(0);
    for (const t of offered) expect(t.confidence).toBeGreaterThan(0);
    const coreOnly = await graft(home, 'ask', 'points scored by players of each club', '--json', '--min-alternate-confidence', '1');
    expect(coreOnly.code, coreOnly.stderr).toBe(0);
    const tables = (JSON.parse(coreOnly.stdout) as { tables: { role: string }[] }).tables;
    expect(tables.length).toBeGreaterThan(0);
    expect(tables.filter((t) => t.role === 'alternate')).toEqual([]);
    const bad = await graft(home, 'ask', 'points scored by players of each club', '--min-alternate-confidence', 'most');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--min-alternate-confidence must be a number');
    // Outside 0..1 the flag is refused by its own name, before any engine work.
    const above = await graft(home, 'ask', 'points scored by players of each club', '--min-alternate-confidence', '1.5');
    expect(above.code).not.toBe(0);
    expect(above.stderr).toContain('--min-alternate-confidence must be a number in 0..1 (got "1.5")');
  }, 240_000);
});
