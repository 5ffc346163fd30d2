import type { Command } from 'commander';
import type { IngestIssue, IngestSummary } from '../../ingest/index.js';
import { withContext } from '../context.js';
import { ExitCode } from '../exitCodes.js';
import { intOption } from '../options.js';
import { ingestProgressReporter } from '../progress.js';
import { printTable } from '../table.js';

export function printIngestSummary(s: IngestSummary, out = process.stdout): void {
  out.write(
    `ingest ${s.status}: ${s.filesSeen} tables seen, ${s.tablesIngested} ingested, ${s.tablesSkipped} unchanged, ` +
      `${s.tablesFailed} failed, ${s.tablesRemoved} removed, ${s.rowsProfiled.toLocaleString('en')} rows in ${(s.durationMs / 1000).toFixed(1)} s (run ${s.runId})\n`,
  );
  for (const e of s.errors) out.write(`  error   ${e.path}: ${e.code} ${e.message}\n`);
  for (const w of s.warnings.slice(0, 50)) out.write(`  warning ${w.path}: ${w.message}\n`);
  if (s.warnings.length > 50) out.write(`  … ${s.warnings.length - 50} more warnings (see ingestRun ${s.runId})\n`);
}

/** The exit code an ingest's outcome maps to (see exitCodes.ts). */
export function ingestExitCode(s: IngestSummary, signal?: NodeJS.Signals): number {
  if (s.status === 'interrupted') return signal === 'SIGTERM' ? ExitCode.INTERRUPTED_SIGTERM : ExitCode.INTERRUPTED_SIGINT;
  if (s.status === 'failed') return ExitCode.ERROR;
  if (s.status === 'partial') return ExitCode.INGEST_PARTIAL;
  return ExitCode.OK;
}

/** How often the CLI checks that the process that started it is still there. */
const PARENT_CHECK_MS = 250;

/**
 * Aborts `controller` on the first SIGINT/SIGTERM (the ingest stops after the table being
 * written); a second signal exits at once. Returns which signal came, and a function removing
 * the handlers.
 *
 * `npx graft` runs npm, which runs `sh -c graft ...`, which runs this process: npm forwards a
 * SIGTERM to the shell only, the shell dies and this process is orphaned. So losing the parent
 * process counts as a SIGTERM too (Ctrl-C reaches the whole process group and needs no help).
 */
