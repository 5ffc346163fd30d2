import type { Command } from 'commander';
import { withContext } from '../context.js';
import { printTable } from '../table.js';

/**
 * `graft token create|list|revoke`: API tokens for `graft serve`. A token's grants are patterns
 * over `<source>.<table>` (source = basename of the lake root, `*` matches anything): see
 * src/api/README.md.
 */
export function registerTokenCommands(program: Command): void {
  const token = program.command('token').description('manage API tokens for graft serve');

  token
    .command('create')
    .description('create a token; its secret is printed ONCE')
    .requiredOption('--name <name>', 'what the token is for')
    .option('--grant <pattern>', "tables it may see, repeatable: 'sales.*', 'hr.employees', '*' (everything, and ingest/delete)", (v: string, prev: string[]) => [...prev, v], [] as string[])
    .option('--json', 'JSON output')
    .action(async (opts: { name: string; grant: string[]; json?: boolean }) => {
      const { createApiToken } = await import('../../api/auth/tokens.js');
      await withContext(async ({ db }) => {
        const t = await createApiToken(db, { name: opts.name, grants: opts.grant });
        if (opts.json) {
          process.stdout.write(`${JSON.stringify({ id: t.id, name: t.name, grants: t.grants, secret: t.secret }, null, 2)}\n`);
          return;
        }
        process.stdout.write(
          `token ${t.id} (${t.name}) grants: ${t.grants.join(', ')}\n\n  ${t.secret}\n\n` +
            'Store this secret now: it is not kept and cannot be shown again. Send it as `Authorization: Bearer <secret>`.\n',
        );
      }, { bufferPool: 'small' });
    });

  token
    .command('list')
    .description('list tokens (never their secrets)')
    .option('--json', 'JSON output')
    .action(async (opts: { json?: boolean }) => {
      const { listApiTokens } = await import('../../api/auth/tokens.js');
      await withContext(async ({ db }) => {
        const tokens = await listApiTokens(db);
        if (opts.json) {
          process.stdout.write(`${JSON.stringify(tokens, null, 2)}\n`);
          return;
        }
        printTable(
          ['id', 'name', 'prefix', 'grants', 'created', 'last used', 'revoked'],
          tokens.map((t) => [
            t.id, t.name, `${t.prefix}…`, t.grants.join(' '), t.createdAt.toISOString(), t.lastUsedAt?.toISOString() ?? '-', t.revokedAt?.toISOString() ?? '-',
          ]),
        );
      }, { bufferPool: 'small' });
    });

  token
    .command('revoke')
    .description('revoke a token by id (or display prefix); requests with it are refused from then on')
    .argument('<id>', 'token id or prefix')
    .action(async (ref: string) => {
      const { revokeApiToken } = await import('../../api/auth/tokens.js');
      await withContext(async ({ db }) => {
        if (await revokeApiToken(db, ref)) {
          process.stdout.write(`revoked ${ref}\n`);
        } else {
          process.stderr.write(`no active token ${ref}\n`);
          process.exitCode = 1;
        }
      }, { bufferPool: 'small' });
    });
}
