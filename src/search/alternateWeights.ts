// Written by bench/fit-alternates.ts: do not edit by hand.
import type { AlternateWeights } from './alternateConfidence.js';

export const ALTERNATE_WEIGHTS: AlternateWeights & { fittedOn: string } = {
  fittedOn: 'train_original.json, train_reworded.json without the 1200-question hold-out, L = 15, 92144 offers',
  features: ['bias', 'stage:relevant', 'stage:lookup', 'stage:strong-join', 'joinScore', 'linked', 'unionToCore', 'relevance', 'sameName', 'coverageGain', 'log1p(position)', 'coreCoverage', 'coreTables/5', 'candidateScore', 'nameShare'],
  weights: [-3.3102, -0.317, 0.2821, 0.2118, 0.3596, -0.1056, 0.7714, 1.9628, -0.3546, 1.9828, -0.4869, -0.4766, -0.5259, 0.3089, 0.4966],
};
