/**
 * Greedy maximisation of a monotone submodular set function under a cardinality budget,
 * lazily (Minoux 1978): a candidate's last computed gain is an upper bound on its current gain
 * (gains only shrink as the set grows), so candidates sit in a max-heap on that bound and only
 * the top one is re-evaluated; when a freshly evaluated candidate is still on top, it is the
 * true argmax and is taken without looking at the rest.
 *
 * Generic over the candidate type and the state: the caller supplies `gainOf(state, c)` (must
 * not mutate) and `commit(state, c)`. With IgmsState / PieceIgmsState:
 *   lazyGreedy(units, { budget, state, gainOf: (s, u) => s.gain(u), commit: (s, u) => { s.add(u); } })
 *
 * An optional `feasible` predicate (e.g. "joins the tables chosen so far") may depend on the
 * picks so far; an infeasible candidate is parked with its bound and reconsidered after the
 * next pick. Picks are identical to plainGreedy's whenever the function is submodular, with
 * ties (gains within `tieTolerance`) broken by the lower candidate index in both.
 */
import { IgmsInputError } from './errors.js';

export interface GreedyPick<C> {
  candidate: C;
  /** Index into the candidates array. */
  index: number;
  /** Marginal gain when it was picked. */
  gain: number;
}

export interface GreedyOptions<C, S> {
  /** Maximum number of picks (e.g. the table limit L). */
  budget: number;
  /** Stop when the best available gain is below this (default 1e-12: stop at no improvement). */
  minGain?: number;
  /**
   * Gains within this of the best count as ties and go to the lowest candidate index
   * (default 1e-12), so rounding noise between symmetric candidates cannot change the picks.
   */
  tieTolerance?: number;
  /** Initial state; mutated through `commit` (or replaced by its return value). */
  state: S;
  /** Marginal gain of adding `candidate` to `state`. Must not mutate the state. */
  gainOf(state: S, candidate: C, index: number): number;
  /** Adds `candidate` to the state; may return a new state object instead of mutating. */
  commit(state: S, candidate: C, index: number): S | void;
  /** Whether `candidate` may be added after `picks` (default: always). */
  feasible?(candidate: C, index: number, picks: ReadonlyArray<GreedyPick<C>>, state: S): boolean;
}

export interface GreedyResult<C, S> {
  picks: Array<GreedyPick<C>>;
  /** The state after the last pick. */
  state: S;
  /** Sum of the picks' gains (= U(S) − U(∅)). */
  total: number;
  /** Number of gainOf calls (lazy greedy's saving shows here). */
  evaluations: number;
  stoppedBy: 'budget' | 'minGain' | 'exhausted';
}

const DEFAULT_MIN_GAIN = 1e-12;
const DEFAULT_TIE_TOLERANCE = 1e-12;

interface HeapEntry {
  index: number;
  bound: number;
  /** Number of picks when `bound` was computed; equal to the current count = fresh. */
  stamp: number;
}

/** Max-heap on bound, ties to the lower index (so it agrees with plainGreedy's tie-break). */
class BoundHeap {
  private items: HeapEntry[] = [];

  get size(): number {
    return this.items.length;
  }

  private before(x: HeapEntry, y: HeapEntry): boolean {
    return x.bound > y.bound || (x.bound === y.bound && x.index < y.index);
  }

  push(e: HeapEntry): void {
    const h = this.items;
    h.push(e);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.before(h[i], h[p])) break;
      [h[i], h[p]] = [h[p], h[i]];
      i = p;
    }
  }

  peek(): HeapEntry | undefined {
    return this.items[0];
  }

  pop(): HeapEntry | undefined {
    const h = this.items;
    if (h.length === 0) return undefined;
    const top = h[0];
    const last = h.pop()!;
    if (h.length > 0) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && this.before(h[l], h[m])) m = l;
        if (r < h.length && this.before(h[r], h[m])) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m], h[i]];
        i = m;
      }
    }
    return top;
  }
}

function checkBudget(budget: number): void {
  if (!Number.isInteger(budget) || budget < 0) throw new IgmsInputError('budget', `must be an integer >= 0 (${budget})`);
}

/**
 * Lazy greedy. Cost: one gainOf per candidate in the first round, then typically a few per
 * pick; O(log n) heap work per evaluation.
 */
