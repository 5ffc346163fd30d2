import type { CatalogDatabase } from './database.js';
import { PROFILE_VERSION } from '../lake/profileVersion.js';
import { staleEdgeRules } from './edgeRules.js';

/**
 * What the next ingest would mend in a catalog written by older code, one line each, for
 * `graft doctor` and `graft serve` to print: join / union edges derived by other rules, and tables
 * an older profiler profiled (`PROFILE_VERSION`; version 0 stored CSV tables without their read
 * options, so each fused SQL and preview re-read the start of the file to guess its encoding:
 * the API load bench answered about a fifth fewer questions a second on such a catalog).
 */
export async function catalogNotices(db: CatalogDatabase): Promise<string[]> {
  const out: string[] = [];
  const stale = await staleEdgeRules(db);
  if (stale) out.push(stale.message);
  const n = await countOutdatedProfiles(db);
  if (n > 0) {
    out.push(
      `${n} table${n === 1 ? ' was' : 's were'} profiled by an older version of graft (profile version below ${PROFILE_VERSION}): the next ingest of ${n === 1 ? 'its' : 'their'} folder profiles ${n === 1 ? 'it' : 'them'} again`,
    );
  }
  return out;
}

/** Tables an older profiler profiled (`PROFILE_VERSION`): the next ingest of their folder profiles them again. */
export async function countOutdatedProfiles(db: CatalogDatabase): Promise<number> {
  const [{ n }] = await db.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM lake_table WHERE profile_version < $1', [PROFILE_VERSION]);
  return n;
}
