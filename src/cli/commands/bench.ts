import path from 'node:path';
import type { Command } from 'commander';
// Only defaults at the top: the bench modules (DuckDB, the engine, the predictor) load inside
// the command that runs, so `graft --help` stays fast.
import { BASELINE_METHODS, DEFAULT_BUDGETS, DEFAULT_SEED, ENRICH_METHODS } from '../../bench/defaults.js';
import type { BenchResults } from '../../bench/run.js';
import { MAX_BUDGET } from '../../engine/limits.js';
import { BadInputError } from '../../util/errors.js';
import { intListOption, intOption, numberOption } from '../options.js';

/** The summary a terminal reader wants: one line per method x budget. */
export function printBenchSummary(r: BenchResults, out = process.stdout): void {
  out.write(`${r.dataset}: ${r.questions} questions (${r.multiTableQuestions} with >= 2 gold base tables), intent ${r.intent}\n`);
  out.write('method    L   | all: R     P     F1    Suf   | >=2: R     P     F1    Suf   | p50 ms  p95 ms\n');
  for (const s of r.summary) {
    const f = (x: number) => x.toFixed(3);
    out.write(
      `${s.method.padEnd(9)} ${String(s.budget).padStart(3)} | ${f(s.all.recall)} ${f(s.all.precision)} ${f(s.all.f1)} ${f(s.all.sufficiency)} | ` +
        `${f(s.multi.recall)} ${f(s.multi.precision)} ${f(s.multi.f1)} ${f(s.multi.sufficiency)} | ${s.latencyMs.p50.toFixed(2).padStart(6)} ${s.latencyMs.p95.toFixed(2).padStart(7)}\n`,
    );
  }
  if (r.index.missingLakeTables.length > 0) {
    out.write(`warning: ${r.index.missingLakeTables.length} lake tables missing from the catalog (${r.index.questionsWithMissingGold} questions affected)\n`);
  }
  if (r.outFile) out.write(`results: ${r.outFile}\n`);
}

