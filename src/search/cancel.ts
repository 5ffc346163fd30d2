/**
 * Cooperative cancellation for the search. The engine's work is synchronous between these
 * checkpoints, so a checkpoint also yields to the event loop (setImmediate): that is what lets
 * the caller's timeout timer fire, and other requests (/healthz) be answered, while a long
 * search runs. A cancelled call throws the signal's reason (the API's EngineTimeoutError).
 */
export async function checkpoint(signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return;
  signal.throwIfAborted();
  await new Promise<void>((resolve) => setImmediate(resolve));
  signal.throwIfAborted();
}
