/**
 * Fits the alternates' confidence model (src/search/alternateConfidence.ts) on tuning questions and
 * rewrites src/search/alternateModel.ts. For each questions file it runs graft over every question
 * except the evaluation sample the tuning trials measure on (`--hold-out N`: the N questions
 * `graft bench run --sample N` takes), labels each offer the alternates' stages made by whether it
 * holds a gold table, and fits the boosted trees on the offers of the questions with >= 2 gold
 * tables. An alternate's job is to complete a multi-table answer; on a one-table question a gold
 * offer is a rival of the core (another copy of its table), and those offers, most of the
 * labelled ones, taught the trees the rivals' evidence (src/search/README.md). Prints how often each
 * feature splits and how well the confidence is calibrated; `--dry-run` writes nothing.
 *
 * `--hold-out-databases F` asks instead how the model does on databases it has not seen, as dev
 * questions and users' own lakes are: a share F of the databases (`db_id`; a fixed shuffle) is
 * held out whole, the trees are fitted on the other databases' questions, and for the held-out
 * questions with >= 2 gold tables the script prints, per floor, the F1 / Sufficiency at L = 5, 10
 * and 15 of their core (as answered at `--budget`, cut to L) plus their offers taken most likely
 * first, as `chooseSynthesis` takes them, and the calibration on every offer to the held-out
 * databases' questions. Nothing is written then.
 * Usage: tsx bench/fit-alternates.ts --lake lakes/spider --questions <a.json>[,<b.json>]
 *          [--hold-out 1200 | --hold-out-databases 0.33] [--budget 15] [--catalog <dir>] [--dry-run]
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchContext, BenchQuestion } from '../src/bench/methods.js';
import { GraftMethod } from '../src/bench/graftMethods.js';
import { macroAverage, questionMetrics } from '../src/bench/metrics.js';
import { evenSample, runBench } from '../src/bench/run.js';
import { intOption, numberOption } from '../src/cli/options.js';
import { MAX_BUDGET } from '../src/engine/limits.js';
import { mulberry32, shuffle } from '../src/util/prng.js';
import { ALTERNATE_FEATURES, alternateConfidence, fitBoostedTrees, keptOffers, type AlternateOffer } from '../src/search/index.js';

const args = process.argv.slice(2);
const opt = (name: string, dflt?: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const lake = opt('--lake');
const files = opt('--questions')?.split(',');
if (!lake || !files) throw new Error('usage: tsx bench/fit-alternates.ts --lake <dir> --questions <a.json>[,<b.json>] [--hold-out 1200] [--budget 15] [--catalog <dir>] [--dry-run]');
const holdOut = intOption('hold-out', { min: 0 })(opt('--hold-out', '1200') ?? '');
const budget = intOption('budget', { min: 1, max: MAX_BUDGET })(opt('--budget', '15') ?? '');
const catalogDir = opt('--catalog');
const heldDatabaseShare = opt('--hold-out-databases') === undefined ? undefined : numberOption('hold-out-databases', { min: 0, max: 1 })(opt('--hold-out-databases')!);
// The bounds above are inclusive; holding out none or all of the databases leaves nothing to test or to fit.
if (heldDatabaseShare !== undefined && !(heldDatabaseShare > 0 && heldDatabaseShare < 1)) throw new Error('--hold-out-databases must be a share in (0,1)');
const out = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src', 'search', 'alternateModel.ts');

/** The benchmark's graft, recording each question's offers (kept or not) with their lake table stems. */
class OfferRecorder extends GraftMethod {
  readonly offers = new Map<number, { stems: string[]; offer: AlternateOffer }[]>();
  private catalog?: BenchContext['catalog'];

  override async prepare(ctx: BenchContext): Promise<void> {
    this.catalog = ctx.catalog;
    await super.prepare(ctx);
  }

