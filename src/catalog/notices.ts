import type { CatalogDatabase } from './database.js';
import { staleEdgeRules } from './edgeRules.js';

/**
 * What the next ingest would mend in a catalog written by older code, one line each, for
 * `graft doctor` and `graft serve` to print: join / union edges derived by other rules, and CSV
 * tables stored before their read options were (each fused SQL and preview then re-reads the
 * start of the file to guess its encoding, and misses what only the whole file shows: the API
 * load bench answered about a fifth fewer questions a second on such a catalog).
 */
export async function catalogNotices(db: CatalogDatabase): Promise<string[]> {
  const out: string[] = [];
  const stale = await staleEdgeRules(db);
  if (stale) out.push(stale.message);
  const [{ n }] = await db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM lake_table WHERE format = 'csv' AND csv_options IS NULL");
  if (n > 0) {
    out.push(
      `${n} CSV table${n === 1 ? ' was' : 's were'} stored without ${n === 1 ? 'its' : 'their'} read options (older catalog): every answer naming ${n === 1 ? 'it' : 'them'} sniffs the file again; the next ingest of ${n === 1 ? 'its' : 'their'} folder stores them`,
    );
  }
  return out;
}
