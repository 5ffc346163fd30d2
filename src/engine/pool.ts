import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { BroadcastChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { CatalogDatabase } from '../catalog/database.js';
import { embedderConfigFromEnv, type EmbedderConfig } from '../embed/index.js';
import type { IntentGraph } from '../intent/index.js';
import { LakeSnapshot } from '../search/index.js';
import { envInt } from '../util/env.js';
import { ErrorCode, GraftError } from '../util/errors.js';
import type { EngineTask, EngineTaskResult, EngineWorkerData, EngineWorkerStatus, TaskError, WorkerTaskBase } from './engineWorker.js';
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
  /**
   * Engine calls a worker is handed at once (default `DEFAULT_ENGINE_TASKS_PER_WORKER`; see
   * there). Calls that can only be stopped by terminating their worker always run alone.
   */
  tasksPerWorker?: number;
}

/**
 * The engine workers run at a lower priority than the server's main thread, so health probes,
 * catalog queries and the request pipeline go ahead of the engine on busy cores. While a worker
 * had one call at a time it waited for the main thread between calls, and +5 (the default until
 * the eighth 2026-12-05 session) mostly starved it: synthesize 200 req/s at +5, 248 at 0. With
 * calls queued in each worker (`DEFAULT_ENGINE_TASKS_PER_WORKER`) the workers are busy whenever
 * there is work, and the increment only splits the cores: three calls per worker, 30 s of the
 * API load bench's mixed load, synthesize / catalog query req/s at 0 403 / 1,447, at +3 396 /
 * 1,846, at +5 377 / 1,889 (docs/BENCHMARKS.md, "API load"). `GRAFT_ENGINE_NICE` sets it.
 */
export const DEFAULT_ENGINE_NICE = 5;

/**
 * Engine calls handed to a worker at once. Piscina gives a worker its next task only once the
 * server's main thread has taken the worker's last answer, so with one task each a worker idled
 * whenever the main thread was busy with other requests. Under the API load bench's mixed load the
 * workers were mostly idle while 50 syntheses waited, a synthesize taking 236 ms at the median for
 * about 2 ms of engine work (docs/BENCHMARKS.md, "API load"). With a few calls queued in the
 * worker it moves on to the next at once. Three: 30 s of the mixed load at nice +5,
 * synthesize / catalog query req/s with one call per worker 205 / 2,378, two 301 / 2,061, three
 * 377 / 1,889, four 406 / 1,731. The calls in one worker that carry a signal (every API call)
 * interleave at the engine's checkpoints (`src/search/cancel.ts`), which is also where a cancelled
 * one stops (`EnginePool`).
 */
export const DEFAULT_ENGINE_TASKS_PER_WORKER = 3;

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
 * threads, at most 256), GRAFT_ENGINE_NICE (unset: `DEFAULT_ENGINE_NICE`; 0..19),
 * GRAFT_ENGINE_WARMUP_MS (unset: `DEFAULT_ENGINE_WARMUP_MS`; 0: no warm-up) and
 * GRAFT_ENGINE_TASKS_PER_WORKER (unset: `DEFAULT_ENGINE_TASKS_PER_WORKER`; 1..64).
 */
export function enginePoolSettingsFromEnv(env: NodeJS.ProcessEnv): { threads: number | null; niceIncrement?: number; warmupMs: number; tasksPerWorker: number } {
  const threads = envInt(env, 'GRAFT_ENGINE_WORKERS', 0, 256);
  const niceIncrement = envInt(env, 'GRAFT_ENGINE_NICE', 0, 19);
  const warmupMs = envInt(env, 'GRAFT_ENGINE_WARMUP_MS', 0, 600_000) ?? DEFAULT_ENGINE_WARMUP_MS;
  const tasksPerWorker = envInt(env, 'GRAFT_ENGINE_TASKS_PER_WORKER', 1, 64) ?? DEFAULT_ENGINE_TASKS_PER_WORKER;
  return { threads: threads ?? null, ...(niceIncrement !== undefined ? { niceIncrement } : {}), warmupMs, tasksPerWorker };
}

/**
 * Can a cancelled call stop at the engine's next checkpoint? Everything the engine does between
 * two checkpoints is computation on the worker's thread, except the DuckDB preview (which nothing
 * interrupts), the LLM extractor's request and modules run by `runInWorker`: those calls stop
 * only by terminating their worker, so piscina runs them alone on one.
 */
