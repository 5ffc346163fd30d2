import { BadInputError } from '../util/errors.js';
import { mulberry32, shuffle } from '../util/prng.js';
import { keptOffers } from '../search/index.js';
import { macroAverage, questionMetrics, type MacroMetrics } from './metrics.js';
import { readJsonFile } from './runFile.js';

/**
 * What `bench/fit-alternates.ts` reads of one answered question to fit the alternates' trees:
 * its gold tables, its core and every offer the alternates' stages made (kept or not), tables as
 * lake stems. Recorded once (`--save-offers`), the questions can be fitted and answered again
 * with other trees, floors or features dropped without running the search again.
 */
export interface RecordedQuestion {
  /** The questions file, as given. */
  file: string;
  /** Index of the question in that file. */
  questionIndex: number;
  database: string;
  goldBaseCount: number;
  gold: string[];
  core: string[];
  offers: { stems: string[]; features: number[] }[];
}

export interface RecordedOffers {
  protocol: typeof RECORDED_OFFERS_PROTOCOL;
  /** The bench lake the questions were answered on (its manifest says which questions a sample takes). */
  lake: string;
  /** The model's inputs the offers' features are, in order (`ALTERNATE_FEATURES` when recorded). */
  features: string[];
  /** The budget the questions were answered at. */
  budget: number;
  questions: RecordedQuestion[];
}

export const RECORDED_OFFERS_PROTOCOL = 'graft-alternate-offers-v1';

/**
 * A record of `--save-offers`, refused with its name when it is not one, or when its offers hold
 * other features than `features` (the code's now: the search or the features changed since).
 */
export function readRecordedOffers(file: string, features: readonly string[]): RecordedOffers {
  const recorded = readJsonFile(file) as RecordedOffers;
  if (recorded?.protocol !== RECORDED_OFFERS_PROTOCOL || typeof recorded.lake !== 'string' || !Array.isArray(recorded.questions) || !Array.isArray(recorded.features)) {
    throw new BadInputError(`${file}: not offers recorded by \`bench/fit-alternates.ts --save-offers\` (protocol ${RECORDED_OFFERS_PROTOCOL})`, { path: file });
  }
  if (recorded.features.join(',') !== features.join(',')) {
    throw new BadInputError(`${file}: its offers hold the features [${recorded.features.join(', ')}], the code computes [${features.join(', ')}]: record them again`, { path: file });
  }
  return recorded;
}

/**
 * The fit's rows: every offer to the questions with >= 2 gold tables, labelled 1 when it holds a
 * gold table. An alternate's job is to complete a multi-table answer; on a one-table question a
 * gold offer is a rival of the core (another copy of its table), and those offers, most of the
 * labelled ones, taught the trees the rivals' evidence (src/search/README.md).
 */
export function labelledOffers(questions: readonly RecordedQuestion[]): { x: number[][]; y: number[] } {
  const x: number[][] = [];
  const y: number[] = [];
  for (const q of questions) {
    if (q.goldBaseCount < 2) continue;
    const gold = new Set(q.gold);
    for (const offer of q.offers) {
      x.push(offer.features);
      y.push(offer.stems.some((s) => gold.has(s)) ? 1 : 0);
    }
  }
  return { x, y };
}

/**
 * The databases held out whole: the first `share` of the distinct names, sorted and then
 * shuffled by a fixed seed, so that every run holds out the same ones.
 */
export function heldOutDatabases(databases: Iterable<string>, share: number): Set<string> {
  if (!(share > 0 && share < 1)) throw new Error(`the held-out share of the databases must be in (0,1), got ${share}`);
  const names = shuffle([...new Set(databases)].sort(), mulberry32(1));
  return new Set(names.slice(0, Math.round(share * names.length)));
}

/**
 * The questions with >= 2 gold tables answered again, as `chooseSynthesis` answers: the core cut
 * to L, then the offers most likely first (by `confidence`), each that clears the floor and fits.
 * Per floor, the macro metrics at each budget.
 */
export function answerAgain(
  questions: readonly RecordedQuestion[],
  confidence: (features: readonly number[]) => number,
  floors: readonly number[],
  budgets: readonly number[],
): { floor: number; byBudget: MacroMetrics[] }[] {
  const scored = questions
    .filter((q) => q.goldBaseCount >= 2)
    .map((q) => ({ q, offers: q.offers.map((o) => ({ tables: o.stems, confidence: confidence(o.features) })) }));
  return floors.map((floor) => ({
    floor,
    byBudget: budgets.map((L) =>
      macroAverage(
        scored.map(({ q, offers }) => {
          const core = q.core.slice(0, L);
          return questionMetrics([...core, ...keptOffers(offers, L - core.length, floor).flatMap((i) => offers[i].tables)], q.gold);
        }),
      ),
    ),
  }));
}
