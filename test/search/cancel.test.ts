import { describe, expect, it } from 'vitest';
import { checkpoint, checkpointIfDue, TURN_INTERVAL_MS } from '../../src/search/cancel.js';

/**
 * The search's checkpoints: each checks the caller's signal; `checkpoint` always gives the event
 * loop a turn (what lets a timeout fire and a pool worker hear of a cancellation), and
 * `checkpointIfDue`, called inside long loops, only once the last turn is `TURN_INTERVAL_MS` old.
 */
describe('search checkpoints', () => {
  /** Whether an immediate scheduled before `step` ran before `step` finished. */
  const yields = async (step: () => Promise<void>): Promise<boolean> => {
    let ran = false;
    setImmediate(() => (ran = true));
    await step();
    return ran;
  };

  it('do nothing without a signal', async () => {
    expect(await yields(() => checkpoint(undefined))).toBe(false);
    expect(await yields(() => checkpointIfDue(undefined))).toBe(false);
  });

  it('throw the reason of an aborted signal, due or not', async () => {
    const controller = new AbortController();
    const reason = new Error('timed out');
    controller.abort(reason);
    await expect(checkpoint(controller.signal)).rejects.toBe(reason);
    await new Promise((resolve) => setTimeout(resolve, TURN_INTERVAL_MS + 5));
    await expect(checkpointIfDue(controller.signal)).rejects.toBe(reason);
  });

  it('give the event loop a turn inside a loop once the last turn is old enough, and not before', async () => {
    const signal = new AbortController().signal;
    expect(await yields(() => checkpoint(signal))).toBe(true);
    // Just after a turn, a check inside a loop goes on without one.
    expect(await yields(() => checkpointIfDue(signal))).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, TURN_INTERVAL_MS + 5));
    expect(await yields(() => checkpointIfDue(signal))).toBe(true);
  });

  it('stop a loop at the first check after the abort, with the reason', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled');
    let steps = 0;
    const loop = async () => {
      for (;;) {
        await checkpointIfDue(controller.signal);
        if (++steps === 3) controller.abort(reason);
      }
    };
    await expect(loop()).rejects.toBe(reason);
    expect(steps).toBe(3);
  });
});
