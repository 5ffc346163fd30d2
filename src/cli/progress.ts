import cliProgress from 'cli-progress';
import type { IngestProgress } from '../ingest/index.js';

/** A progress bar (tables, rows) on a TTY; plain, sparse log lines otherwise. */
export function ingestProgressReporter(stream: NodeJS.WriteStream = process.stderr): {
  onProgress: (p: IngestProgress) => void;
  stop: () => void;
} {
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      { format: 'ingest [{bar}] {value}/{total} tables | {rows} rows | {current}', stream, hideCursor: true, clearOnComplete: false },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    return {
      onProgress(p) {
        if (p.phase === 'profile' && !started) {
          bar.start(p.filesTotal, 0, { rows: 0, current: '' });
          started = true;
        }
        if (started) bar.update(p.filesDone, { rows: p.rowsDone.toLocaleString('en'), current: shorten(p.current ?? p.phase) });
      },
      stop() {
        if (started) bar.stop();
      },
    };
  }
  let lastLine = 0;
  return {
    onProgress(p) {
      const now = Date.now();
      const final = p.phase === 'done' || p.filesDone === p.filesTotal;
      if (!final && now - lastLine < 2000) return;
      lastLine = now;
      stream.write(`ingest: ${p.phase} ${p.filesDone}/${p.filesTotal} tables, ${p.rowsDone} rows\n`);
    },
    stop() {},
  };
}

function shorten(s: string, n = 40): string {
  return s.length <= n ? s : `…${s.slice(-(n - 1))}`;
}
