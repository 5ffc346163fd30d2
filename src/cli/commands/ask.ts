import { emitSynthesisLineage, lineageFromEnv } from '../../api/lineage.js';
import type { Command } from 'commander';
import type { SynthesisResult } from '../../engine/index.js';
import { MAX_BEAM, MAX_BUDGET } from '../../engine/limits.js';
import type { IntentGraph } from '../../intent/index.js';
import { BadInputError } from '../../util/errors.js';
import { valueConfigFromEnv } from '../../value/config.js';
import { withContext } from '../context.js';
import { intOption, numberOption } from '../options.js';
import { printTable } from '../table.js';
import { printEnrichment } from './enrich.js';
import { readFile } from 'node:fs/promises';

interface AskFlags {
  budget: number;
  beam?: number;
  minAlternateConfidence?: number;
  intent: string;
  json?: boolean;
  preview?: number;
  explain?: boolean;
  exact?: boolean;
  value?: string;
}

export function registerAskCommand(program: Command): void {
  program
    .command('ask')
    .description('answer a question with a connected set of tables and the plan that fuses them')
    .argument('<question>', 'natural-language question')
    .option('--budget <n>', 'most tables in the answer (L)', intOption('budget', { min: 1, max: MAX_BUDGET }), 10)
    .option('--beam <n>', 'beam width (B)', intOption('beam', { min: 1, max: MAX_BEAM }))
    .option('--min-alternate-confidence <p>', 'keep an alternate only when the confidence that the question needs it is at least p (0..1; 0 fills the budget)', numberOption('min-alternate-confidence', { min: 0, max: 1 }))
    .option('--intent <source>', 'offline | llm | file:<intent-graph.json>', 'offline')
    .option('--json', 'print the whole result as JSON')
    .option('--preview <n>', 'run the fused SQL and show its first N rows', intOption('preview', { min: 0 }))
    .option('--explain', 'print the IGMS score decomposition')
    .option('--value <name>', 'value function: heuristic | learned (default: learned when a model matches the lake)')
    .option('--exact', 'GRAFT-Exact: enumerate the capped candidate region instead of beam search')
    .action(async (question: string, flags: AskFlags) => {
      // The engine (DuckDB, tfjs, wordnet ...) loads only when a question is asked.
      const [{ createEngine }, { enrichFromRequest }, { parseIntentGraph }] = await Promise.all([
        import('../../engine/index.js'),
        import('../../enrich/index.js'),
        import('../../intent/index.js'),
      ]);
      await withContext(async ({ db, embedder }) => {
        const value = valueConfigFromEnv(process.env);
        const engine = createEngine(db, embedder, { valueModel: value.valueModel, valueProvider: value.provider, loadValueModel: async (db, o) => (await import('../../value/loader.js')).loadLearnedValueFunction(db, o), log: (m) => process.stderr.write(`graft ask: ${m}\n`) });
        // "find tables that help predict price in houses" is a training-data enrichment request.
        if (!flags.intent.startsWith('file:')) {
          const enriched = await enrichFromRequest(engine, question, { budget: flags.budget, preview: flags.preview });
          if (enriched) {
            if (flags.json) process.stdout.write(`${JSON.stringify(enriched, null, 2)}\n`);
            else {
              process.stdout.write(`(an enrichment request: graft enrich ${enriched.baseTable.name} --target ${enriched.target})\n\n`);
              printEnrichment(enriched, flags.explain ?? false);
            }
            return;
          }
        }
        let intent;
        let extractor: 'offline' | 'llm' = 'offline';
        if (flags.intent.startsWith('file:')) intent = await readIntentFile(flags.intent.slice(5), parseIntentGraph);
        else if (flags.intent === 'llm' || flags.intent === 'offline') extractor = flags.intent;
        else throw new BadInputError(`--intent must be offline, llm or file:<path> (got "${flags.intent}")`, { field: '--intent' });
        const startedAt = new Date();
        const result = await engine.synthesize(question, {
          budget: flags.budget,
          beamWidth: flags.beam,
          minAlternateConfidence: flags.minAlternateConfidence,
          intent,
          extractor,
          preview: flags.preview,
          strategy: flags.exact ? 'exact' : 'beam',
          valueFunction: flags.value,
        });
        const lineage = lineageFromEnv(process.env, (m) => process.stderr.write(`graft ask: ${m}\n`));
        if (lineage) {
          await emitSynthesisLineage(lineage, db, result, startedAt);
          await lineage.flush();
        }
        const explanation = flags.explain && result.tables.length > 0
          ? await engine.explain({ intent: result.intent.graph, tableIds: result.tables.map((t) => t.id) })
          : undefined;
        if (flags.json) {
          process.stdout.write(`${JSON.stringify({ ...result, explanation }, (_k, v) => (typeof v === 'bigint' ? Number(v) : v), 2)}\n`);
          return;
        }
        printResult(result);
        if (explanation) {
          process.stdout.write(`\nIGMS decomposition (a = ${explanation.determinant.atoms}, log det prior ${explanation.determinant.logDetPrior.toFixed(3)}, posterior ${explanation.determinant.logDetPosterior.toFixed(3)})\n`);
          printTable(['atom', 'kind', 'label', 'support', 'by'], explanation.atoms.map((a) => [a.atomId, a.kind, a.label, a.support.toFixed(2), a.supportedBy.map((id) => result.tables.find((t) => t.id === id)?.name ?? id).join(', ')]));
          printTable(['table', 'greedy gain', 'leave-one-out loss'], explanation.tables.map((t) => [t.name, t.marginalGain.toFixed(4), t.leaveOneOutLoss.toFixed(4)]));
          for (const r of explanation.redundancy) process.stdout.write(`redundant: ${r.tableA} ~ ${r.tableB} (${r.rho.toFixed(2)})\n`);
        }
      }, { bufferPool: 'small' });
    });
}

