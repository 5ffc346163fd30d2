#!/usr/bin/env node
import path from 'node:path';
import { Command } from 'commander';
// Only light modules at the top: each command loads what it uses (Prisma, DuckDB, tfjs, onnxruntime,
// wordnet, the engine) when it runs, so `graft --help` answers at once.
import { graftHome } from '../catalog/config.js';
import { ErrorCode, GraftError } from '../util/errors.js';
import { registerAskCommand } from './commands/ask.js';
import { registerEnrichCommand } from './commands/enrich.js';
import { registerBenchCommands } from './commands/bench.js';
import { registerServeCommand } from './commands/serve.js';
import { registerTokenCommands } from './commands/token.js';
import { registerValueCommands } from './commands/value.js';
import { printTables, registerCatalogCommands, runIngestCommand } from './commands/catalog.js';
import { withContext } from './context.js';
import { EXIT_CODES_HELP, ExitCode } from './exitCodes.js';

// `graft tables | head`: a reader that stops early is not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
  process.exit(process.exitCode ?? 0);
});

const program = new Command();
program
  .name('graft')
  .description('GRAFT data catalog: ingest a lake, find connected tables for a question')
  .version('0.1.0')
  .addHelpText('after', EXIT_CODES_HELP);

registerCatalogCommands(program);
registerAskCommand(program);
registerEnrichCommand(program);
registerBenchCommands(program);
registerServeCommand(program);
registerTokenCommands(program);
registerValueCommands(program);

program
  .command('doctor')
  .description('print which database, embedder and paths are in use')
  .action(async () => {
    const [{ catalogCounts, catalogLocationFromEnv, catalogNotices, describeLocation }, { embedderConfigFromEnv }] = await Promise.all([
      import('../catalog/index.js'),
      import('../embed/index.js'),
    ]);
    const loc = catalogLocationFromEnv();
    const emb = embedderConfigFromEnv(process.env);
    process.stdout.write(`home:      ${graftHome()}\ncatalog:   ${describeLocation(loc)}\nembedder:  ${JSON.stringify({ ...emb, apiKey: undefined })}\n`);
    await withContext(async ({ db, embedder }) => {
      const c = await catalogCounts(db);
      const notices = (await catalogNotices(db)).map((m) => `notice:    ${m}\n`).join('');
      process.stdout.write(
        `database:  ${db.kind} reachable, migrations applied: ${db.migrations.applied.length + db.migrations.alreadyApplied.length}\n` +
          `embedder:  ${embedder.id}\ncontents:  ${c.tables} tables, ${c.columns} columns, ${c.embeddings} embeddings, ${c.joins} join edges, ${c.unions} union edges\n` +
          notices,
      );
    }, { bufferPool: 'small' });
  });

program
  .command('demo')
  .description('build the demo lake shipped in demo/, ingest it, and print its tables and edges')
  .option('--out <dir>', 'where to write the demo lake', path.join(graftHome(), 'demo-lake'))
  .action(async (opts: { out: string }) => {
    const { buildDemoLake } = await import('../../scripts/build-demo-lake.js');
    await buildDemoLake(opts.out);
    process.stdout.write(`demo lake written to ${opts.out}\n`);
    const summary = await runIngestCommand(opts.out, {});
    if (summary.status === 'interrupted') return;
    await printTables({});
    process.stdout.write('\nNext: `npx graft table player_club_map` shows a bridge table and its join keys.\n');
  });

program.parseAsync(process.argv).catch((err: unknown) => {
  if (err instanceof GraftError) {
    process.stderr.write(`graft: ${err.code}: ${err.message}\n`);
  } else {
    process.stderr.write(`graft: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  }
  process.exitCode = err instanceof GraftError && err.code === ErrorCode.CATALOG_IN_USE ? ExitCode.CATALOG_IN_USE : ExitCode.ERROR;
});
