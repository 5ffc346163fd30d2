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
 *
 * Answering the questions is most of the time a fit takes (11 minutes for the two train files on
 * two cores; fitting the trees, seconds). `--save-offers <file>` records what the fit reads of
 * every answered question (`RecordedOffers`: gold, core, each offer's lake stems and features) and
 * `--offers <file>` fits on such a record instead of answering again, so that trees of another
 * shape (`--trees`, `--depth`, `--min-leaf`) or the other check are seconds away. Record with
 * `--hold-out-databases` to keep every question: with `--hold-out N` the sample is not answered.
 * Fitting on a record that holds the held-out sample also prints the sample's questions answered
 * again (the core as answered at `--budget`, cut to L), beside what `graft bench run --sample N`
 * measures with real runs at each L.
 * A record holds the features the code computed then; after a change to the search or to the
 * features, record again.
 * Usage: tsx bench/fit-alternates.ts (--lake lakes/spider --questions <a.json>[,<b.json>] | --offers <file>)
 *          [--hold-out 1200 | --hold-out-databases 0.33] [--budget 15] [--catalog <dir>] [--save-offers <file>]
 *          [--trees 150] [--depth 4] [--min-leaf 50] [--dry-run]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchContext, BenchQuestion } from '../src/bench/methods.js';
import { GraftMethod } from '../src/bench/graftMethods.js';
import {
  RECORDED_OFFERS_PROTOCOL,
  answerAgain,
  heldOutDatabases,
  labelledOffers,
  readRecordedOffers,
  type RecordedOffers,
  type RecordedQuestion,
} from '../src/bench/alternateFit.js';
import { runBench, sampledQuestionIndices } from '../src/bench/run.js';
import { readJsonFile } from '../src/bench/runFile.js';
import { intOption, numberOption } from '../src/cli/options.js';
import { MAX_BUDGET } from '../src/engine/limits.js';
import { ALTERNATE_FEATURES, DEFAULT_BOOSTING, alternateConfidence, fitBoostedTrees, type AlternateOffer } from '../src/search/index.js';