/** The intent graph in `--intent file:<path>`, or a BadInputError naming the flag and the file. */
async function readIntentFile(file: string, parse: (text: string) => IntentGraph): Promise<IntentGraph> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a directory, not a file' : (err as Error).message;
    throw new BadInputError(`--intent file:${file}: cannot read it (${why})`, { field: '--intent', file });
  }
  try {
    return parse(text);
  } catch (err) {
    if (err instanceof BadInputError) throw new BadInputError(`--intent file:${file}: ${err.message}`, { ...err.details, field: '--intent', file });
    throw err;
  }
}

function printResult(r: SynthesisResult): void {
  const out = process.stdout;
  out.write(`intent (${r.intent.source}):\n`);
  for (const t of r.intent.graph.trees) {
    const attrs = t.attributes.map((a) => (a.value ? `${a.label} ${a.value.operator} ${JSON.stringify(a.value.literal)}` : a.label));
    out.write(`  ${t.entity.label}${t.entity.bridge ? ' (bridge)' : ''}: ${attrs.join(', ') || '—'}\n`);
  }
  for (const e of r.intent.graph.edges) out.write(`  edge ${e.from} — ${e.to}${e.label ? ` (${e.label})` : ''}\n`);
  out.write(`\ntables (IGMS ${r.score.toFixed(4)}, ${r.elapsedMs.toFixed(0)} ms, value function ${r.valueFunction}):\n`);
  printTable(['table', 'role', 'gain', 'confidence', 'atoms', 'uri'], r.tables.map((t) => [t.name, t.role, t.gain.toFixed(4), t.confidence !== undefined ? t.confidence.toFixed(2) : '', t.atoms.join(' '), t.uri]));
  if (r.plan.unionGroups.length) {
    out.write('\nunion groups:\n');
    for (const g of r.plan.unionGroups) out.write(`  ${g.tables.join(' ∪ ')}\n`);
  }
  if (r.plan.joinSteps.length) {
    out.write('\njoins:\n');
    for (const s of r.plan.joinSteps) out.write(`  ${s.left.table}.${s.left.column} = ${s.right.table}.${s.right.column}  (score ${s.score.toFixed(2)})\n`);
  }
  out.write(`\nSQL${r.plan.executable ? '' : ' (not executable)'}:\n${r.plan.sql ?? '—'}\n`);
  if (r.unsupportedAtoms.length) out.write(`\nunsupported atoms: ${r.unsupportedAtoms.join(', ')}\n`);
  for (const w of r.warnings) out.write(`warning: ${w}\n`);
  if (r.preview) {
    const copied = Object.entries(r.preview.readBy ?? {}).filter(([, by]) => by !== 'duckdb');
    const via = copied.length ? `; ${copied.map(([t, by]) => `${t} via ${by}`).join(', ')}` : '';
    out.write(`\npreview (${r.preview.rows.length} rows, ran on ${r.preview.engine ?? 'duckdb'}${via}):\n`);
    printTable(r.preview.columns, r.preview.rows.map((row) => r.preview!.columns.map((c) => row[c])), out, 24);
  }
}
