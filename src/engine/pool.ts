import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import type { CatalogDatabase } from '../catalog/database.js';
import { embedderConfigFromEnv, type EmbedderConfig } from '../embed/index.js';
import type { IntentGraph } from '../intent/index.js';
import { LakeSnapshot } from '../search/index.js';
import { envInt } from '../util/env.js';
import { ErrorCode, GraftError } from '../util/errors.js';
import type { EngineTask, EngineTaskResult, EngineWorkerData, EngineWorkerStatus, TaskError } from './engineWorker.js';
import { encodeSnapshot } from './snapshotTransfer.js';
import type { AskOptions, IntentResult, ScoreExplanation, SynthesisResult, TableFilter } from './types.js';

export interface EnginePoolOptions {
  /** Worker threads (default: the machine's cores). */
  threads?: number;
  /**
   * How much lower the workers' scheduling priority is than the server's, as a nice increment
   * (0..19; Linux and macOS; 0: the same). Default `DEFAULT_ENGINE_NICE`.
   */
  niceIncrement?: number;
  /** How long `warmUp()` runs by default (default `DEFAULT_ENGINE_WARMUP_MS`; 0: it does nothing). */
  warmupMs?: number;
}

/**
 * The engine workers run at the server's priority unless told otherwise. A nice increment puts
 * health probes, catalog queries and the request pipeline ahead of the engine on busy cores: at
 * +5 (the default until the eighth 2026-12-05 session) /healthz p99 went from 58 to 30 ms and the
 * catalog query from 795 to 1,221 req/s under the API load bench, when each request cost the main
 * thread far more. Since it costs less, +5 mostly hands the cores to the catalog query's closed
 * loop: on the same machine, 60 s, synthesize / catalog query req/s / /healthz p99 ms at +5
 * 200 / 2,168 / 18, at 0 248 / 2,000 / 19 (docs/BENCHMARKS.md, "API load"). `GRAFT_ENGINE_NICE`
 * sets it.
 */
export const DEFAULT_ENGINE_NICE = 0;

/** Questions per warm-up task: a few milliseconds each on a small catalog, so real calls interleave. */
const WARMUP_TASK_QUESTIONS = 4;

/**
 * How long `graft serve` warms its engine workers up after it starts (`EnginePool.warmUp`), unless
 * GRAFT_ENGINE_WARMUP_MS says otherwise (0: not at all).
 */
export const DEFAULT_ENGINE_WARMUP_MS = 10_000;

/**
 * The pool's settings from the environment, as `graft serve` and the API load bench run it:
 * GRAFT_ENGINE_WORKERS (unset: null, one thread per core; 0: no pool, the engine in-process; n
 * threads, at most 256), GRAFT_ENGINE_NICE (unset: `DEFAULT_ENGINE_NICE`; 0..19) and
 * GRAFT_ENGINE_WARMUP_MS (unset: `DEFAULT_ENGINE_WARMUP_MS`; 0: no warm-up).
 */
export function enginePoolSettingsFromEnv(env: NodeJS.ProcessEnv): { threads: number | null; niceIncrement?: number; warmupMs: number } {
  const threads = envInt(env, 'GRAFT_ENGINE_WORKERS', 0, 256);
  const niceIncrement = envInt(env, 'GRAFT_ENGINE_NICE', 0, 19);
  const warmupMs = envInt(env, 'GRAFT_ENGINE_WARMUP_MS', 0, 600_000) ?? DEFAULT_ENGINE_WARMUP_MS;
  return { threads: threads ?? null, ...(niceIncrement !== undefined ? { niceIncrement } : {}), warmupMs };
}

/** A worker's error as the GraftError it was (see `TaskError`). */
function graftErrorOf(e: TaskError): GraftError {
  return new GraftError(e.code as ErrorCode, e.message, e.details);
}