export function lazyGreedy<C, S>(candidates: readonly C[], options: GreedyOptions<C, S>): GreedyResult<C, S> {
  checkBudget(options.budget);
  const minGain = options.minGain ?? DEFAULT_MIN_GAIN;
  const tieTolerance = options.tieTolerance ?? DEFAULT_TIE_TOLERANCE;
  let state = options.state;
  const picks: Array<GreedyPick<C>> = [];
  let evaluations = 0;
  let total = 0;
  const heap = new BoundHeap();
  candidates.forEach((_, index) => heap.push({ index, bound: Infinity, stamp: -1 }));
  let parked: HeapEntry[] = [];

  const isFeasible = (e: HeapEntry) => !options.feasible || options.feasible(candidates[e.index], e.index, picks, state);

  for (;;) {
    if (picks.length >= options.budget) return { picks, state, total, evaluations, stoppedBy: 'budget' };
    const top = heap.pop();
    if (!top) return { picks, state, total, evaluations, stoppedBy: 'exhausted' };
    if (!isFeasible(top)) {
      parked.push(top);
      continue;
    }
    if (top.stamp !== picks.length) {
      top.bound = options.gainOf(state, candidates[top.index], top.index);
      top.stamp = picks.length;
      evaluations++;
      heap.push(top);
      continue;
    }
    // Fresh and on top: its gain g beats every other candidate's upper bound. Collect every
    // candidate whose gain is within the tie tolerance of g, then take the lowest index.
    const best = top.bound;
    if (best < minGain) return { picks, state, total, evaluations, stoppedBy: 'minGain' };
    const near: HeapEntry[] = [top];
    const below: HeapEntry[] = [];
    for (let e = heap.peek(); e && e.bound >= best - tieTolerance; e = heap.peek()) {
      heap.pop();
      if (!isFeasible(e)) {
        parked.push(e);
        continue;
      }
      if (e.stamp !== picks.length) {
        e.bound = options.gainOf(state, candidates[e.index], e.index);
        e.stamp = picks.length;
        evaluations++;
      }
      (e.bound >= best - tieTolerance ? near : below).push(e);
    }
    let chosen = near[0];
    for (const e of near) if (e.index < chosen.index) chosen = e;
    for (const e of near) if (e !== chosen) heap.push(e);
    for (const e of below) heap.push(e);
    const c = candidates[chosen.index];
    const next = options.commit(state, c, chosen.index);
    if (next !== undefined) state = next;
    picks.push({ candidate: c, index: chosen.index, gain: chosen.bound });
    total += chosen.bound;
    for (const p of parked) heap.push(p);
    parked = [];
  }
}

/**
 * Plain greedy: every round evaluates every feasible unpicked candidate and takes the best
 * (lowest index among gains within `tieTolerance` of the best). Reference implementation for
 * tests, and the right choice for objectives that are not submodular.
 */
export function plainGreedy<C, S>(candidates: readonly C[], options: GreedyOptions<C, S>): GreedyResult<C, S> {
  checkBudget(options.budget);
  const minGain = options.minGain ?? DEFAULT_MIN_GAIN;
  const tieTolerance = options.tieTolerance ?? DEFAULT_TIE_TOLERANCE;
  let state = options.state;
  const picks: Array<GreedyPick<C>> = [];
  const picked = new Set<number>();
  let evaluations = 0;
  let total = 0;
  for (;;) {
    if (picks.length >= options.budget) return { picks, state, total, evaluations, stoppedBy: 'budget' };
    const gains: Array<[number, number]> = [];
    let max = -Infinity;
    candidates.forEach((c, index) => {
      if (picked.has(index)) return;
      if (options.feasible && !options.feasible(c, index, picks, state)) return;
      const g = options.gainOf(state, c, index);
      evaluations++;
      gains.push([index, g]);
      if (g > max) max = g;
    });
    // lowest index among the gains within the tie tolerance of the best
    let best = -1;
    let bestGain = -Infinity;
    for (const [index, g] of gains) {
      if (g >= max - tieTolerance) {
        best = index;
        bestGain = g;
        break;
      }
    }
    if (best < 0) return { picks, state, total, evaluations, stoppedBy: 'exhausted' };
    if (max < minGain) return { picks, state, total, evaluations, stoppedBy: 'minGain' };
    const next = options.commit(state, candidates[best], best);
    if (next !== undefined) state = next;
    picks.push({ candidate: candidates[best], index: best, gain: bestGain });
    picked.add(best);
    total += bestGain;
  }
}
