/**
 * `graft bench …` without the rest of the CLI (handy for npm scripts):
 *   npx tsx bench/bench-cli.ts build --dbs ../shared/data-raw/spider/database --questions ../shared/data-raw/jar/spider/dev.json --out lakes/spider
 *   npx tsx bench/bench-cli.ts run --lake lakes/spider [--limit 20]
 */
import { Command } from 'commander';
import { registerBenchCommands } from '../src/cli/commands/bench.js';
import { GraftError } from '../src/util/errors.js';

const program = new Command();
program.name('graft');
registerBenchCommands(program);
program.parseAsync(['node', 'graft', 'bench', ...process.argv.slice(2)]).catch((err: unknown) => {
  process.stderr.write(err instanceof GraftError ? `graft: ${err.code}: ${err.message}\n` : `graft: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