/**
 * The engine run off the event loop: engine calls go to a piscina pool of worker threads, so a
 * long search never blocks the server (health probes, cheap catalog queries keep answering).
 *
 * The main thread is the only one that reads the catalog (PGlite is in-process and single-
 * process): it loads the snapshot, encodes it once into a SharedArrayBuffer (snapshotTransfer.ts)
 * and hands that buffer to every task; `invalidate` (ingest, delete, grants) bumps the generation
 * so each worker decodes the new one on its next task. A grant is sent as the visible table ids.
 * An aborted call (AskOptions.signal) is cancelled by piscina: a queued task is dropped, a
 * running one's worker is terminated and replaced, which frees it at once.
 *
 * Workers answer with the heuristic value function; the learned one stays with the in-process
 * engine (`createEngine`).
 */
export class EnginePool {
  private readonly pool: Piscina;
  readonly threads: number;
  /** The workers' nice increment over the thread that made the pool. */
  readonly niceIncrement: number;
  /** How long `warmUp()` runs when not told. */
  readonly warmupMs: number;
  private generation = 0;
  private closed = false;
  private loaded: Promise<{ generation: number; snapshot: LakeSnapshot; shared: SharedArrayBuffer }> | null = null;

  constructor(
    private readonly db: CatalogDatabase,
    embedder: EmbedderConfig,
    options: EnginePoolOptions = {},
  ) {
    const threads = (this.threads = Math.max(1, options.threads ?? availableParallelism()));
    this.niceIncrement = options.niceIncrement ?? DEFAULT_ENGINE_NICE;
    this.warmupMs = options.warmupMs ?? DEFAULT_ENGINE_WARMUP_MS;
    const filename = new URL(import.meta.url.endsWith('.ts') ? './engineWorker.ts' : './engineWorker.js', import.meta.url).href;
    const workerData: EngineWorkerData = { embedder };
    this.pool = new Piscina({
      filename,
      minThreads: threads,
      maxThreads: threads,
      workerData,
      niceIncrement: this.niceIncrement,
      // Run from source (tsx, vitest): the worker needs tsx's loader to import a .ts file.
      execArgv: filename.endsWith('.ts') ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href] : [],
    });
  }

  /**
   * The pool `graft serve` and the API load bench run, all from the environment (the pool's
   * settings, `enginePoolSettingsFromEnv`, and the embedder's): null when GRAFT_ENGINE_WORKERS=0,
   * the engine then runs in-process.
   */
  static fromEnv(db: CatalogDatabase, env: NodeJS.ProcessEnv): EnginePool | null {
    const { threads, niceIncrement, warmupMs } = enginePoolSettingsFromEnv(env);
    return threads === 0 ? null : new EnginePool(db, embedderConfigFromEnv(env), { threads: threads ?? undefined, niceIncrement, warmupMs });
  }

  invalidate(): void {
    this.generation++;
    this.loaded = null;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.pool.destroy();
  }

  /**
   * Runs the engine in the workers on questions made from the catalog's own names
   * (`warmupQuestions`) for about `ms` milliseconds, so that the first real questions are not
   * answered by cold code (modules and word lists not loaded, hot paths not compiled; README,
   * "Warm-up"). One lane per worker, each with one small task in flight: a real call waits behind
   * one warm-up task at most, and under load the warm-up tasks queue behind the real ones, which
   * warm the workers anyway. Resolves with the questions answered and the time taken; stops early
   * (`stopped`) when the pool closes. `graft serve` starts it in the background when it starts.
   */
  async warmUp(ms: number = this.warmupMs): Promise<{ questions: number; ms: number; stopped: boolean }> {
    const started = performance.now();
    let offset = 0;
    let questions = 0;
    const lane = async (): Promise<void> => {
      while (!this.closed && performance.now() - started < ms) {
        const at = offset;
        offset += WARMUP_TASK_QUESTIONS;
        let answered: number;
        try {
          answered = (await this.run({ kind: 'warmup', count: WARMUP_TASK_QUESTIONS, offset: at }, undefined)) as number;
        } catch (err) {
          if (this.closed) return;
          throw err;
        }
        // An empty catalog has nothing to ask about.
        if (answered === 0) return;
        questions += answered;
      }
    };
    await Promise.all(Array.from({ length: this.threads }, lane));
    return { questions, ms: Math.round(performance.now() - started), stopped: this.closed };
  }

  private current() {
    if (!this.loaded) {
      const generation = this.generation;
      this.loaded = LakeSnapshot.load(this.db).then((snapshot) => ({ generation, snapshot, shared: encodeSnapshot(snapshot) }));
      this.loaded.catch(() => {
        this.loaded = null;
      });
    }
    return this.loaded;
  }

  private async run(task: DistributiveOmit<EngineTask, 'generation' | 'snapshot' | 'visible'>, allow: TableFilter | undefined, signal?: AbortSignal): Promise<unknown> {
    return this.runTask(task, allow, signal);
  }

  /**
   * Runs the default export of the module at `moduleUrl` in a worker, on `task` plus the catalog
   * generation, snapshot and visible table ids every engine task carries (`WorkerTaskBase`): the
   * module gets the worker's engine through `workerEngineFor` and answers an `EngineTaskResult`.
   * How layers above the engine (src/enrich) run their own work off the server's thread without
   * the engine importing them. The module URL names a `.ts` file under tsx and vitest.
   */
  async runInWorker(moduleUrl: URL, task: Record<string, unknown>, allow: TableFilter | undefined, signal?: AbortSignal): Promise<unknown> {
    return this.runTask(task, allow, signal, moduleUrl.href);
  }

  private async runTask(task: object, allow: TableFilter | undefined, signal: AbortSignal | undefined, filename?: string): Promise<unknown> {
    signal?.throwIfAborted();
    const { generation, snapshot, shared } = await this.current();
    const visible = allow ? snapshot.tables.filter((t) => allow({ id: t.id, name: t.name, uri: t.uri, sourceRoot: t.sourceRoot })).map((t) => t.id) : null;
    let r: EngineTaskResult;
    try {
      r = await this.pool.run({ ...task, generation, snapshot: shared, visible }, { signal, ...(filename ? { filename } : {}) });
    } catch (err) {
      // Piscina rejects an aborted task with its own AbortError: the caller wants its reason.
      if (signal?.aborted) throw signal.reason;
      throw err;
    }
    if ('error' in r) throw graftErrorOf(r.error);
    return r.ok;
  }

  /** What the worker that takes this call has loaded (diagnostics: no snapshot is loaded or sent, no engine code runs). */
  async workerStatus(): Promise<EngineWorkerStatus> {
    // The worker answers a status from its module state, never with an error.
    return ((await this.pool.run({ kind: 'status' } satisfies EngineTask)) as { ok: EngineWorkerStatus }).ok;
  }

  /**
   * Throws the error a worker met loading its word lists (GRAFT_WORD_VECTORS naming no file, a
   * corrupt file), so a server can stop at start with it instead of failing every question.
   * Every worker reads the same environment and files: one worker's answer stands for all.
   */
  async checkWordLists(): Promise<void> {
    const failed = (await this.workerStatus()).languageResourcesError;
    if (failed) throw graftErrorOf(failed);
  }

  async synthesize(question: string, opts: AskOptions = {}): Promise<SynthesisResult> {
    const { allowTable, signal, ...rest } = opts;
    return (await this.run({ kind: 'synthesize', question, opts: rest }, allowTable, signal)) as SynthesisResult;
  }

  async explain(args: { question?: string; intent?: IntentGraph; tableIds: string[]; allowTable?: TableFilter; signal?: AbortSignal }): Promise<ScoreExplanation> {
    const { allowTable, signal, ...rest } = args;
    return (await this.run({ kind: 'explain', args: rest }, allowTable, signal)) as ScoreExplanation;
  }

  async intentGraph(question: string, opts: { extractor?: 'offline' | 'llm'; allowTable?: TableFilter; signal?: AbortSignal } = {}): Promise<IntentResult> {
    const { allowTable, signal, ...rest } = opts;
    return (await this.run({ kind: 'intentGraph', question, opts: rest }, allowTable, signal)) as IntentResult;
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
