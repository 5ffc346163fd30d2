// Runs in an engine pool worker (`EnginePool.runInWorker`), never on the server's thread. It
// imports the worker module itself, not src/engine's index: the index does not export it, since
// evaluating it outside a worker would load the word lists and read `workerData`.
import { taskResultOfError, workerEngineFor, type EngineTaskResult, type WorkerTaskBase } from '../engine/engineWorker.js';
import { enrichTable } from './enrich.js';
import { enrichFromRequest } from './request.js';
import type { EnrichOptions } from './types.js';

/** Plain data only: a grant travels as the visible ids, a cancellation as piscina's. */
export type EnrichWorkerTask =
  | { kind: 'enrich'; baseTableId: string; opts: Omit<EnrichOptions, 'allowTable' | 'signal'> }
  | { kind: 'enrichRequest'; question: string; opts: Omit<EnrichOptions, 'target' | 'allowTable' | 'signal'> };

export default async function runEnrichTask(task: EnrichWorkerTask & WorkerTaskBase): Promise<EngineTaskResult> {
  const { engine, allowTable } = workerEngineFor(task);
  try {
    if (task.kind === 'enrich') return { ok: await enrichTable(engine, task.baseTableId, { ...task.opts, allowTable }) };
    return { ok: await enrichFromRequest(engine, task.question, { ...task.opts, allowTable }) };
  } catch (err) {
    return taskResultOfError(err);
  }
}