  override async retrieve(question: string, budget: number, q?: BenchQuestion): Promise<string[]> {
    const ids = await super.retrieve(question, budget, q);
    const stem = (id: string) => this.catalog!.tableById.get(id)?.stem ?? `?${id}`;
    this.offers.set(q!.index, (this.lastSynthesis()?.search?.alternateOffers ?? []).map((offer) => ({ stems: offer.tables.map(stem), offer })));
    return ids;
  }
}

const x: number[][] = [];
const y: number[] = [];
/** Held-out databases' questions with >= 2 gold tables: their core and offers, to answer again. */
const unseen: { gold: string[]; core: string[]; offers: { stems: string[]; features: number[] }[] }[] = [];
/** Every offer to the held-out databases' questions, labelled like the fitted ones: the calibration there. */
const unseenX: number[][] = [];
const unseenY: number[] = [];
const tmp = mkdtempSync(path.join(os.tmpdir(), 'graft-fit-'));
try {
  for (const file of files) {
    const all = JSON.parse(readFileSync(file, 'utf8')) as { db_id?: string }[];
    let rest = all;
    let unseenDatabases = new Set<string>();
    if (heldDatabaseShare === undefined) {
      const held = new Set(evenSample(all, holdOut));
      rest = all.filter((q) => !held.has(q));
    } else {
      // A fixed shuffle of the sorted names: the same databases each run.
      const databases = shuffle([...new Set(all.map((q) => String(q.db_id)))].sort(), mulberry32(1));
      unseenDatabases = new Set(databases.slice(0, Math.round(heldDatabaseShare * databases.length)));
    }
    const restFile = path.join(tmp, path.basename(file));
    writeFileSync(restFile, JSON.stringify(rest));
    const recorder = new OfferRecorder('graft', 'beam');
    const results = await runBench({ lakeDir: lake, catalogDir, questionsFile: restFile, methods: [recorder], budgets: [budget], engineOptions: { minAlternateConfidence: 0 }, onProgress: (m) => process.stderr.write(`${m}\n`) });
    for (const row of results.rows) {
      const gold = new Set(row.gold);
      const offers = recorder.offers.get(row.questionIndex) ?? [];
      // The fit and its checks read the questions with >= 2 gold tables only (see above).
      if (row.goldBaseCount < 2) continue;
      if (unseenDatabases.has(String(rest[row.questionIndex].db_id))) {
        for (const { stems, offer } of offers) {
          unseenX.push(offer.features);
          unseenY.push(stems.some((s) => gold.has(s)) ? 1 : 0);
        }
        unseen.push({ gold: row.gold, core: row.retrieved.slice(0, row.core ?? 0), offers: offers.map((o) => ({ stems: o.stems, features: o.offer.features })) });
        continue;
      }
      for (const { stems, offer } of offers) {
        x.push(offer.features);
        y.push(stems.some((s) => gold.has(s)) ? 1 : 0);
      }
    }
    process.stderr.write(`${file}: ${rest.length} questions (${all.length - rest.length} held out, ${unseenDatabases.size} databases unseen), ${x.length} offers so far\n`);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

const model = fitBoostedTrees(x, y, ALTERNATE_FEATURES);
const predicted = x.map((f) => alternateConfidence(f, model));
const mean = (v: number[]) => v.reduce((a, c) => a + c, 0) / v.length;
const logLoss = -mean(predicted.map((p, i) => Math.log(Math.max(1e-12, y[i] ? p : 1 - p))));
process.stdout.write(`${x.length} offers, ${mean(y).toFixed(3)} of them hold a gold table; mean log loss ${logLoss.toFixed(4)}\n`);
// How often each feature splits a node, over all trees.
const splits = new Array<number>(ALTERNATE_FEATURES.length).fill(0);
for (const tree of model.trees) for (let n = 0; n < tree.length; n += 4) if (tree[n] >= 0) splits[tree[n]]++;
for (const [i, name] of ALTERNATE_FEATURES.entries()) process.stdout.write(`  ${name.padEnd(32)} ${String(splits[i]).padStart(4)} splits\n`);
/** Calibration: offers by predicted confidence, beside the share that held a gold table. */
const printCalibration = (predictedOf: readonly number[], labels: readonly number[]) => {
  const bins = [0, 0.01, 0.02, 0.03, 0.05, 0.1, 0.2, 0.4, 1.01];
  for (let b = 0; b + 1 < bins.length; b++) {
    const inBin = predictedOf.map((p, i) => ({ p, y: labels[i] })).filter((o) => o.p >= bins[b] && o.p < bins[b + 1]);
    if (inBin.length === 0) continue;
    process.stdout.write(`  confidence ${bins[b].toFixed(2)}-${Math.min(1, bins[b + 1]).toFixed(2)}: ${String(inBin.length).padStart(6)} offers, predicted ${mean(inBin.map((o) => o.p)).toFixed(3)}, observed ${mean(inBin.map((o) => o.y)).toFixed(3)}\n`);
  }
};
printCalibration(predicted, y);
if (heldDatabaseShare !== undefined) {
  process.stdout.write(`${unseenX.length} offers to the unseen databases' questions, ${mean(unseenY).toFixed(3)} of them hold a gold table:\n`);
  printCalibration(unseenX.map((f) => alternateConfidence(f, model)), unseenY);
  // The held-out databases' questions answered again by the fitted trees, per floor and budget.
  const budgets = [5, 10, 15];
  const scored = unseen.map((q) => ({ ...q, offers: q.offers.map((o) => ({ tables: o.stems, confidence: alternateConfidence(o.features, model) })) }));
  process.stdout.write(`${unseen.length} questions with >= 2 gold tables on the unseen databases, F1 / Suf at L = ${budgets.join(' / ')}:\n`);
  for (const floor of [0, 0.01, 0.02, 0.03, 0.05, 0.08]) {
    const cells = budgets.map((L) => {
      const m = macroAverage(
        scored.map((q) => {
          const core = q.core.slice(0, L);
          return questionMetrics([...core, ...keptOffers(q.offers, L - core.length, floor).flatMap((i) => q.offers[i].tables)], q.gold);
        }),
      );
      return `${m.f1.toFixed(3)} / ${m.sufficiency.toFixed(3)}`;
    });
    process.stdout.write(`  floor ${floor.toFixed(2)}: ${cells.join('   ')}\n`);
  }
} else if (!args.includes('--dry-run')) {
  const fittedOn = `${files.map((f) => path.basename(f)).join(', ')} without the ${holdOut}-question hold-out, L = ${budget}, ${x.length} offers of the questions with >= 2 gold tables`;
  // Thresholds exactly (they are feature values: a rounded one could move an offer across it), leaf values to 6 digits.
  const node = (tree: readonly number[], n: number) => (tree[n] < 0 ? `-1, ${Number(tree[n + 1].toPrecision(6))}, 0, 0` : `${tree[n]}, ${tree[n + 1]}, ${tree[n + 2]}, ${tree[n + 3]}`);
  const trees = model.trees.map((tree) => `    [${Array.from({ length: tree.length / 4 }, (_, i) => node(tree, 4 * i)).join(', ')}],`).join('\n');
  writeFileSync(
    out,
    `// Written by bench/fit-alternates.ts: do not edit by hand.\n` +
      `import type { AlternateModel } from './alternateConfidence.js';\n\n` +
      `export const ALTERNATE_MODEL: AlternateModel & { fittedOn: string } = {\n` +
      `  fittedOn: '${fittedOn.replace(/'/g, "\\'")}',\n` +
      `  features: ${JSON.stringify(model.features).replace(/","/g, '", "').replace(/"/g, "'")},\n` +
      `  base: ${model.base},\n` +
      `  learningRate: ${model.learningRate},\n` +
      `  trees: [\n${trees}\n  ],\n` +
      `};\n`,
  );
  process.stdout.write(`wrote ${path.relative(process.cwd(), out)}\n`);
}
