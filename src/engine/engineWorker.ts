import { BroadcastChannel, threadId, workerData } from 'node:worker_threads';
import { createEmbedder, type EmbedderConfig } from '../embed/index.js';
import type { IntentGraph } from '../intent/index.js';
import { ErrorCode, GraftError } from '../util/errors.js';
import { createEngine, type Engine } from './engine.js';
import { languageResourcesLoaded, loadLanguageResources } from './languageResources.js';
import { decodeSnapshot } from './snapshotTransfer.js';
import { warmupQuestions } from './warmup.js';
import type { AskOptions, TableFilter } from './types.js';

/**
 * One engine pool worker (see pool.ts). It holds the engine over the snapshot of the newest
 * catalog generation it was sent, never opens the catalog, and answers one engine call per task.
 */
export interface EngineWorkerData {
  embedder: EmbedderConfig;
  /** The broadcast channel on which the pool names cancelled calls (their `cancelId`). */
  cancellationChannel: string;
}

/** What crosses the thread boundary: plain data (a grant becomes the list of visible table ids). */
export type EngineTask =
  | ({ kind: 'synthesize'; question: string; opts: Omit<AskOptions, 'allowTable' | 'signal'> } & WorkerTaskBase)
  | ({ kind: 'explain'; args: { question?: string; intent?: IntentGraph; tableIds: string[] } } & WorkerTaskBase)
  | ({ kind: 'intentGraph'; question: string; opts: { extractor?: 'offline' | 'llm' } } & WorkerTaskBase)
  /** Answer `count` questions made from the catalog's names (`warmupQuestions` from `offset`), results dropped; ok: how many. */
  | ({ kind: 'warmup'; count: number; offset: number } & WorkerTaskBase)
  /** What the worker has loaded (`EngineWorkerStatus`); needs no snapshot and loads none. */
  | { kind: 'status' };

export interface EngineWorkerStatus {
  threadId: number;
  /** The catalog generation whose snapshot the worker holds (null: none yet). */
  generation: number | null;
  languageResources: ReturnType<typeof languageResourcesLoaded>;
  /** Why the word lists failed to load when the worker started (null: they loaded). */
  languageResourcesError: TaskError | null;
  /** Calls this worker ended early because the pool cancelled them (they stopped at a checkpoint, or before they began). */
  cancelledCalls: number;
}

/** What every engine task carries, also a task `EnginePool.runInWorker` sends to another module. */
export interface WorkerTaskBase {
  generation: number;
  snapshot: SharedArrayBuffer;
  /** Table ids the caller may see; null: all. */
  visible: string[] | null;
  /** Set when the call stops at the engine's checkpoints once the pool names it as cancelled. */
  cancelId?: number;
}

/** A GraftError does not survive structured cloning as itself: it travels as its fields. */
export interface TaskError {
  code: string;
  message: string;
  details: Record<string, unknown>;
  name: string;
}
export type EngineTaskResult = { ok: unknown } | { error: TaskError };

function taskError(err: GraftError): TaskError {
  return { code: err.code, message: err.message, details: err.details, name: err.name };
}

const embedder = createEmbedder((workerData as EngineWorkerData).embedder);
// Before piscina's first task (see languageResources.ts): a fresh worker, at start-up or replacing
// one killed by a cancelled call, is given no task until this module has run. A list that cannot
// load (GRAFT_WORD_VECTORS naming no file) must not stop the worker from starting: piscina would
// report a failed import of this module instead, and the pool would keep no worker. Each task then
// meets the error itself and answers with it; a status task reports it (`EnginePool.checkWordLists`,
// which `graft serve` runs before it listens).
let languageResourcesError: TaskError | null = null;
try {
  loadLanguageResources();
} catch (err) {
  languageResourcesError = taskError(err instanceof GraftError ? err : new GraftError(ErrorCode.INTERNAL, err instanceof Error ? err.message : String(err)));
}
let current: { generation: number; engine: Engine } | null = null;

/**
 * The engine over the task's catalog generation, and the caller's table filter: what a module
 * run in this worker by `EnginePool.runInWorker` (src/enrich's) answers with.
 */
