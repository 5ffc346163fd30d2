/**
 * Exact solver for jar's selection model (max Σ relᵢxᵢ + λ Σ wᵢⱼ xᵢxⱼ, |S| <= L, all terms >= 0):
 * depth-first branch and bound over the candidates in rank order, include before exclude.
 *
 * Why not the MIP: HiGHS (wasm, single thread) needs 0.3–2 s on a third of the Spider train
 * questions for 30 binaries and ~150 pair variables, because the linearised LP bound is weak;
 * jar was half of `npm run bench`. Here the bound is combinatorial and tight enough that the
 * same models close in well under a millisecond to a few ms.
 *
 * - Every relevance is > 0 (jar floors it at 1e-4) and every pair weight >= 0, so adding a
 *   table never lowers the objective: an optimum has exactly min(L, n) tables and only sets of
 *   that size are searched.
 * - Bound at a node (chosen set F, k tables still to pick from the free candidates R): each free
 *   i is worth at most gᵢ = relᵢ + λ Σ_{j∈F} wᵢⱼ + ½ λ (sum of its k − 1 largest wᵢⱼ, j ∈ R); a
 *   pair inside R is counted half at each end, so f(F) + (sum of the k largest gᵢ) bounds every
 *   completion.
 * - Ties: a set replaces the incumbent only when strictly better (relative 1e-9), and the search
 *   meets sets in lexicographic order of their rank positions, so among equal optima the one with
 *   the better-ranked candidates wins (the MIP picked an arbitrary one).
 * - `maxNodes` caps the search (deterministic, unlike a time limit); past it the best set found
 *   so far is returned with `exhausted: true`. No model of the benchmarks reaches the default.
 */
import type { SelectionModel } from './methods.js';

export interface SelectionResult {
  /** Candidate indices chosen, best relevance first (ties: lower index). */
  chosen: number[];
  /** Objective value of `chosen`. */
  value: number;
  /** Branch-and-bound nodes visited. */
  nodes: number;
  /** True when `maxNodes` stopped the search before it proved `chosen` optimal. */
  exhausted: boolean;
}

/** Default node cap of `solveSelectionExact`. */
export const SELECTION_MAX_NODES = 2_000_000;

/** Objective of a candidate set under the model (each pair counted once). */
export function selectionValue(m: SelectionModel, chosen: readonly number[]): number {
  const inSet = new Set(chosen);
  let v = 0;
  for (const i of inSet) v += m.rel[i];
  for (const p of m.pairs) if (inSet.has(p.i) && inSet.has(p.j)) v += m.lambda * p.w;
  return v;
}

export function solveSelectionExact(m: SelectionModel, maxNodes = SELECTION_MAX_NODES): SelectionResult {
  const n = m.rel.length;
  const L = Math.min(Math.max(0, Math.floor(m.budget)), n);
  const byRel = (a: number, b: number) => m.rel[b] - m.rel[a] || a - b;
  if (L === n) {
    const all = Array.from({ length: n }, (_, i) => i);
    return { chosen: all.sort(byRel), value: selectionValue(m, all), nodes: 0, exhausted: false };
  }
  // Scaled pair weights, dense (n is a few dozen), and per candidate its neighbours by weight.
  const w = new Float64Array(n * n);
  for (const p of m.pairs) {
    const x = m.lambda * p.w;
    w[p.i * n + p.j] += x;
    w[p.j * n + p.i] += x;
  }
  const nbrs: Int32Array[] = [];
  for (let i = 0; i < n; i++) {
    const js: number[] = [];
    for (let j = 0; j < n; j++) if (j !== i && w[i * n + j] > 0) js.push(j);
    js.sort((a, b) => w[i * n + b] - w[i * n + a] || a - b);
    nbrs.push(Int32Array.from(js));
  }
  const rel = Float64Array.from(m.rel);
  // state[i]: 0 free, 1 chosen, 2 excluded. fromChosen[i] = λ Σ_{j chosen} wᵢⱼ.
  const state = new Uint8Array(n);
  const fromChosen = new Float64Array(n);
  const gains = new Float64Array(n);
  const chosen: number[] = [];
  // The first leaf the search meets (the top L by rank) is the starting incumbent, so a capped
  // search still returns a full set; equal sets met later never replace it.
  let best: number[] = Array.from({ length: L }, (_, i) => i);
  let bestValue = selectionValue(m, best);
  let nodes = 0;
  let exhausted = false;

  const better = (v: number) => v > bestValue + 1e-9 * Math.max(1, Math.abs(bestValue));

  // Upper bound on what the free candidates from `pos` on can add when k more are picked.
  const bound = (pos: number, k: number): number => {
    let count = 0;
    for (let i = pos; i < n; i++) {
      if (state[i] !== 0) continue;
      let half = 0;
      let taken = 0;
      const ns = nbrs[i];
      for (let t = 0; t < ns.length && taken < k - 1; t++) {
        const j = ns[t];
        if (j < pos || state[j] !== 0) continue;
        half += w[i * n + j];
        taken++;
      }
      gains[count++] = rel[i] + fromChosen[i] + 0.5 * half;
    }
    // Sum of the k largest gains (partial selection; count is small).
    const g = gains.subarray(0, count);
    g.sort();
    let s = 0;
    for (let t = count - 1; t >= count - k; t--) s += g[t];
    return s;
  };

  const dfs = (pos: number, value: number): void => {
    if (exhausted) return;
    const k = L - chosen.length;
    if (k === 0) {
      if (better(value)) {
        bestValue = value;
        best = [...chosen];
      }
      return;
    }
    if (++nodes > maxNodes) {
      exhausted = true;
      return;
    }
    if (n - pos < k) return;
    if (!better(value + bound(pos, k))) return;
    // Include candidate `pos`.
    const gain = rel[pos] + fromChosen[pos];
    state[pos] = 1;
    chosen.push(pos);
    const ns = nbrs[pos];
    for (let t = 0; t < ns.length; t++) fromChosen[ns[t]] += w[pos * n + ns[t]];
    dfs(pos + 1, value + gain);
    for (let t = 0; t < ns.length; t++) fromChosen[ns[t]] -= w[pos * n + ns[t]];
    chosen.pop();
    // Exclude it (only while enough candidates remain for a full set).
    if (n - pos - 1 >= k) {
      state[pos] = 2;
      dfs(pos + 1, value);
    }
    state[pos] = 0;
  };
  dfs(0, 0);
  return { chosen: best.sort(byRel), value: bestValue, nodes, exhausted };
}
