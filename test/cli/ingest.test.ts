import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `graft ingest` as users start it: `npx graft ...` in a child process (npx, then the bin
 * script), on its own embedded catalog. Each child runs in its own process group so that
 * whatever a broken signal chain leaves behind is killed at the end.
 */
const repo = path.resolve(import.meta.dirname, '../..');
const groups: number[] = [];

interface Child {
  pid: number;
  stdout: string;
  stderr: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function npxGraft(home: string, ...args: string[]): Child {
  const child = spawn('npx', ['--no-install', 'graft', ...args], {
    cwd: repo,
    env: { ...process.env, GRAFT_HOME: home, GRAFT_DB_DIR: path.join(home, 'db'), DATABASE_URL: '', GRAFT_EMBEDDER: '' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  groups.push(child.pid!);
  const c: Child = {
    pid: child.pid!,
    stdout: '',
    stderr: '',
    exited: new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal }))),
  };
  child.stdout.on('data', (d: Buffer) => (c.stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (c.stderr += d.toString()));
  return c;
}

async function finished(c: Child) {
  const r = await c.exited;
  // stdio may still be flushing after 'exit'.
  await new Promise((res) => setTimeout(res, 50));
  return r;
}

/** Waits until no process of the group `pgid` is left; false when some remain after `ms`. */
async function groupGone(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      process.kill(-pgid, 0);
    } catch {
      return true;
    }
    if (Date.now() > deadline) return false;
    await new Promise((res) => setTimeout(res, 100));
  }
}

async function runJson<T>(home: string, ...args: string[]): Promise<T> {
  const c = npxGraft(home, ...args, '--json');
  const r = await finished(c);
  expect(r.code, c.stderr).toBe(0);
  return JSON.parse(c.stdout) as T;
}

type Run = { id: string; status: string; filesSeen: number; tablesIngested: number; tablesFailed: number; errors: { path: string; code: string; message: string }[] };

/** A lake of many small CSV files: long enough to interrupt between tables. */
async function manyTablesLake(root: string, n: number): Promise<string> {
  const dir = path.join(root, 'many');
  await mkdir(dir, { recursive: true });
  for (let i = 0; i < n; i++) {
    const rows = Array.from({ length: 200 }, (_, r) => `${r},item_${i}_${r},${(r * 7) % 13}`).join('\n');
    await writeFile(path.join(dir, `t${String(i).padStart(3, '0')}.csv`), `id,label_${i},bucket\n${rows}\n`);
  }
  return dir;
}

describe('graft ingest from the command line', () => {
  let home: string;

  beforeAll(async () => {
    home = await mkdtemp(path.join(os.tmpdir(), 'graft-cli-ingest-'));
  });
  afterAll(async () => {
    for (const g of groups) {
      try {
        process.kill(-g, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await rm(home, { recursive: true, force: true });
  });

  it('exits 3 when some files failed, and ingest-run shows each failed file with its error', async () => {
    const dir = path.join(home, 'mixed');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'good.csv'), 'id,name\n1,a\n2,b\n');
    await writeFile(path.join(dir, 'broken.parquet'), 'this is not parquet');
    const c = npxGraft(home, 'ingest', dir);
    const r = await finished(c);
    expect(r.code, c.stderr).toBe(3);
    expect(c.stdout).toContain('ingest partial');
    expect(c.stdout).toContain('broken.parquet');
    const runId = /\(run ([0-9a-f-]{36})\)/.exec(c.stdout)![1];

    const shown = npxGraft(home, 'ingest-run', runId.slice(0, 8));
    expect((await finished(shown)).code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`run ${runId}: partial`);
    expect(shown.stdout).toContain(path.join(dir, 'broken.parquet'));
    expect(shown.stdout).toContain('LAKE_READ');
    const run = await runJson<Run>(home, 'ingest-run', runId);
    expect(run).toMatchObject({ id: runId, status: 'partial', tablesIngested: 1, tablesFailed: 1 });

    const unknown = npxGraft(home, 'ingest-run', 'ffffffff');
    expect((await finished(unknown)).code).toBe(1);
    expect(unknown.stderr).toContain('no ingest run with id ffffffff');
  }, 180_000);

  it('stops on SIGTERM sent to npx: the whole process chain ends, the run reads interrupted, the catalog holds only whole tables, a re-run completes', async () => {
    const total = 150;
    const lake = await manyTablesLake(home, total);
    const c = npxGraft(home, 'ingest', lake);
    // Wait until the ingest is part-way through its tables (non-TTY progress lines).
    const deadline = Date.now() + 150_000;
    for (;;) {
      const m = [...c.stderr.matchAll(/ingest: profile (\d+)\/(\d+) tables/g)].at(-1);
      if (m && Number(m[1]) > 0) break;
      if (Date.now() > deadline) throw new Error(`no progress: ${c.stderr}`);
      await new Promise((res) => setTimeout(res, 100));
    }
    process.kill(c.pid, 'SIGTERM');
    const r = await Promise.race([finished(c), new Promise<'hung'>((res) => setTimeout(() => res('hung'), 60_000))]);
    if (r === 'hung') throw new Error(`npx did not exit within 60 s of SIGTERM: ${c.stderr}`);
    // npx itself ends by the signal (npm re-raises it) or with the CLI's 143 ...
    expect(r.code === 143 || r.signal === 'SIGTERM', JSON.stringify(r)).toBe(true);
    // ... and every process it started, the one doing the work included, is gone soon after.
    expect(await groupGone(c.pid, 60_000), 'a process of the npx chain still runs after SIGTERM').toBe(true);
    expect(c.stderr).toMatch(/SIGTERM.*: stopping the ingest/);

    const run = await runJson<Run>(home, 'ingest-run');
    expect(run.status).toBe('interrupted');
    expect(run.tablesIngested).toBeGreaterThan(0);
    expect(run.tablesIngested).toBeLessThan(total);
    const tables = await runJson<{ name: string; columnCount: number }[]>(home, 'tables', '--filter', 't');
    const ours = tables.filter((t) => /^t\d{3}$/.test(t.name));
    // Tables the stopped run committed wait (pending, invisible) for their embeddings, which the
    // next run writes: none is visible half-made.
    expect(ours.length).toBeLessThanOrEqual(run.tablesIngested);
    expect(ours.every((t) => t.columnCount === 3)).toBe(true);

    const again = npxGraft(home, 'ingest', lake);
    expect((await finished(again)).code, again.stderr).toBe(0);
    const after = await runJson<{ name: string }[]>(home, 'tables', '--filter', 't');
    expect(after.filter((t) => /^t\d{3}$/.test(t.name))).toHaveLength(total);
  }, 400_000);
});
