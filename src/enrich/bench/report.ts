import { markdownTable, replaceMarkedSection } from '../../bench/markdown.js';
import type { EnrichBenchResults } from './run.js';

const f3 = (x: number | null | undefined) => (x === null || x === undefined ? '—' : x.toFixed(3));

/** The `bench:enrich` section of docs/BENCHMARKS.md, rendered from one run's results. */
export function enrichMarkdown(r: EnrichBenchResults): string {
  const s = (sec: number) => `${(sec / 1000).toFixed(0)} s`;
  const lines: string[] = [];
  lines.push('## Training-data enrichment (`npm run bench:enrich`)', '');
  lines.push(
    `Command \`${r.command}\`, commit \`${r.commit.slice(0, 12)}\`, ${r.startedAt}; ${r.machine.cores} cores (${r.machine.cpu}), Node ${r.machine.node}. ` +
      `Wall time ${s(r.timing.totalMs)}: ingest ${s(r.timing.ingestMs)}${r.index.ingested ? '' : ' (catalog reused)'}, retrieval ${s(r.timing.retrievalMs)}, ` +
      `predictor ${s(r.timing.predictorMs)} (${r.timing.predictorFits} cross-validations of distinct fused tables).`,
    '',
  );
  lines.push(
    `Lake: the Spider bench lake (${r.index.catalogTables - r.datasets.reduce((n, d) => n + 1 + d.gold.length + d.copies.length, 0)} tables, distractors) plus ${r.datasets.length} vega-datasets tables cut into shards ` +
      `(seed ${r.seed}; ${r.index.catalogTables} tables, ${r.index.joinEdges} join and ${r.index.unionEdges} union edges in the catalog). ` +
      `Gold of a dataset = the other shards of its table (row and column shards); a copy of a column shard stands in for it when the shard itself is not returned. ` +
      `Predictor: ${r.predictor.library} random forest (${r.predictor.trees} trees, depth ${r.predictor.maxDepth}, ${r.predictor.treeSamples} rows per tree, seed ${r.predictor.seed}), ` +
      `${r.predictor.folds}-fold cross-validation grouped by the base key on the rows that have the target.`,
    '',
  );
  lines.push(
    markdownTable(
      ['dataset', 'task', 'target', 'rows (source)', 'base', 'gold shards', 'copies', 'source', 'licence'],
      r.datasets.map((d) => [d.name, d.task, d.target, `${d.rows} (${d.sourceRows})`, d.base, d.gold.length, d.copies.length, d.source, d.licence]),
    ),
    '',
  );
  lines.push('### Retrieval (macro over datasets)', '');
  const methods = r.summary.filter((x) => x.method !== 'base only');
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  lines.push(
    markdownTable(
      ['method', 'L', 'R', 'P', 'F1', 'tables returned', 'copies returned'],
      methods.map((x) => {
        const rows = r.rows.filter((row) => row.method === x.method && row.budget === x.budget);
        return [x.method, x.budget, f3(x.retrieval.recall), f3(x.retrieval.precision), f3(x.retrieval.f1), mean(rows.map((row) => row.retrieved.length)).toFixed(1), mean(rows.map((row) => row.copiesRetrieved)).toFixed(2)];
      }),
    ),
    '',
  );
  lines.push('### End to end (the predictor on the fused table)', '');
  lines.push('RMSE: mean over the regression datasets (and mean of RMSE / base-only RMSE, scale-free, < 1 = better than the base alone); accuracy: mean over the classification datasets. A fused table that could not be built or scored (`failed`) counts as the base table alone.', '');
  lines.push(
    markdownTable(
      ['method', 'L', 'RMSE', 'RMSE / base', 'accuracy', 'failed'],
      r.summary.map((x) => [x.method, x.budget === 0 ? '—' : x.budget, f3(x.rmse), f3(x.relativeRmse), f3(x.accuracy), x.failures]),
    ),
    '',
  );
  for (const budget of r.budgets) {
    lines.push(`Per dataset at L = ${budget} (RMSE for regression, accuracy for classification; R in brackets):`, '');
    lines.push(
      markdownTable(
        ['dataset', 'task', 'base only', ...r.methods],
        r.datasets.map((d) => {
          const base = r.rows.find((row) => row.dataset === d.name && row.method === 'base only');
          return [
            d.name,
            d.task === 'regression' ? 'RMSE' : 'acc',
            f3(base?.score),
            ...r.methods.map((m) => {
              const row = r.rows.find((x) => x.dataset === d.name && x.method === m && x.budget === budget);
              return row ? `${f3(row.score)} (${row.metrics.recall.toFixed(2)})` : '—';
            }),
          ];
        }),
      ),
      '',
    );
  }
  const failures = r.rows.filter((x) => x.error);
  if (failures.length > 0) {
    lines.push('Fused tables that could not be scored:', '');
    for (const x of failures.slice(0, 10)) lines.push(`- ${x.dataset} ${x.method} L=${x.budget}: ${x.error}`);
    lines.push('');
  }
  return lines.join('\n');
}

export function writeEnrichMarkdown(r: EnrichBenchResults, file: string): void {
  replaceMarkedSection(file, 'enrich', enrichMarkdown(r));
}
