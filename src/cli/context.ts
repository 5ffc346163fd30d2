import type { BufferPool, CatalogDatabase } from '../catalog/index.js';
import type { Embedder } from '../embed/index.js';

/** What every command needs: the catalog (embedded PGlite or DATABASE_URL) and the embedder. */
export interface CliContext {
  db: CatalogDatabase;
  embedder: Embedder;
  close(): Promise<void>;
}

export interface ContextOptions {
  /**
   * 'small' for a command that reads the catalog once and exits (list, show, ask, token): the
   * embedded catalog opens faster with a small buffer pool (`BufferPool` in catalog/sqlDriver.ts).
   */
  bufferPool?: BufferPool;
}

export async function openContext(options: ContextOptions = {}): Promise<CliContext> {
  // Loaded here, not at the top: `graft --help` must not pay for Prisma, PGlite and the embedders.
  const [{ openCatalog }, { createEmbedder, embedderConfigFromEnv }] = await Promise.all([import('../catalog/index.js'), import('../embed/index.js')]);
  const embedder = createEmbedder(embedderConfigFromEnv(process.env));
  const db = await openCatalog({ bufferPool: options.bufferPool });
  return {
    db,
    embedder,
    async close() {
      await embedder.close?.();
      await db.close();
    },
  };
}

/** Runs a command body with a context and always closes it (a clean PGlite shutdown matters). */
export async function withContext<T>(fn: (ctx: CliContext) => Promise<T>, options: ContextOptions = {}): Promise<T> {
  const ctx = await openContext(options);
  try {
    return await fn(ctx);
  } finally {
    await ctx.close();
  }
}
