// Child process for the crash test: a real ingest into a PGlite data directory that, once
// `pauseAfter` tables are committed, says PAUSED and blocks (synchronously, so nothing more is
// written) until the parent kills it with SIGKILL.
import { writeSync } from 'node:fs';
import { openCatalog } from '../../src/catalog/index.js';
import { HashedNgramEmbedder } from '../../src/embed/index.js';
import { ingestLake } from '../../src/ingest/index.js';

const [dataDir, lake, pauseAfter] = process.argv.slice(2);
const db = await openCatalog({ dataDir });
await ingestLake(db, lake, {
  embedder: new HashedNgramEmbedder(),
  onProgress: (p) => {
    // Reported after the table's transaction committed.
    if (p.phase === 'profile' && p.filesDone >= Number(pauseAfter)) {
      writeSync(1, 'PAUSED\n');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
    }
  },
});
writeSync(1, 'FINISHED\n');
