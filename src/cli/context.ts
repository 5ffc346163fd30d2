import type { CatalogDatabase } from '../catalog/index.js';
import type { Embedder } from '../embed/index.js';

/** What every command needs: the catalog (embedded PGlite or DATABASE_URL) and the embedder. */
export interface CliContext {
  db: CatalogDatabase;
  embedder: Embedder;
  close(): Promise<void>;
}

export async function openContext(): Promise<CliContext> {
  // Loaded here, not at the top: `graft --help` must not pay for Prisma, PGlite and the embedders.
  const [{ openCatalog }, { createEmbedder, embedderConfigFromEnv }] = await Promise.all([import('../catalog/index.js'), import('../embed/index.js')]);
  const embedder = createEmbedder(embedderConfigFromEnv(process.env));
  const db = await openCatalog();
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
export async function withContext<T>(fn: (ctx: CliContext) => Promise<T>): Promise<T> {
  const ctx = await openContext();
  try {
    return await fn(ctx);
  } finally {
    await ctx.close();
  }
}
