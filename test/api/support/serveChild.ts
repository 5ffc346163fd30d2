/**
 * A `graft serve` stand-in for the signal test (shutdown.test.ts): an in-memory catalog, the
 * test engine, startServer with signal handling, the URL printed as one JSON line on stdout,
 * pino logs on stdout too. Run with `node --import tsx`.
 */
import { startServer } from '../../../src/api/index.js';
import { openCatalog } from '../../../src/catalog/index.js';
import { HashedNgramEmbedder } from '../../../src/embed/index.js';
import { InstrumentedEngine, TestEngine } from './testEngine.js';

const db = await openCatalog({ dataDir: 'memory://' });
const server = await startServer({
  db,
  engine: new InstrumentedEngine(new TestEngine(db), db),
  embedder: new HashedNgramEmbedder(),
  port: 0,
  host: '127.0.0.1',
  closeDatabase: true,
  config: { shutdownGraceMs: 5_000, allowAnonymous: true, lakeRoots: [] },
});
process.stdout.write(`${JSON.stringify({ ready: server.url })}\n`);