export function workerEngineFor(task: WorkerTaskBase): { engine: Engine; allowTable: TableFilter | undefined } {
  const ids = task.visible ? new Set(task.visible) : null;
  return { engine: engineFor(task), allowTable: ids ? (t) => ids.has(t.id) : undefined };
}

function engineFor(task: WorkerTaskBase): Engine {
  if (current?.generation !== task.generation) {
    const snapshot = decodeSnapshot(task.snapshot);
    current = { generation: task.generation, engine: createEngine(null, embedder, { valueModel: 'off', loadSnapshot: async () => snapshot }) };
  }
  return current.engine;
}

/**
 * Calls running here that the pool may cancel, by `cancelId`, and the ids named before their call
 * arrived (the channel and piscina's port are not ordered with each other), oldest first.
 */
const cancellable = new Map<number, AbortController>();
const cancelledEarly = new Set<number>();
let cancelledCalls = 0;
const CANCELLED_EARLY_KEPT = 1024;
const cancellations = new BroadcastChannel((workerData as EngineWorkerData).cancellationChannel);
cancellations.unref();
cancellations.onmessage = (event) => {
  const id = (event as { data: number }).data;
  const controller = cancellable.get(id);
  if (controller) return controller.abort(new CallCancelledError());
  cancelledEarly.add(id);
  if (cancelledEarly.size > CANCELLED_EARLY_KEPT) cancelledEarly.delete(cancelledEarly.values().next().value!);
};

/** Ends a call the pool cancelled (its caller was answered already: nobody reads this). */
class CallCancelledError extends GraftError {
  constructor() {
    super(ErrorCode.TIMEOUT, 'the call was cancelled');
  }
}

export default async function runEngineTask(task: EngineTask): Promise<EngineTaskResult> {
  if (task.kind === 'status') {
    const status: EngineWorkerStatus = { threadId, generation: current?.generation ?? null, languageResources: languageResourcesLoaded(), languageResourcesError, cancelledCalls };
    return { ok: status };
  }
  const { cancelId } = task;
  if (cancelId === undefined) return runTask(task, undefined);
  if (cancelledEarly.delete(cancelId)) {
    cancelledCalls++;
    return taskResultOfError(new CallCancelledError());
  }
  const controller = new AbortController();
  cancellable.set(cancelId, controller);
  try {
    return await runTask(task, controller.signal);
  } finally {
    cancellable.delete(cancelId);
    if (controller.signal.aborted) cancelledCalls++;
  }
}

async function runTask(task: Exclude<EngineTask, { kind: 'status' }>, signal: AbortSignal | undefined): Promise<EngineTaskResult> {
  const { engine, allowTable } = workerEngineFor(task);
  try {
    if (task.kind === 'synthesize') {
      // The search trace (every table the search could have chosen, every alternate offered) is a
      // diagnostic the API never serves: it stays here rather than cross to the server's thread.
      const { search: _trace, ...result } = await engine.synthesize(task.question, { ...task.opts, allowTable, signal });
      return { ok: result };
    }
    if (task.kind === 'explain') return { ok: await engine.explain({ ...task.args, allowTable, signal }) };
    if (task.kind === 'warmup') return { ok: await warmUp(engine, task.count, task.offset) };
    return { ok: await engine.intentGraph(task.question, { ...task.opts, allowTable, signal }) };
  } catch (err) {
    return taskResultOfError(err);
  }
}

/** A GraftError answers as its fields (`EngineTaskResult`); any other error fails the task. */
export function taskResultOfError(err: unknown): EngineTaskResult {
  if (err instanceof GraftError) return { error: taskError(err) };
  throw err;
}

/** Answers the warm-up questions; one the engine refuses (no table matches it) still ran its stages. */
async function warmUp(engine: Engine, count: number, offset: number): Promise<number> {
  let answered = 0;
  for (const question of warmupQuestions(await engine.snapshot(), count, offset)) {
    try {
      await engine.synthesize(question, { budget: 10 });
    } catch (err) {
      if (!(err instanceof GraftError)) throw err;
    }
    answered++;
  }
  return answered;
}
