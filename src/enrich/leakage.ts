import { withDuckDB } from '../lake/index.js';
import { duckdbMessage } from '../lake/duckdb.js';
import { sqlIdent } from '../lake/index.js';
import { FusionExecutionError } from '../fusion/index.js';
import { ErrorCode } from '../util/errors.js';
import type { TargetLeak } from './types.js';

/** Share of the labelled rows on which a column must agree with the target to count as a copy of it. */
export const LEAK_AGREEMENT = 0.99;

export interface LeakCandidate {
  /** Output column name in the fused SQL. */
  output: string;
  table: string;
  /** Key columns are one-to-one with any unique target by construction: only equal values count for them. */
  key: boolean;
}

/**
 * Columns an added table brings that reproduce the target for the same rows, read off the fused
 * result itself (one aggregate query): equal text on >= 99% of the rows where both are set,
 * |Pearson r| >= 0.99 for two numeric columns, or a one-to-one relabelling (each value of the
 * column goes with one target value and back) of a target with fewer distinct values than rows.
 */
export async function findLeaks(fusedSql: string, target: string, numericTarget: boolean, columns: LeakCandidate[]): Promise<TargetLeak[]> {
  if (columns.length === 0) return [];
  const t = sqlIdent(target);
  const parts: string[] = [`count(${t}) AS n_t`, `count(DISTINCT ${t}) AS d_t`];
  columns.forEach((c, i) => {
    const x = sqlIdent(c.output);
    const both = `${t} IS NOT NULL AND ${x} IS NOT NULL`;
    parts.push(`count(*) FILTER (WHERE ${both}) AS n_${i}`);
    parts.push(`count(*) FILTER (WHERE ${both} AND CAST(${t} AS VARCHAR) = CAST(${x} AS VARCHAR)) AS eq_${i}`);
    parts.push(`count(DISTINCT ${x}) FILTER (WHERE ${both}) AS d_${i}`);
    parts.push(`count(DISTINCT (${t}, ${x})) FILTER (WHERE ${both}) AS p_${i}`);
    parts.push(numericTarget ? `corr(TRY_CAST(${t} AS DOUBLE), TRY_CAST(${x} AS DOUBLE)) AS r_${i}` : `NULL AS r_${i}`);
  });
  const sql = `SELECT ${parts.join(',\n  ')}\nFROM (\n${fusedSql}\n) AS fused`;
  const row = await withDuckDB(async (con) => {
    try {
      return (await con.runAndReadAll(sql)).getRowObjects()[0] as Record<string, unknown>;
    } catch (err) {
      throw new FusionExecutionError(ErrorCode.LAKE_READ, `leakage check failed: ${duckdbMessage(err)}`, { sql: fusedSql });
    }
  });
  const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
  const distinctTarget = num(row.d_t);
  const leaks: TargetLeak[] = [];
  columns.forEach((c, i) => {
    const n = num(row[`n_${i}`]);
    if (n < 3) return;
    let evidence: TargetLeak['evidence'] | null = null;
    if (num(row[`eq_${i}`]) >= LEAK_AGREEMENT * n) evidence = 'equal';
    else if (!c.key && row[`r_${i}`] !== null && Math.abs(num(row[`r_${i}`])) >= LEAK_AGREEMENT) evidence = 'correlation';
    else if (!c.key && distinctTarget > 1 && distinctTarget < n / 2 && num(row[`p_${i}`]) === distinctTarget && num(row[`d_${i}`]) === distinctTarget) evidence = 'relabelling';
    if (evidence) leaks.push({ table: c.table, column: c.output, evidence, kept: false });
  });
  return leaks;
}