function abortOnSignals(controller: AbortController, what: string): { received: () => NodeJS.Signals | undefined; dispose: () => void } {
  let received: NodeJS.Signals | undefined;
  const onSignal = (sig: NodeJS.Signals, why: string = sig) => {
    if (received) {
      process.stderr.write(`graft: ${why} again: exiting now\n`);
      process.exit(sig === 'SIGTERM' ? ExitCode.INTERRUPTED_SIGTERM : ExitCode.INTERRUPTED_SIGINT);
    }
    received = sig;
    process.stderr.write(`\ngraft: ${why}: stopping ${what} after the current table (send it again to exit at once)\n`);
    controller.abort(new Error(`${why}`));
  };
  const parent = process.ppid;
  const parentWatch = setInterval(() => {
    if (process.ppid !== parent && !received) onSignal('SIGTERM', `SIGTERM (the process that started graft, pid ${parent}, is gone)`);
  }, PARENT_CHECK_MS);
  parentWatch.unref();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    received: () => received,
    dispose() {
      clearInterval(parentWatch);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/**
 * Ingests a lake root with a progress reporter, stopping cleanly on SIGINT/SIGTERM, and sets
 * process.exitCode from the outcome. `graft ingest` and `graft demo` share it.
 */
export async function runIngestCommand(lakePath: string, opts: { sampleRows?: number; json?: boolean }): Promise<IngestSummary> {
  const [{ ingestLake }, { lineageFromEnv }] = await Promise.all([import('../../ingest/index.js'), import('../../api/lineage.js')]);
  return withContext(async ({ db, embedder }) => {
    const progress = ingestProgressReporter();
    const controller = new AbortController();
    const signals = abortOnSignals(controller, 'the ingest');
    let summary: IngestSummary;
    try {
      const lineage = lineageFromEnv(process.env, (m) => process.stderr.write(`graft ingest: ${m}\n`));
      summary = await ingestLake(db, lakePath, { embedder, sampleRows: opts.sampleRows, onProgress: progress.onProgress, signal: controller.signal, lineage });
    } finally {
      progress.stop();
      signals.dispose();
    }
    if (opts.json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    else printIngestSummary(summary);
    process.exitCode = ingestExitCode(summary, signals.received());
    return summary;
  });
}

export async function printTables(opts: { filter?: string; limit?: number; json?: boolean }): Promise<void> {
  const { catalogCounts, listTableSummaries } = await import('../../catalog/index.js');
  await withContext(async ({ db }) => {
    const rows = await listTableSummaries(db, { nameContains: opts.filter, limit: opts.limit });
    if (opts.json) {
      process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      return;
    }
    printTable(
      ['name', 'format', 'rows', 'cols', 'joins', 'unions', 'uri'],
      rows.map((r) => [r.name, r.format, r.rowCount, r.columnCount, r.joinDegree, r.unionDegree, r.uri]),
    );
    const c = await catalogCounts(db);
    process.stdout.write(`${c.tables} tables, ${c.columns} columns, ${c.joins} join edges, ${c.unions} union edges\n`);
  }, { bufferPool: 'small' });
}

export function registerCatalogCommands(program: Command): void {
  program
    .command('ingest')
    .description('ingest a lake root (folder, CSV/Parquet file or SQLite database) into the catalog')
    .argument('<path>', 'folder, file or .sqlite database')
    .option('--sample-rows <n>', 'rows per table used for column statistics (counts stay exact)', intOption('sample-rows', { min: 1 }))
    .option('--json', 'print the run summary as JSON')
    .addHelpText(
      'after',
      '\nExit code 0: every table ingested or unchanged; 3: some files failed (their errors: graft ingest-run <id>);\n' +
        '1: every file failed or the path is bad; 130/143: stopped by SIGINT/SIGTERM after the table being written\n' +
        '(the run reads interrupted; ingesting again resumes, unchanged tables are skipped).\n',
    )
    .action(async (lakePath: string, opts: { sampleRows?: number; json?: boolean }) => {
      await runIngestCommand(lakePath, opts);
    });

  program
    .command('ingest-run')
    .description("show an ingest run: status, counts and per-file errors (default: the newest run)")
    .argument('[id]', 'run id or a unique prefix of it (printed at the end of every ingest)')
    .option('--json', 'JSON output')
    .action(async (ref: string | undefined, opts: { json?: boolean }) => {
      const { findIngestRun } = await import('../../catalog/index.js');
      await withContext(async ({ db }) => {
        const run = await findIngestRun(db, ref);
        if (!run) {
          process.stderr.write(ref === undefined ? 'no ingest run recorded yet\n' : `no ingest run with id ${ref}\n`);
          process.exitCode = ExitCode.ERROR;
          return;
        }
        const errors = run.errors as unknown as IngestIssue[];
        const warnings = run.warnings as unknown as { path: string; message: string }[];
        if (opts.json) {
          process.stdout.write(`${JSON.stringify({ ...run, rowsProfiled: Number(run.rowsProfiled) }, null, 2)}\n`);
          return;
        }
        process.stdout.write(
          `run ${run.id}: ${run.status}\n  path     ${run.path}\n  started  ${run.startedAt.toISOString()}` +
            `${run.finishedAt ? `, finished ${run.finishedAt.toISOString()}` : ''}\n` +
            `  tables   ${run.filesSeen} seen, ${run.tablesIngested} ingested, ${run.tablesSkipped} unchanged, ${run.tablesFailed} failed; ` +
            `${Number(run.rowsProfiled).toLocaleString('en')} rows profiled\n`,
        );
        if (errors.length) {
          process.stdout.write(`errors (${errors.length}):\n`);
          for (const e of errors) process.stdout.write(`  ${e.path}\n    ${e.code} ${e.message}\n`);
        }
        if (warnings.length) process.stdout.write(`warnings: ${warnings.length} (--json lists them)\n`);
      }, { bufferPool: 'small' });
    });

  program
    .command('tables')
    .description('list the tables in the catalog with their join/union degrees')
    .option('--filter <text>', 'only names containing this text')
    .option('--limit <n>', 'at most this many', intOption('limit', { min: 0 }))
    .option('--json', 'JSON output')
    .action(printTables);

  program
    .command('table')
    .description('show one table: columns, profile, join and union neighbours')
    .argument('<ref>', 'table name, id or uri (a name may match several tables)')
    .option('--json', 'JSON output')
    .action(async (ref: string, opts: { json?: boolean }) => {
      const { findTables, joinNeighbours, unionNeighbours } = await import('../../catalog/index.js');
      await withContext(async ({ db }) => {
        const tables = await findTables(db, ref);
        if (tables.length === 0) {
          process.stderr.write(`no table named or identified by "${ref}"\n`);
          process.exitCode = 1;
          return;
        }
        const out = [];
        for (const t of tables) {
          const joins = await joinNeighbours(db, t.id);
          const unions = await unionNeighbours(db, t.id);
          out.push({ table: t, joins, unions });
        }
        if (opts.json) {
          process.stdout.write(`${JSON.stringify(out, (_k, v) => (typeof v === 'bigint' ? Number(v) : v), 2)}\n`);
          return;
        }
        for (const { table: t, joins, unions } of out) {
          process.stdout.write(`\n${t.name}  (${t.format}, ${t.rowCount} rows, id ${t.id})\n  ${t.uri}\n`);
          printTable(
            ['#', 'column', 'type', 'nulls', 'distinct', 'unique', 'hashed', 'samples'],
            t.columns.map((c) => [
              c.ordinal, c.name, c.logicalType, c.nullShare.toFixed(2), Math.round(c.distinctEstimate), c.uniqueness.toFixed(2),
              c.hashedValues > 0 ? c.hashedValues : '',
              c.sampleValues.slice(0, 4).join(', '),
            ]),
          );
          if (joins.length) {
            process.stdout.write('  joinable:\n');
            for (const j of joins) process.stdout.write(`    ${j.localColumn} -> ${j.tableName}.${j.remoteColumn}  score ${j.score.toFixed(2)} containment ${j.containment.toFixed(2)}\n`);
          }
          if (unions.length) {
            process.stdout.write('  unionable:\n');
            for (const u of unions) process.stdout.write(`    ${u.tableName}  score ${u.score.toFixed(2)} (${u.alignedColumns} aligned columns)\n`);
          }
        }
      }, { bufferPool: 'small' });
    });
}