function stopsAtCheckpoints(task: object, filename: string | undefined): boolean {
  if (filename) return false;
  // `synthesize` and `intentGraph` carry their options; `explain` and `warmup` have neither.
  const opts = ('opts' in task ? task.opts : undefined) as { preview?: number; extractor?: string } | undefined;
  return !(opts?.preview && opts.preview > 0) && (opts?.extractor ?? 'offline') === 'offline';
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
 * Cancellation (AskOptions.signal): the caller is answered with the signal's reason at once.
 * A call that stops at the engine's checkpoints (`stopsAtCheckpoints`) is told so on a broadcast
 * channel the workers listen to, and ends at its next checkpoint: the worker stays, warm, and the
 * calls queued with it go on. Any other call goes to piscina with the signal: a queued one is
 * dropped, a running one's worker is terminated and replaced (a fresh worker is cold: README,
 * "Warm-up").
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
  /** Engine calls handed to a worker at once (`DEFAULT_ENGINE_TASKS_PER_WORKER`). */
  readonly tasksPerWorker: number;
  /** Where the server tells the workers which calls were cancelled (a call's `cancelId`). */
  private readonly cancellations: BroadcastChannel;
  private lastCancelId = 0;
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
    this.tasksPerWorker = Math.max(1, options.tasksPerWorker ?? DEFAULT_ENGINE_TASKS_PER_WORKER);
    const filename = new URL(import.meta.url.endsWith('.ts') ? './engineWorker.ts' : './engineWorker.js', import.meta.url).href;
    // One channel per pool: two pools in one process (tests) must not cancel each other's calls.
    const workerData: EngineWorkerData = { embedder, cancellationChannel: `graft-engine-cancel-${randomUUID()}` };
    this.cancellations = new BroadcastChannel(workerData.cancellationChannel);
    this.cancellations.unref();
    this.pool = new Piscina({
      filename,
      minThreads: threads,
      maxThreads: threads,
      concurrentTasksPerWorker: this.tasksPerWorker,
      workerData,
      niceIncrement: this.niceIncrement,
      // Run from source (tsx, vitest): the worker needs tsx's loader to import a .ts file.
      execArgv: filename.endsWith('.ts') ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href] : [],
    });
    // Closing terminates the workers: an answer already on its way from one has no task left to
    // go to, and piscina reports it as an error event. After close nobody waits for it.
    this.pool.on('error', (err: unknown) => {
      if (!this.closed) throw err;
    });
  }

  /**
   * The pool `graft serve` and the API load bench run, all from the environment (the pool's
   * settings, `enginePoolSettingsFromEnv`, and the embedder's): null when GRAFT_ENGINE_WORKERS=0,
   * the engine then runs in-process.
   */
  static fromEnv(db: CatalogDatabase, env: NodeJS.ProcessEnv): EnginePool | null {
    const { threads, niceIncrement, warmupMs, tasksPerWorker } = enginePoolSettingsFromEnv(env);
    return threads === 0 ? null : new EnginePool(db, embedderConfigFromEnv(env), { threads: threads ?? undefined, niceIncrement, warmupMs, tasksPerWorker });
  }

  invalidate(): void {
    this.generation++;
    this.loaded = null;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.cancellations.close();
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

  /** The engine's own tasks, type-checked as such (`runInWorker` sends any module's). */
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
    if (signal && stopsAtCheckpoints(task, filename)) {
      r = await this.runCancellable({ ...task, generation, snapshot: shared, visible, cancelId: ++this.lastCancelId }, signal);
    } else {
      try {
        r = await this.pool.run({ ...task, generation, snapshot: shared, visible }, { signal, ...(filename ? { filename } : {}) });
      } catch (err) {
        // Piscina rejects an aborted task with its own AbortError: the caller wants its reason.
        if (signal?.aborted) throw signal.reason;
        throw err;
      }
    }
    if ('error' in r) throw graftErrorOf(r.error);
    return r.ok;
  }

  /**
   * A call that stops at the engine's checkpoints, without piscina's signal (which would keep
   * its worker from taking other calls). On abort the caller gets the signal's reason at once and
   * the workers hear the call's id; the one running it ends it at its next checkpoint, and its
   * answer, if it still comes, is dropped.
   */
  private runCancellable(task: WorkerTaskBase & { cancelId: number }, signal: AbortSignal): Promise<EngineTaskResult> {
    // Aborted while the snapshot was loading: no worker need hear of the call.
    if (signal.aborted) return Promise.reject(signal.reason);
    const running = this.pool.run(task) as Promise<EngineTaskResult>;
    return new Promise<EngineTaskResult>((resolve, reject) => {
      const onAbort = () => {
        this.cancellations.postMessage(task.cancelId);
        running.catch(() => {});
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      running.then(
        (r) => (signal.removeEventListener('abort', onAbort), resolve(r)),
        (err: unknown) => (signal.removeEventListener('abort', onAbort), reject(err)),
      );
    });
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
