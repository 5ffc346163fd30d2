/**
 * An `onProgress` for long benchmark phases (value-model training) that logs at most once per
 * `intervalMs` and at the end of each phase: a few lines per run instead of thousands.
 */
export function throttledProgress(log: (message: string) => void, intervalMs: number): (phase: string, done: number, total: number) => void {
  let last = 0;
  return (phase, done, total) => {
    if (Date.now() - last > intervalMs || done === total) {
      last = Date.now();
      log(`  ${phase} ${done}/${total}`);
    }
  };
}
