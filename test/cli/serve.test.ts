import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCatalog } from '../../src/catalog/index.js';
import { HashedNgramEmbedder } from '../../src/embed/index.js';
import { ingestLake } from '../../src/ingest/index.js';
import { makeDemoLake } from '../support/demoLake.js';

/**
 * How `graft serve` starts its engine: it warms its workers up in the background once it listens
 * (GRAFT_ENGINE_WARMUP_MS), and says so (with GRAFT_ENGINE_WARMUP_MS=0 it does not); the word
 * lists are loaded, or their error stops the server, before it listens.
 */
describe('graft serve: engine start-up', () => {
  let tmp: string;
  let lake: string;
  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'graft-serve-'));
    lake = (await makeDemoLake()).dir;
    const db = await openCatalog({ dataDir: path.join(tmp, 'db') });
    await ingestLake(db, lake, { embedder: new HashedNgramEmbedder() });
    await db.close();
  }, 120_000);
  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
    await rm(lake, { recursive: true, force: true });
  });

  /**
   * Runs `graft serve` until `done` says its stderr is complete (or `waitMs` passes, or it exits),
   * reads `graceMs` more of it, runs `probe` (given the server's URL, once it has logged it, and
   * the log so far), then stops it. `exitCode`: the code it exited with by itself (null: it was
   * still running and was stopped).
   */
  async function serve(
    env: Record<string, string>,
    done: (log: string) => boolean,
    waitMs: number,
    graceMs = 0,
    probe?: (url: string, log: () => string) => Promise<void>,
  ): Promise<{ log: string; exitCode: number | null }> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0'], {
      env: { ...process.env, GRAFT_DB_DIR: path.join(tmp, 'db'), GRAFT_VALUE_MODEL: 'off', GRAFT_ENGINE_WORKERS: '1', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    let exitCode: number | null = null;
    let stopping = false;
    child.on('exit', (code) => {
      if (!stopping) exitCode = code;
    });
    let log = '';
    try {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, waitMs);
        child.stderr.on('data', (d) => {
          log += d;
          if (done(log)) (clearTimeout(timer), resolve());
        });
        child.on('exit', () => (clearTimeout(timer), resolve()));
      });
      await new Promise((resolve) => setTimeout(resolve, graceMs));
      const url = /graft serve: (http:\/\/\S+)\/graphql/.exec(log)?.[1];
      if (probe) await probe(url ?? expect.fail(`no URL in the log:\n${log}`), () => log);
    } finally {
      stopping = true;
      child.kill('SIGTERM');
      await exited;
    }
    return { log, exitCode };
  }
  const serveLog = async (...args: Parameters<typeof serve>) => (await serve(...args)).log;

  it('warms the workers up on the catalog names and logs it', { timeout: 120_000 }, async () => {
    const log = await serveLog({ GRAFT_ENGINE_WARMUP_MS: '1000' }, (l) => /warmed up/.test(l), 90_000);
    expect(log).toMatch(/graft serve: engine on 1 worker threads/);
    expect(log).toMatch(/graft serve: warming the engine workers up for 1000 ms in the background/);
    expect(log).toMatch(/graft serve: engine workers warmed up on [1-9]\d* questions from the catalog's names in \d+ ms/);
  });

  it('loads the word lists of the in-process engine before it listens (GRAFT_ENGINE_WORKERS=0)', { timeout: 120_000 }, async () => {
    const log = await serveLog({ GRAFT_ENGINE_WORKERS: '0' }, (l) => /\/graphql/.test(l), 90_000);
    expect(log).toMatch(/graft serve: engine in-process \(GRAFT_ENGINE_WORKERS=0\)/);
    expect(log).toMatch(/graft serve: engine word lists loaded in \d+ ms\n[\s\S]*graft serve: http:\/\/\S+\/graphql/);
  });

  it('reads not ready on /readyz while its workers warm up, ready after', { timeout: 120_000 }, async () => {
    await serve({ GRAFT_ENGINE_WARMUP_MS: '3000' }, (l) => /\/graphql/.test(l), 90_000, 0, async (url, log) => {
      const warming = await fetch(`${url}/readyz`);
      expect(warming.status).toBe(503);
      expect(await warming.json()).toEqual({ status: 'warming-up', database: 'pglite', engine: 'warming-up' });
      // The server answers meanwhile: only the load balancer's choice waits.
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      await expect.poll(log, { timeout: 60_000, interval: 100 }).toMatch(/warmed up/);
      const ready = await fetch(`${url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready', database: 'pglite', engine: 'ready' });
    });
  });

  it('stops at start with the error of a word list its workers cannot load', { timeout: 120_000 }, async () => {
    const missing = path.join(tmp, 'no-such-word-vectors.bin');
    const { log, exitCode } = await serve({ GRAFT_WORD_VECTORS: missing }, () => false, 90_000);
    expect(exitCode).toBe(1);
    expect(log).toContain(`GRAFT_WORD_VECTORS: no file at ${missing}`);
    expect(log).not.toMatch(/\/graphql/);
  });

  it('does not warm up with GRAFT_ENGINE_WARMUP_MS=0', { timeout: 120_000 }, async () => {
    // A warm-up is announced right after the listening line: a second after it is enough.
    const log = await serveLog({ GRAFT_ENGINE_WARMUP_MS: '0' }, (l) => /\/graphql/.test(l), 90_000, 1000);
    expect(log).toMatch(/graft serve: http:\/\/\S+\/graphql/);
    expect(log).not.toMatch(/warming|warmed up|warm-up/);
  });
});