export function registerBenchCommands(program: Command): void {
  const bench = program.command('bench').description('retrieval benchmark: build a pooled lake with gold sets, run methods over it');

  bench
    .command('build')
    .description('pool every table of every SQLite database into one folder of Parquet files (some split into shards) + gold.json + manifest.json')
    .requiredOption('--dbs <dir>', 'folder of databases (<db>/<db>.sqlite or <db>.sqlite)')
    .requiredOption('--questions <file>', 'questions JSON (Spider/BIRD dev.json: question, db_id, query|sql)')
    .requiredOption('--out <dir>', 'output folder (e.g. lakes/spider; emptied of an earlier build)')
    .option('--seed <n>', 'random seed of the shard draws', intOption('seed', { min: 0 }), DEFAULT_SEED)
    .action(async (opts: { dbs: string; questions: string; out: string; seed: number }) => {
      const { buildBenchLake } = await import('../../bench/buildLake.js');
      const r = await buildBenchLake({
        dbsDir: opts.dbs,
        questionsFile: opts.questions,
        outDir: opts.out,
        seed: opts.seed,
        onProgress: (done, total) => {
          if (done % 20 === 0 || done === total) process.stderr.write(`  ${done}/${total} databases\n`);
        },
      });
      const c = r.manifest.counts;
      process.stdout.write(
        `lake ${r.outDir} (seed ${r.manifest.seed}, ${(r.elapsedMs / 1000).toFixed(1)} s)\n` +
          `  ${c.databases} databases, ${c.baseTables} base tables, ${c.splitTables} split into ${c.shards} shards -> ${c.lakeTables} lake tables, ${c.rows.toLocaleString('en')} rows\n` +
          `  ${c.visibleNames} distinct visible names, ${c.namesInSeveralDatabases} in 2+ databases\n` +
          `  questions: ${c.questionsUsed} used, ${c.questionsSkipped} skipped ${JSON.stringify(r.gold.skipped.byDb)}, ${c.questionsMultiTable} with >= 2 gold base tables; ` +
          `mean gold ${c.meanGoldBase.toFixed(2)} base = ${c.meanGoldLake.toFixed(2)} lake tables\n`,
      );
      if (r.gold.unknownReferences.length > 0) {
        process.stdout.write(`  ${r.gold.unknownReferences.length} questions name tables their database lacks (see gold.json unknownReferences)\n`);
      }
    });

  bench
    .command('run')
    .description('run retrieval methods x budgets over every question of a bench lake and report R/P/F1/Sufficiency')
    .requiredOption('--lake <dir>', 'a lake built by `graft bench build`')
    .option('--questions <file>', 'questions JSON (gold derived from it and the lake manifest)')
    .option('--gold <file>', 'gold.json (default <lake>/gold.json)')
    .option('--budgets <list>', 'table budgets L', intListOption('budgets', { min: 1, max: MAX_BUDGET }), DEFAULT_BUDGETS)
    .option('--methods <list>', `methods (known: ${BASELINE_METHODS.join(', ')} + registered ones)`, (v: string) => v.split(',').map((s) => s.trim()).filter(Boolean), [...BASELINE_METHODS])
    .option('--intent <spec>', 'offline | decomp:<file> | llm (passed to methods, recorded with each row)', 'offline')
    .option('--limit <n>', 'only the first N questions (smoke run)', intOption('limit', { min: 1 }))
    .option('--sample <n>', 'N questions spread evenly over the file (tuning runs)', intOption('sample', { min: 1 }))
    .option('--min-alternate-confidence <p>', "the engine methods' floor for alternates (0..1; default the engine's)", numberOption('min-alternate-confidence', { min: 0, max: 1 }))
    .option('--out <file>', 'results JSON (default bench/out/<lake>-<intent>-<time>.json)')
    .option('--catalog <dir>', "catalog (PGlite dir or 'memory://'; default <lake>/.graft-db; 'env' = DATABASE_URL / GRAFT_HOME)")
    .option('--reingest', 'ingest the lake even when the catalog already holds it')
    .option('--markdown <file>', 'update this BENCHMARKS.md section (docs/BENCHMARKS.md by default for full runs)')
    .option('--no-markdown', 'do not touch docs/BENCHMARKS.md')
    .action(
      async (opts: {
        lake: string; questions?: string; gold?: string; budgets: number[]; methods: string[]; intent: string; limit?: number;
        sample?: number; minAlternateConfidence?: number; out?: string; catalog?: string; reingest?: boolean; markdown?: string | boolean;
      }) => {
        if (opts.questions && opts.gold) throw new BadInputError('give --questions or --gold, not both', { field: '--gold' });
        const { retrievalMethodNames } = await import('../../bench/methods.js');
        // Registers the engine's methods (graft, graft-exact) beside the baselines.
        await import('../../bench/graftMethods.js');
        const { runBench, writeBenchmarksMarkdown } = await import('../../bench/run.js');
        const known = new Set(retrievalMethodNames());
        const unknown = opts.methods.filter((m) => !known.has(m));
        if (unknown.length > 0) throw new BadInputError(`unknown method(s) ${unknown.join(', ')} (known: ${[...known].join(', ')})`, { field: '--methods' });
        let db;
        if (opts.catalog === 'env') {
          const { openCatalog } = await import('../../catalog/index.js');
          db = await openCatalog();
        }
        try {
          const results = await runBench({
            lakeDir: opts.lake,
            questionsFile: opts.questions,
            goldFile: opts.gold,
            budgets: opts.budgets,
            methods: opts.methods,
            intent: opts.intent,
            limit: opts.limit,
            sample: opts.sample,
            ...(opts.minAlternateConfidence !== undefined ? { engineOptions: { minAlternateConfidence: opts.minAlternateConfidence } } : {}),
            outFile: opts.out,
            db,
            catalogDir: opts.catalog && opts.catalog !== 'env' ? opts.catalog : undefined,
            ingest: opts.reingest ? 'always' : 'missing',
            command: `graft bench run ${process.argv.slice(process.argv.indexOf('run') + 1).join(' ')}`.trim(),
            onProgress: (m) => process.stderr.write(`  ${m}\n`),
          });
          printBenchSummary(results);
          // Smoke runs never overwrite the published figures unless a file is named explicitly.
          const md = typeof opts.markdown === 'string' ? opts.markdown : opts.markdown !== false && opts.limit === undefined && opts.sample === undefined ? 'docs/BENCHMARKS.md' : null;
          if (md) {
            const section = writeBenchmarksMarkdown(results, path.resolve(md));
            process.stdout.write(`updated ${md} (section bench:${section})\n`);
          }
        } finally {
          await db?.close();
        }
      },
    );

  bench
    .command('enrich')
    .description('training-data enrichment benchmark: vega-datasets tables cut into shards inside the Spider lake; retrieval R/P/F1 and a fixed predictor on each method\'s fused table')
    .option('--lake <dir>', 'the enrichment lake', 'lakes/enrich')
    .option('--spider <dir>', 'the Spider bench lake whose tables are the distractors (npm run bench:build:spider)', 'lakes/spider')
    .option('--build', 'build the enrichment lake first when it is missing or was built with another seed')
    .option('--seed <n>', 'random seed of the cut (with --build)', intOption('seed', { min: 0 }), DEFAULT_SEED)
    .option('--budgets <list>', 'table budgets L', intListOption('budgets', { min: 1, max: MAX_BUDGET }), DEFAULT_BUDGETS)
    .option('--methods <list>', `methods (${ENRICH_METHODS.join(', ')})`, (v: string) => v.split(',').map((x) => x.trim()).filter(Boolean), ENRICH_METHODS)
    .option('--datasets <list>', 'only these datasets (smoke runs; docs untouched unless --markdown)', (v: string) => v.split(',').map((x) => x.trim()).filter(Boolean))
    .option('--out <file>', 'results JSON (default docs/bench/enrich.json for full runs, bench/out/enrich-<time>.json otherwise)')
    .option('--markdown <file>', 'update this BENCHMARKS.md section (docs/BENCHMARKS.md by default for full runs)')
    .action(async (opts: { lake: string; spider: string; build?: boolean; seed: number; budgets: number[]; methods: string[]; datasets?: string[]; out?: string; markdown?: string }) => {
      const [{ buildEnrichLake, readEnrichManifest }, { writeEnrichMarkdown }, { enrichLakeExists, runEnrichBench, writeEnrichResults }] = await Promise.all([
        import('../../enrich/bench/buildLake.js'),
        import('../../enrich/bench/report.js'),
        import('../../enrich/bench/run.js'),
      ]);
      const log = (m: string) => process.stderr.write(`${m}\n`);
      if (opts.build) {
        const current = enrichLakeExists(opts.lake) ? (await readEnrichManifest(opts.lake)).seed : null;
        if (current !== opts.seed) {
          const t0 = performance.now();
          const m = await buildEnrichLake({ spiderLake: opts.spider, outDir: opts.lake, seed: opts.seed });
          log(`enrichment lake ${opts.lake}: ${m.spiderTables} Spider tables + ${m.datasets.reduce((n, d) => n + d.shards.length, 0)} shards of ${m.datasets.length} datasets (seed ${m.seed}, ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
        }
      }
      const full = !opts.datasets;
      const r = await runEnrichBench({
        lakeDir: opts.lake,
        budgets: opts.budgets,
        methods: opts.methods,
        ...(opts.datasets ? { datasets: opts.datasets } : {}),
        command: `graft ${process.argv.slice(2).join(' ')}`,
        onProgress: log,
      });
      const out = opts.out ?? (full ? 'docs/bench/enrich.json' : path.join('bench/out', `enrich-${r.startedAt.replace(/[-:]/g, '').replace(/\..*$/, '')}.json`));
      await writeEnrichResults(r, out);
      const markdown = opts.markdown ?? (full ? 'docs/BENCHMARKS.md' : undefined);
      if (markdown) writeEnrichMarkdown(r, markdown);
      for (const x of r.summary) {
        process.stdout.write(`${x.method.padEnd(10)} L=${String(x.budget).padStart(2)}  R ${x.retrieval.recall.toFixed(3)} P ${x.retrieval.precision.toFixed(3)} F1 ${x.retrieval.f1.toFixed(3)}  RMSE ${x.rmse?.toFixed(3) ?? '—'} (x${x.relativeRmse?.toFixed(3) ?? '—'})  acc ${x.accuracy?.toFixed(3) ?? '—'}\n`);
      }
      process.stdout.write(`results: ${out}${markdown ? `, section bench:enrich in ${markdown}` : ''}; ${(r.timing.totalMs / 1000).toFixed(0)} s\n`);
    });
}
