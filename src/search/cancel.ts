/**
 * Cooperative cancellation for the search. The engine's work is synchronous between these
 * checkpoints, so a checkpoint also yields to the event loop (setImmediate): that is what lets
 * the caller's timeout timer fire, a pool worker hear that its call was cancelled, and other
 * requests (/healthz, the other calls of a pool worker) be served, while a long search runs. A
 * cancelled call throws the signal's reason (the API's EngineTimeoutError).
 */
export async function checkpoint(signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return;
  signal.throwIfAborted();
  await new Promise<void>((resolve) => setImmediate(resolve));
  lastTurn = performance.now();
  signal.throwIfAborted();
}

/**
 * Longest the engine runs on inside a loop before it gives the event loop a turn
 * (`checkpointIfDue`). A turn is a setImmediate round trip: cheap, but one per state of every
 * beam depth would add up on the small questions that take a millisecond or two in all.
 */
export const TURN_INTERVAL_MS = 20;

/** When this thread's event loop last had a turn at a checkpoint. */
let lastTurn = 0;

/**
 * A checkpoint inside a loop: checks the signal, and yields to the event loop only when the last
 * turn (of any call on this thread) is `TURN_INTERVAL_MS` old.
 */
export async function checkpointIfDue(signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return;
  if (performance.now() - lastTurn < TURN_INTERVAL_MS) return signal.throwIfAborted();
  await checkpoint(signal);
}
