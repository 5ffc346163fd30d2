import type { Command } from 'commander';
import { BadInputError } from '../../util/errors.js';
import { valueConfigFromEnv } from '../../value/config.js';
import { openContext } from '../context.js';

function portArg(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65_535) throw new BadInputError(`--port must be an integer in 0..65535, not '${v}'`);
  return n;
}

/**
 * `graft serve`: the GraphQL API over the catalog (see src/api/README.md). Runs until SIGTERM or
 * SIGINT, then drains in-flight requests and closes the catalog. Configuration comes from the
 * environment (GRAFT_REQUIRE_AUTH, GRAFT_LAKE_ROOTS, GRAFT_SYNTHESIZE_TIMEOUT_MS, ...).
 */
export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('serve the catalog over GraphQL: /graphql, /healthz, /readyz (tokens: graft token create)')
    .option('--port <n>', 'port to listen on (0: any free port)', portArg, Number(process.env.GRAFT_PORT ?? 4000))
    .option('--host <host>', 'interface to bind (0.0.0.0 exposes it: set GRAFT_REQUIRE_AUTH=1)', process.env.GRAFT_HOST ?? '127.0.0.1')
    .action(async (opts: { port: number; host: string }) => {
      const [{ startServer }, { createEngine }] = await Promise.all([import('../../api/index.js'), import('../../engine/index.js')]);
      const ctx = await openContext();
      try {
        const value = valueConfigFromEnv(process.env);
        const engine = createEngine(ctx.db, ctx.embedder, { valueModel: value.valueModel, valueProvider: value.provider, log: (m) => process.stderr.write(`graft serve: ${m}\n`) });
        const server = await startServer({
          db: ctx.db,
          engine,
          embedder: ctx.embedder,
          port: opts.port,
          host: opts.host,
          closeDatabase: true,
          onStopped: async () => {
            await ctx.embedder.close?.();
          },
        });
        const status = await engine.valueModel();
        process.stderr.write(
          `graft serve: value function ${status.defaultValueFunction}${status.model ? ` (model ${status.model.id}, ${status.provider})` : status.reason ? ` (${status.reason})` : ''}\n`,
        );
        process.stderr.write(
          `graft serve: ${server.url}/graphql (catalog ${ctx.db.description}, anonymous access ${server.config.allowAnonymous ? 'ON' : 'off'})\n`,
        );
      } catch (err) {
        await ctx.close();
        throw err;
      }
    });
}
