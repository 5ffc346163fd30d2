import type { Command } from 'commander';
import type { EnrichResult } from '../../enrich/index.js';
import { MAX_BUDGET } from '../../engine/limits.js';
import { withContext } from '../context.js';
import { intOption } from '../options.js';
import { printTable } from '../table.js';

interface EnrichFlags {
  target: string;
  budget: number;
  features?: string;
  preview?: number;
  json?: boolean;
  explain?: boolean;
}

export function registerEnrichCommand(program: Command): void {
  program
    .command('enrich')
    .description('find the lake tables that add rows (unions) or attributes (key joins) to a base table for predicting its target')
    .argument('<table>', 'base table: catalog id, or name when only one table has it')
    .requiredOption('--target <column>', 'the prediction target (a column of the base table)')
    .option('--budget <n>', 'most tables added (L)', intOption('budget', { min: 0, max: MAX_BUDGET }), 10)
    .option('--features <names>', 'comma-separated feature columns to keep (default: all; a leaking column is kept only when named)')
    .option('--preview <n>', 'run the enriched SQL and show its first N rows', intOption('preview', { min: 0 }))
    .option('--explain', 'print the IGMS score decomposition')
    .option('--json', 'print the whole result as JSON')
    .action(async (table: string, flags: EnrichFlags) => {
      // The engine loads only when the command runs (graft --help stays fast).
      const [{ createEngine }, { enrichTable }] = await Promise.all([import('../../engine/index.js'), import('../../enrich/index.js')]);
      await withContext(async ({ db, embedder }) => {
        const engine = createEngine(db, embedder, { valueModel: 'off' });
        const features = flags.features?.split(',').map((f) => f.trim()).filter((f) => f !== '');
        const r = await enrichTable(engine, table, { target: flags.target, budget: flags.budget, preview: flags.preview, ...(features ? { features } : {}) });
        if (flags.json) {
          process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
          return;
        }
        printEnrichment(r, flags.explain ?? false);
      });
    });
}

export function printEnrichment(r: EnrichResult, explain: boolean): void {
  const out = process.stdout;
  out.write(`enrich ${r.baseTable.name} for ${r.target} (${r.task}): ${r.tables.length - 1} table(s) added, ${r.elapsedMs.toFixed(0)} ms\n\n`);
  printTable(
    ['table', 'role', 'gain', 'adds', 'on', 'uri'],
    r.tables.map((t) => [
      t.name,
      t.role,
      t.gain.toFixed(3),
      t.role === 'union' ? `${t.newRows} rows` : t.role === 'join' ? t.newColumns.join(', ') || '—' : '',
      t.join ? `${t.join.baseColumn} = ${t.join.column} (${(100 * t.join.coverage).toFixed(0)}%)` : '',
      t.uri,
    ]),
  );
  if (r.rejected.length > 0) {
    out.write('\nleft out:\n');
    printTable(['table', 'why', 'detail'], r.rejected.map((x) => [x.name, x.reason, x.detail]));
  }
  out.write(`\nenriched table: ${r.rowCount ?? '?'} rows (${r.labelledRows ?? '?'} with ${r.target}), columns ${r.columns.join(', ')}\n`);
  out.write(`\nSQL:\n${r.sql ?? '—'}\n`);
  for (const w of r.warnings) out.write(`warning: ${w}\n`);
  if (explain) {
    const e = r.explanation;
    out.write(`\nIGMS decomposition (a = ${e.determinant.atoms}, U = ${e.score.toFixed(4)})\n`);
    printTable(['table', 'greedy gain', 'leave-one-out loss'], e.tables.map((t) => [t.name, t.marginalGain.toFixed(4), t.leaveOneOutLoss.toFixed(4)]));
    for (const x of e.redundancy) out.write(`redundant: ${x.tableA} ~ ${x.tableB} (${x.rho.toFixed(2)})\n`);
  }
  if (r.preview) {
    out.write(`\npreview (${r.preview.rows.length} rows):\n`);
    printTable(r.preview.columns, r.preview.rows.map((row) => r.preview!.columns.map((c) => row[c])), out, 24);
  }
}
