/**
 * Maximum-weight assignment (Hungarian algorithm, O(n^2 m) potentials version) for the
 * small similarity matrices of column alignment.
 */

/**
 * Rows x cols weights (all rows the same length); returns, for each row, the assigned column
 * or -1. Maximises the total weight; every row is assigned when rows <= cols (callers drop
 * pairs they do not want, e.g. weight 0).
 */
export function maxWeightAssignment(weights: number[][]): number[] {
  const n = weights.length;
  if (n === 0) return [];
  const m = weights[0].length;
  if (m === 0) return new Array<number>(n).fill(-1);
  if (n > m) {
    // Solve the transpose so that rows <= cols.
    const t: number[][] = [];
    for (let j = 0; j < m; j++) {
      const row = new Array<number>(n);
      for (let i = 0; i < n; i++) row[i] = weights[i][j];
      t.push(row);
    }
    const colToRow = maxWeightAssignment(t);
    const out = new Array<number>(n).fill(-1);
    colToRow.forEach((i, j) => {
      if (i >= 0) out[i] = j;
    });
    return out;
  }
  // Minimise cost = -weight. 1-based arrays as in the classic formulation.
  const INF = Number.POSITIVE_INFINITY;
  const u = new Float64Array(n + 1);
  const v = new Float64Array(m + 1);
  const p = new Int32Array(m + 1); // p[j]: row matched to column j (0 = none)
  const way = new Int32Array(m + 1);
  const minv = new Float64Array(m + 1);
  const used = new Uint8Array(m + 1);
  for (let i = 1; i <= n; i++) {
    p[0] = i;
    let j0 = 0;
    minv.fill(INF);
    used.fill(0);
    do {
      used[j0] = 1;
      const i0 = p[j0];
      let delta = INF;
      let j1 = 0;
      for (let j = 1; j <= m; j++) {
        if (used[j]) continue;
        const cur = -weights[i0 - 1][j - 1] - u[i0] - v[j];
        if (cur < minv[j]) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j] < delta) {
          delta = minv[j];
          j1 = j;
        }
      }
      for (let j = 0; j <= m; j++) {
        if (used[j]) {
          u[p[j]] += delta;
          v[j] -= delta;
        } else {
          minv[j] -= delta;
        }
      }
      j0 = j1;
    } while (p[j0] !== 0);
    do {
      const j1 = way[j0];
      p[j0] = p[j1];
      j0 = j1;
    } while (j0 !== 0);
  }
  const out = new Array<number>(n).fill(-1);
  for (let j = 1; j <= m; j++) if (p[j] > 0) out[p[j] - 1] = j - 1;
  return out;
}
