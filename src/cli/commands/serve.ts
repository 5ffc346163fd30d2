import type { Command } from 'commander';
import type { ServedEngine } from '../../api/index.js';
import { valueConfigFromEnv } from '../../value/config.js';
import { openContext } from '../context.js';
import { intOption } from '../options.js';

/**
 * `graft serve`: the GraphQL API over the catalog (see src/api/README.md). Runs until SIGTERM or
 * SIGINT, then drains in-flight requests and closes the catalog. Configuration comes from the
 * environment (GRAFT_REQUIRE_AUTH, GRAFT_LAKE_ROOTS, GRAFT_SYNTHESIZE_TIMEOUT_MS, ...).
 */
export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('serve the catalog over GraphQL: /graphql, /healthz, /readyz (tokens: graft token create)')
    .option('--port <n>', 'port to listen on (0: any free port)', intOption('port', { min: 0, max: 65_535 }), Number(process.env.GRAFT_PORT ?? 4000))
    .option('--host <host>', 'interface to bind (0.0.0.0 exposes it: set GRAFT_REQUIRE_AUTH=1)', process.env.GRAFT_HOST ?? '127.0.0.1')
    .option('--federation', 'serve an Apollo Federation 2 subgraph (@key on Table and Column); same as GRAFT_FEDERATION=1')
    .action(async (opts: { port: number; host: string; federation?: boolean }) => {
      // The server and the engine load only when serving (graft --help stays fast).
      const [{ startServer }, { catalogNotices }, { createEngine, EnginePool, loadLanguageResources }, { enrichOnPool, withEnrichment }] = await Promise.all([
        import('../../api/index.js'),
        import('../../catalog/index.js'),
        import('../../engine/index.js'),
        import('../../enrich/index.js'),
      ]);
      const ctx = await openContext();
      // Closed when the start fails: its worker threads would keep the process alive.
      let startedPool: InstanceType<typeof EnginePool> | null = null;
      try {
        const value = valueConfigFromEnv(process.env);
        const local = createEngine(ctx.db, ctx.embedder, { valueModel: value.valueModel, valueProvider: value.provider, loadValueModel: async (db, o) => (await import('../../value/loader.js')).loadLearnedValueFunction(db, o), log: (m) => process.stderr.write(`graft serve: ${m}\n`) });
        const status = await local.valueModel();
        for (const notice of await catalogNotices(ctx.db)) process.stderr.write(`graft serve: ${notice}\n`);
        // Engine calls run on a worker pool (off the event loop) unless GRAFT_ENGINE_WORKERS=0;
        // the pool's workers score with the heuristic, so a learned value model keeps the engine in-process.
        const pool = status.model ? null : EnginePool.fromEnv(ctx.db, process.env);
        startedPool = pool;
        // A word list the workers cannot load would fail every question: stop now, with its error.
        await pool?.checkWordLists();
        // Not ready (/readyz) until the warm-up below has run: a load balancer then sends this
        // instance real questions only once its workers are warm.
        let warming = pool !== null && pool.warmupMs > 0;
        const engine: ServedEngine = pool
          ? {
              readiness: () => (warming ? 'warming-up' : 'ready'),
              intentGraph: (question, o) => pool.intentGraph(question, o),
              synthesize: (question, o) => pool.synthesize(question, o),
              explain: (args) => pool.explain(args),
              // Enrichment runs in the workers too. The local engine only read the value model
              // status above, but a catalog change reaches its caches as well.
              ...enrichOnPool(pool),
              invalidate: () => {
                pool.invalidate();
                local.invalidate();
              },
            }
          : withEnrichment(local);
        if (!pool) {
          // The in-process engine answers on the server's thread: its word lists load now, not in
          // the first request (about 0.6 s on a 2-core machine, with every other request waiting).
          const started = performance.now();
          loadLanguageResources();
          process.stderr.write(`graft serve: engine word lists loaded in ${Math.round(performance.now() - started)} ms\n`);
        }
        const server = await startServer({
          db: ctx.db,
          engine,
          embedder: ctx.embedder,
          port: opts.port,
          host: opts.host,
          closeDatabase: true,
          ...(opts.federation ? { config: { federation: true } } : {}),
          onStopped: async () => {
            await pool?.close();
            await ctx.embedder.close?.();
          },
        });
        process.stderr.write(
          `graft serve: engine ${pool ? `on ${pool.threads} worker threads, ${pool.tasksPerWorker} calls each at once` : status.model ? 'in-process (learned value model)' : 'in-process (GRAFT_ENGINE_WORKERS=0)'}\n`,
        );
        process.stderr.write(
          `graft serve: value function ${status.defaultValueFunction}${status.model ? ` (model ${status.model.id}, ${status.provider})` : status.reason ? ` (${status.reason})` : ''}\n`,
        );
        process.stderr.write(
          `graft serve: ${server.url}/graphql${server.config.federation ? ' (federation subgraph)' : ''} (catalog ${ctx.db.description}, anonymous access ${server.config.allowAnonymous ? 'ON' : 'off'})\n`,
        );
        // Warm the workers up in the background (GRAFT_ENGINE_WARMUP_MS): the server answers
        // meanwhile, and real questions go before the warm-up's under load.
        if (pool && warming) {
          process.stderr.write(`graft serve: warming the engine workers up for ${pool.warmupMs} ms in the background\n`);
          pool
            .warmUp()
            .then(
              (w) => {
                if (w.questions > 0 && !w.stopped) process.stderr.write(`graft serve: engine workers warmed up on ${w.questions} questions from the catalog's names in ${w.ms} ms\n`);
              },
              (err: unknown) => process.stderr.write(`graft serve: engine warm-up stopped: ${err instanceof Error ? err.message : String(err)}\n`),
            )
            // A failed warm-up leaves the workers as warm as they got: they answer all the same.
            .finally(() => (warming = false));
        }
      } catch (err) {
        await startedPool?.close();
        await ctx.close();
        throw err;
      }
    });
}