const args = process.argv.slice(2);
const opt = (name: string, dflt?: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const lake = opt('--lake');
const offersFile = opt('--offers');
const saveOffersFile = opt('--save-offers');
const files = opt('--questions')?.split(',') ?? [];
if (!offersFile && (!lake || files.length === 0)) {
  throw new Error('usage: tsx bench/fit-alternates.ts (--lake <dir> --questions <a.json>[,<b.json>] | --offers <file>) [--hold-out 1200 | --hold-out-databases 0.33] [--budget 15] [--catalog <dir>] [--save-offers <file>] [--trees 150] [--depth 4] [--min-leaf 50] [--dry-run]');
}
const holdOut = intOption('hold-out', { min: 0 })(opt('--hold-out', '1200') ?? '');
const budget = intOption('budget', { min: 1, max: MAX_BUDGET })(opt('--budget', '15') ?? '');
const catalogDir = opt('--catalog');
const heldDatabaseShare = opt('--hold-out-databases') === undefined ? undefined : numberOption('hold-out-databases', { min: 0, max: 1 })(opt('--hold-out-databases')!);
// The bounds above are inclusive; holding out none or all of the databases leaves nothing to test or to fit.
if (heldDatabaseShare !== undefined && !(heldDatabaseShare > 0 && heldDatabaseShare < 1)) throw new Error('--hold-out-databases must be a share in (0,1)');
const boosting = {
  trees: intOption('trees', { min: 1 })(opt('--trees', String(DEFAULT_BOOSTING.trees))!),
  depth: intOption('depth', { min: 1, max: 8 })(opt('--depth', String(DEFAULT_BOOSTING.depth))!),
  minLeaf: intOption('min-leaf', { min: 1 })(opt('--min-leaf', String(DEFAULT_BOOSTING.minLeaf))!),
};
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

/** Each questions file's questions, read once. */
const askedIn = new Map<string, { db_id?: string }[]>();
const asked = (file: string) => askedIn.get(file) ?? askedIn.set(file, readJsonFile(file) as { db_id?: string }[]).get(file)!;
/** Each questions file's held-out sample (the questions `--sample N` answers on the lake), found once. */
const sampleIn = new Map<string, Promise<Set<number>>>();
const heldSample = (lakeDir: string, file: string) => sampleIn.get(file) ?? sampleIn.set(file, sampledQuestionIndices(lakeDir, file, holdOut)).get(file)!;

/** Every answered question, or those read from `--offers`. */
let recorded: RecordedOffers;
if (offersFile) {
  recorded = readRecordedOffers(offersFile, ALTERNATE_FEATURES);
  process.stderr.write(`${offersFile}: ${recorded.questions.length} questions answered at L = ${recorded.budget}\n`);
} else {
  recorded = { protocol: RECORDED_OFFERS_PROTOCOL, lake: path.resolve(lake!), features: [...ALTERNATE_FEATURES], budget, questions: [] };
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'graft-fit-'));
  try {
    for (const file of files) {
      const all = asked(file);
      // The questions the fit may read; the held-out sample is not even answered.
      const held = heldDatabaseShare === undefined ? await heldSample(lake!, file) : new Set<number>();
      const run = all.map((_, i) => i).filter((i) => !held.has(i));
      const runFile = path.join(tmp, path.basename(file));
      writeFileSync(runFile, JSON.stringify(run.map((i) => all[i])));
      const recorder = new OfferRecorder('graft', 'beam');
      const results = await runBench({ lakeDir: lake!, catalogDir, questionsFile: runFile, methods: [recorder], budgets: [budget], engineOptions: { minAlternateConfidence: 0 }, onProgress: (m) => process.stderr.write(`${m}\n`) });
      for (const row of results.rows) {
        const questionIndex = run[row.questionIndex];
        const offers = recorder.offers.get(row.questionIndex) ?? [];
        recorded.questions.push({
          file,
          questionIndex,
          database: String(all[questionIndex].db_id),
          goldBaseCount: row.goldBaseCount,
          gold: row.gold,
          core: row.retrieved.slice(0, row.core ?? 0),
          offers: offers.map((o) => ({ stems: o.stems, features: o.offer.features })),
        });
      }
      process.stderr.write(`${file}: ${run.length} of ${all.length} questions answered\n`);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  if (saveOffersFile) writeFileSync(saveOffersFile, JSON.stringify(recorded));
}

// Per questions file: which recorded questions the trees may read, which they are checked on.
const fitted: RecordedQuestion[] = [];
/** Held-out databases' questions, answered again by the fitted trees. */
const unseen: RecordedQuestion[] = [];
/** Per file, the held-out sample's questions when the record holds them (recorded with `--hold-out-databases`). */
const sampled = new Map<string, RecordedQuestion[]>();
for (const file of new Set(recorded.questions.map((q) => q.file))) {
  const inFile = recorded.questions.filter((q) => q.file === file);
  if (heldDatabaseShare === undefined) {
    const held = await heldSample(recorded.lake, file);
    fitted.push(...inFile.filter((q) => !held.has(q.questionIndex)));
    const inSample = inFile.filter((q) => held.has(q.questionIndex));
    if (inSample.length > 0) sampled.set(file, inSample);
  } else {
    const unseenDatabases = heldOutDatabases(asked(file).map((q) => String(q.db_id)), heldDatabaseShare);
    for (const q of inFile) (unseenDatabases.has(q.database) ? unseen : fitted).push(q);
  }
}
const { x, y } = labelledOffers(fitted);
const model = fitBoostedTrees(x, y, ALTERNATE_FEATURES, boosting);
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
/** Questions with >= 2 gold tables answered again by the fitted trees, per floor and budget (the core as answered at `--budget`, cut to L). */
const printAnswersAgain = (questions: readonly RecordedQuestion[], which: string) => {
  const budgets = [5, 10, 15];
  const again = answerAgain(questions, (f) => alternateConfidence(f, model), [0, 0.01, 0.02, 0.03, 0.05, 0.08], budgets);
  process.stdout.write(`${questions.filter((q) => q.goldBaseCount >= 2).length} questions with >= 2 gold tables ${which}, F1 / Suf at L = ${budgets.join(' / ')}:\n`);
  for (const { floor, byBudget } of again) process.stdout.write(`  floor ${floor.toFixed(2)}: ${byBudget.map((m) => `${m.f1.toFixed(3)} / ${m.sufficiency.toFixed(3)}`).join('   ')}\n`);
};
// The held-out sample the tuning trials measure on, where the record holds it.
for (const [file, questions] of sampled) printAnswersAgain(questions, `in the held-out sample of ${path.basename(file)}`);
if (heldDatabaseShare !== undefined) {
  const held = labelledOffers(unseen);
  process.stdout.write(`${held.x.length} offers to the unseen databases' questions, ${mean(held.y).toFixed(3)} of them hold a gold table:\n`);
  printCalibration(held.x.map((f) => alternateConfidence(f, model)), held.y);
  printAnswersAgain(unseen, 'on the unseen databases');
} else if (!args.includes('--dry-run')) {
  const shape = boosting.trees === DEFAULT_BOOSTING.trees && boosting.depth === DEFAULT_BOOSTING.depth && boosting.minLeaf === DEFAULT_BOOSTING.minLeaf ? '' : `, ${boosting.trees} trees of depth ${boosting.depth}, leaves of >= ${boosting.minLeaf}`;
  const fittedFiles = [...new Set(recorded.questions.map((q) => path.basename(q.file)))];
  const fittedOn = `${fittedFiles.join(', ')} without the ${holdOut}-question hold-out, L = ${recorded.budget}, ${x.length} offers of the questions with >= 2 gold tables${shape}`;
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
