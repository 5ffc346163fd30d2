/**
 * Offline intent extraction speed on a lake-sized vocabulary (1,100 tables x 6 columns).
 * Prints build time, first-question time (lazy wink/WordNet loads) and mean ms per question.
 * Questions: the synthetic set, plus Spider dev questions when ../shared is present.
 *   npx tsx bench/intent-speed.ts [--rounds 5]
 */
import { existsSync, readFileSync } from 'node:fs';
import { defaultLemmatiser } from '../src/text/index.js';
import { OfflineExtractor } from '../src/intent/offline-extractor.js';
import { defaultSynonyms } from '../src/intent/wordnet.js';
import { intOption } from '../src/cli/options.js';
import { SYNTHETIC_QUESTIONS, syntheticLake } from '../test/intent/fixtures/synthetic-lake.js';

const SPIDER_DEV = new URL('../../shared/data-raw/jar/spider/dev.json', import.meta.url);
// `--rounds x` is refused, not read as NaN (no timed rounds, then a crash on the empty timings).
const roundsAt = process.argv.indexOf('--rounds');
const rounds = intOption('rounds', { min: 1 })(roundsAt >= 0 ? (process.argv[roundsAt + 1] ?? '') : '5');

const questions = [...SYNTHETIC_QUESTIONS];
if (existsSync(SPIDER_DEV)) {
  const dev = JSON.parse(readFileSync(SPIDER_DEV, 'utf8')) as { question: string }[];
  questions.push(...dev.map((d) => d.question));
}

let t0 = performance.now();
const lemmatiser = defaultLemmatiser();
lemmatiser.lemma('players');
defaultSynonyms().synonyms('pupil');
const modelMs = performance.now() - t0;
t0 = performance.now();
const vocab = syntheticLake(1100, 6);
const vocabMs = performance.now() - t0;
t0 = performance.now();
const extractor = new OfflineExtractor(vocab);
const buildMs = performance.now() - t0;
t0 = performance.now();
extractor.extract(questions[0]);
const firstMs = performance.now() - t0;

// Warm pass (fills lemma and synonym caches for the question words), then timed rounds.
for (const q of questions) extractor.extract(q);
const perQuestion: number[] = [];
for (let r = 0; r < rounds; r++) {
  for (const q of questions) {
    const t = performance.now();
    extractor.extract(q);
    perQuestion.push(performance.now() - t);
  }
}
// Cold pass: a fresh extractor (shared caches for lemmas/WordNet stay warm, indexes are new).
const cold = new OfflineExtractor(vocab);
const coldTimes = questions.map((q) => {
  const t = performance.now();
  cold.extract(q);
  return performance.now() - t;
});

const sorted = [...perQuestion].sort((a, b) => a - b);
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const tables = vocab.tables.length;
const columns = vocab.tables.reduce((n, t) => n + t.columns.length, 0);
console.log(`vocabulary: ${tables} tables, ${columns} columns, ${vocab.valueCount} distinct values (built in ${vocabMs.toFixed(1)} ms)`);
console.log(`one-off loads: ${lemmatiser.engine} lemmatiser + WordNet ${modelMs.toFixed(1)} ms`);
console.log(`extractor indexes built in ${buildMs.toFixed(1)} ms; first question ${firstMs.toFixed(1)} ms`);
console.log(`questions: ${questions.length} x ${rounds} rounds`);
console.log(`mean ${mean(perQuestion).toFixed(3)} ms/question, p50 ${sorted[Math.floor(sorted.length * 0.5)].toFixed(3)}, p99 ${sorted[Math.floor(sorted.length * 0.99)].toFixed(3)}, max ${sorted[sorted.length - 1].toFixed(3)}`);
console.log(`fresh extractor, one pass: mean ${mean(coldTimes).toFixed(3)} ms/question`);
