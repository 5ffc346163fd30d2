import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCatalog } from '../../src/catalog/index.js';
import { embedderConfigFromEnv } from '../../src/embed/index.js';
import { createEngine, DEFAULT_ENGINE_TASKS_PER_WORKER, DEFAULT_ENGINE_WARMUP_MS, EnginePool, enginePoolSettingsFromEnv, warmupQuestions, type Engine } from '../../src/engine/index.js';
import { BadInputError } from '../../src/util/errors.js';
import { openDemoCatalog, type DemoCatalog } from '../support/demoLake.js';

/**
 * The engine pool (worker threads holding a shipped snapshot) answers exactly as the
 * in-process engine (also with several calls in one worker), keeps error classes across the
 * thread boundary, honours grants, and survives a call cancelled while it runs (stopped at a
 * checkpoint, or its worker replaced); its workers run at a lower priority than the server.
 */

/** Nice values of this process's threads (Linux: /proc/self/task/<tid>/stat, field 19). */
function threadNiceValues(): number[] {
  return readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses) start at field 3.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}
describe('engine pool on the demo lake', () => {
  let demo: DemoCatalog;
  let local: Engine;
  let pool: EnginePool;

  beforeAll(async () => {
    demo = await openDemoCatalog();
    local = createEngine(demo.db, demo.embedder, { valueModel: 'off' });
    // Below the main thread's priority (as by default), so the priority test has something to see.
    pool = new EnginePool(demo.db, embedderConfigFromEnv({}), { threads: 2, niceIncrement: 5 });
  });
  afterAll(async () => {
    await pool?.close();
    await demo?.close();
  });

  /** A long call (a question of three gold tables, L = 30, B = 32) to `on`, aborted 5 ms after it starts: rejects with the abort's reason. */
  const cancelledCall = (on: EnginePool, reason: Error, extra: { preview?: number } = {}) => {
    const q = demo.gold.questions.find((x) => x.tables.length >= 3)!;
    const controller = new AbortController();
    const call = on.synthesize(q.question, { budget: 30, beamWidth: 32, ...extra, signal: controller.signal });
    setTimeout(() => controller.abort(reason), 5);
    return call;
  };

  it('gives the in-process answers for every gold question', async () => {
    for (const q of demo.gold.questions) {
      const [a, b] = await Promise.all([local.synthesize(q.question, { budget: 10 }), pool.synthesize(q.question, { budget: 10 })]);
      expect({ id: q.id, tables: b.tables, score: b.score, sql: b.plan.sql }).toEqual({ id: q.id, tables: a.tables, score: a.score, sql: a.plan.sql });
      // The search trace stays in the worker: the API never serves it.
      expect(a.search).toBeDefined();
      expect(b.search).toBeUndefined();
    }
  });

  it('keeps bad input a BadInputError naming the field, and applies grants', async () => {
    const err = await pool.synthesize('orders', { budget: 1000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'budget' } });
    expect(err).not.toBeInstanceOf(BadInputError); // rebuilt as a GraftError with the same code
    await expect(pool.synthesize('orders', { budget: 10, preview: -1 })).rejects.toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'preview' } });
    const q = demo.gold.questions[0];
    const none = await pool.synthesize(q.question, { budget: 10, allowTable: () => false });
    expect(none.tables).toEqual([]);
  });

  it('rejects a cancelled call with the signal reason and keeps answering', async () => {
    const reason = new Error('timed out');
    await expect(cancelledCall(pool, reason)).rejects.toBe(reason);
    const after = await pool.synthesize(demo.gold.questions[0].question, { budget: 10 });
    expect(after.tables.length).toBeGreaterThan(0);
  });

  it('stops a cancelled call at its next checkpoint and keeps the worker, warm, for the next call', async () => {
    // One call at a time: the status call waits until the cancelled one has left the worker.
    const single = new EnginePool(demo.db, embedderConfigFromEnv({}), { threads: 1, warmupMs: 0, tasksPerWorker: 1 });
    try {
      const first = await single.workerStatus();
      expect(first.cancelledCalls).toBe(0);
      const reason = new Error('timed out');
      await expect(cancelledCall(single, reason)).rejects.toBe(reason);
      const after = await single.workerStatus();
      expect(after).toMatchObject({ threadId: first.threadId, cancelledCalls: 1 });
      const next = await single.synthesize(demo.gold.questions[0].question, { budget: 10 });
      expect(next.tables.length).toBeGreaterThan(0);
    } finally {
      await single.close();
    }
  });

  it('runs several calls at once in one worker with the answers of one at a time', async () => {
    const interleaved = new EnginePool(demo.db, embedderConfigFromEnv({}), { threads: 1, warmupMs: 0, tasksPerWorker: 4 });
    try {
      // With a signal, as every API call has (its time limit): only then do the engine's
      // checkpoints give the worker's event loop a turn, so the calls really interleave.
      const signal = new AbortController().signal;
      const answers = await Promise.all(demo.gold.questions.map((q) => interleaved.synthesize(q.question, { budget: 10, signal })));
      for (const [i, q] of demo.gold.questions.entries()) {
        const a = await local.synthesize(q.question, { budget: 10 });
        const b = answers[i];
        expect({ id: q.id, tables: b.tables, score: b.score, sql: b.plan.sql }).toEqual({ id: q.id, tables: a.tables, score: a.score, sql: a.plan.sql });
      }
    } finally {
      await interleaved.close();
    }
  });

  it('loads its word lists before a worker takes its first task, also in a worker replacing one a cancelled call killed', async () => {
    const single = new EnginePool(demo.db, embedderConfigFromEnv({}), { threads: 1, warmupMs: 0 });
    try {
      const loaded = { lemmatiser: true, wordVectors: true, wordNet: true };
      const first = await single.workerStatus();
      expect(first).toMatchObject({ generation: null, languageResources: loaded });
      // A call with preview rows runs DuckDB, which no checkpoint interrupts: cancelling it
      // terminates its worker.
      const reason = new Error('cancelled');
      await expect(cancelledCall(single, reason, { preview: 5 })).rejects.toBe(reason);
      const replacement = await single.workerStatus();
      expect(replacement.threadId).not.toBe(first.threadId);
      expect(replacement).toMatchObject({ generation: null, languageResources: loaded });
    } finally {
      await single.close();
    }
  });

  it('answers each call with the error of a word list that cannot load, keeps its worker, and reports the error when asked', async () => {
    // Workers copy the environment when they start: set only while the pool makes its worker.
    process.env.GRAFT_WORD_VECTORS = path.join(os.tmpdir(), 'graft-no-such-word-vectors.bin');
    let broken: EnginePool;
    try {
      broken = new EnginePool(demo.db, embedderConfigFromEnv({}), { threads: 1, warmupMs: 0 });
    } finally {
      delete process.env.GRAFT_WORD_VECTORS;
    }
    try {
      const q = demo.gold.questions[0];
      for (let i = 0; i < 2; i++) {
        await expect(broken.synthesize(q.question, { budget: 10 })).rejects.toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'GRAFT_WORD_VECTORS' }, message: expect.stringMatching(/GRAFT_WORD_VECTORS: no file at/) });
      }
      expect((await broken.workerStatus()).languageResources).toMatchObject({ lemmatiser: true, wordVectors: false });
      // What `graft serve` checks before it listens.
      await expect(broken.checkWordLists()).rejects.toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'GRAFT_WORD_VECTORS' } });
      await expect(pool.checkWordLists()).resolves.toBeUndefined();
    } finally {
      await broken.close();
    }
  });

  it.runIf(process.platform === 'linux')('runs its workers below the priority of the thread that made it', async () => {
    const q = demo.gold.questions[0];
    await Promise.all([pool.synthesize(q.question, { budget: 5 }), pool.synthesize(q.question, { budget: 5 })]);
    const nice = threadNiceValues();
    expect(nice.filter((n) => n === 5).length).toBeGreaterThanOrEqual(pool.threads);
    // Per thread, not the whole process: this thread (the server's main thread) keeps its priority.
    expect(nice.filter((n) => n === 0).length).toBeGreaterThan(0);
  });

  it('reads GRAFT_ENGINE_WORKERS, GRAFT_ENGINE_NICE, GRAFT_ENGINE_WARMUP_MS and GRAFT_ENGINE_TASKS_PER_WORKER, naming the variable when it is bad', () => {
    const nice = (v: string) => enginePoolSettingsFromEnv({ GRAFT_ENGINE_NICE: v }).niceIncrement;
    expect(enginePoolSettingsFromEnv({})).toEqual({ threads: null, warmupMs: DEFAULT_ENGINE_WARMUP_MS, tasksPerWorker: DEFAULT_ENGINE_TASKS_PER_WORKER });
    expect(enginePoolSettingsFromEnv({}).niceIncrement).toBeUndefined();
    expect(nice('0')).toBe(0);
    expect(nice('19')).toBe(19);
    for (const bad of ['-1', '20', '2.5', 'low']) {
      expect(() => nice(bad)).toThrow(BadInputError);
      expect(() => nice(bad)).toThrow(/GRAFT_ENGINE_NICE/);
    }
    expect(enginePoolSettingsFromEnv({ GRAFT_ENGINE_WORKERS: '0' }).threads).toBe(0);
    expect(enginePoolSettingsFromEnv({ GRAFT_ENGINE_WORKERS: '3' }).threads).toBe(3);
    expect(() => enginePoolSettingsFromEnv({ GRAFT_ENGINE_WORKERS: '257' })).toThrow(/GRAFT_ENGINE_WORKERS/);
    expect(enginePoolSettingsFromEnv({ GRAFT_ENGINE_WARMUP_MS: '0' }).warmupMs).toBe(0);
    expect(() => enginePoolSettingsFromEnv({ GRAFT_ENGINE_WARMUP_MS: 'soon' })).toThrow(/GRAFT_ENGINE_WARMUP_MS/);
    expect(enginePoolSettingsFromEnv({ GRAFT_ENGINE_TASKS_PER_WORKER: '1' }).tasksPerWorker).toBe(1);
    expect(() => enginePoolSettingsFromEnv({ GRAFT_ENGINE_TASKS_PER_WORKER: '0' })).toThrow(/GRAFT_ENGINE_TASKS_PER_WORKER/);
  });

  it('warms its workers up on questions made from the catalog names, while real calls still get through', async () => {
    const snapshot = await local.snapshot();
    const questions = warmupQuestions(snapshot, snapshot.tables.length * 3);
    // Every table is asked about, in each of the three forms, and none twice.
    expect(new Set(questions).size).toBe(questions.length);
    expect(questions.filter((q) => q.includes('player club map')).length).toBeGreaterThanOrEqual(3);
    expect(warmupQuestions(snapshot, 4, 7)).toEqual(questions.slice(7, 11));
    const q = demo.gold.questions[0];
    const warming = pool.warmUp(1500);
    const during = await pool.synthesize(q.question, { budget: 10 });
    const done = await warming;
    expect(done.questions).toBeGreaterThan(pool.threads);
    expect(done.ms).toBeGreaterThanOrEqual(1500);
    expect(done.stopped).toBe(false);
    expect(during.tables).toEqual((await local.synthesize(q.question, { budget: 10 })).tables);
  });

  it('has nothing to warm up on in an empty catalog', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'graft-warmup-empty-'));
    const db = await openCatalog({ dataDir: dir });
    const empty = new EnginePool(db, embedderConfigFromEnv({}), { threads: 1 });
    try {
      const done = await empty.warmUp(30_000);
      expect(done.questions).toBe(0);
      expect(done.ms).toBeLessThan(30_000);
    } finally {
      await empty.close();
      await db.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('stops warming up when it closes', async () => {
    const closing = new EnginePool(demo.db, embedderConfigFromEnv({}), { threads: 1, warmupMs: 60_000 });
    const warming = closing.warmUp();
    await new Promise((r) => setTimeout(r, 300));
    const started = performance.now();
    await closing.close();
    const done = await warming;
    expect(done.stopped).toBe(true);
    expect(done.ms).toBeLessThan(60_000);
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('is made from the environment as graft serve makes it: none for GRAFT_ENGINE_WORKERS=0', async () => {
    expect(EnginePool.fromEnv(demo.db, { GRAFT_ENGINE_WORKERS: '0' })).toBeNull();
    const fromEnv = EnginePool.fromEnv(demo.db, { GRAFT_ENGINE_WORKERS: '1', GRAFT_ENGINE_NICE: '3' })!;
    try {
      expect({ threads: fromEnv.threads, nice: fromEnv.niceIncrement }).toEqual({ threads: 1, nice: 3 });
    } finally {
      await fromEnv.close();
    }
  });
});
