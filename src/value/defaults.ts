import type { TransitionOptions } from './transitions.js';

/**
 * Defaults of trajectory generation, in a module with no runtime imports: `graft value train
 * --help` shows them without loading tfjs or the search.
 */
export const DEFAULT_TRANSITION_OPTIONS: TransitionOptions = {
  trajectories: 3000,
  sampler: 'centrality',
  maxSize: 6,
  beta: 0.5,
  epsilon: 0.1,
  perturbedReplays: 2,
  perturbProbability: 0.3,
  communities: 16,
  quantiles: 4,
  budgets: [5, 10, 15],
  gamma: 0.8,
  seed: 7,
  lookaheadHops: 2,
};
