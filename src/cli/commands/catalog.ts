import type { Command } from 'commander';
import { catalogCounts, findTables, joinNeighbours, listTableSummaries, unionNeighbours } from '../../catalog/index.js';
import { lineageFromEnv } from '../../api/lineage.js';
import { ingestLake, type IngestSummary } from '../../ingest/index.js';
import { withContext } from '../context.js';
import { ingestProgressReporter } from '../progress.js';
import { printTable } from '../table.js';

export function printIngestSummary(s: IngestSummary, out = process.stdout): void {
  out.write(
    `ingest ${s.status}: ${s.filesSeen} tables seen, ${s.tablesIngested} ingested, ${s.tablesSkipped} unchanged, ` +
      `${s.tablesFailed} failed, ${s.tablesRemoved} removed, ${s.rowsProfiled.toLocaleString('en')} rows in ${(s.durationMs / 1000).toFixed(1)} s (run ${s.runId})\n`,
  );
  for (const e of s.errors) out.write(`  error   ${e.code} ${e.message}\n`);
  for (const w of s.warnings.slice(0, 50)) out.write(`  warning ${w.path}: ${w.message}\n`);
  if (s.warnings.length > 50) out.write(`  … ${s.warnings.length - 50} more warnings (see ingestRun ${s.runId})\n`);
}

export async function printTables(opts: { filter?: string; limit?: number; json?: boolean }): Promise<void> {
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
  });
}

export function registerCatalogCommands(program: Command): void {
  program
    .command('ingest')
    .description('ingest a lake root (folder, CSV/Parquet file or SQLite database) into the catalog')
    .argument('<path>', 'folder, file or .sqlite database')
    .option('--sample-rows <n>', 'rows per table used for column statistics (counts stay exact)', (v) => Number(v))
    .option('--json', 'print the run summary as JSON')
    .action(async (lakePath: string, opts: { sampleRows?: number; json?: boolean }) => {
      await withContext(async ({ db, embedder }) => {
        const progress = ingestProgressReporter();
        let summary: IngestSummary;
        try {
          const lineage = lineageFromEnv(process.env, (m) => process.stderr.write(`graft ingest: ${m}\n`));
          summary = await ingestLake(db, lakePath, { embedder, sampleRows: opts.sampleRows, onProgress: progress.onProgress, lineage });
        } finally {
          progress.stop();
        }
        if (opts.json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
        else printIngestSummary(summary);
        if (summary.status === 'failed') process.exitCode = 1;
      });
    });

  program
    .command('tables')
    .description('list the tables in the catalog with their join/union degrees')
    .option('--filter <text>', 'only names containing this text')
    .option('--limit <n>', 'at most this many', (v) => Number(v))
    .option('--json', 'JSON output')
    .action(printTables);

  program
    .command('table')
    .description('show one table: columns, profile, join and union neighbours')
    .argument('<ref>', 'table name, id or uri (a name may match several tables)')
    .option('--json', 'JSON output')
    .action(async (ref: string, opts: { json?: boolean }) => {
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
            ['#', 'column', 'type', 'nulls', 'distinct', 'unique', 'samples'],
            t.columns.map((c) => [
              c.ordinal, c.name, c.logicalType, c.nullShare.toFixed(2), Math.round(c.distinctEstimate), c.uniqueness.toFixed(2),
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
      });
    });
}
