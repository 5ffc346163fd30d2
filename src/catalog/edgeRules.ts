import { graphRulesVersion } from '../graph/rulesVersion.js';
import type { CatalogDatabase } from './database.js';
import { CatalogStore, GRAPH_RULES_STATE_KEY } from './store.js';

export interface StaleEdgeRules {
  /** The rules version the stored edges come from (null: from before versioning). */
  stored: string | null;
  /** This code's version (`graphRulesVersion()`). */
  current: string;
  /** Where the stored edges come from, in words (`rules r1-...` or `rules from before versioning`). */
  origin: string;
  /** One line for a user: where the edges come from and what re-derives them. */
  message: string;
}

/**
 * Whether the stored join / union edges come from other rules than this code's: null when they
 * are current or the catalog holds no table (nothing derived yet). The next ingest of any root
 * re-derives them (src/ingest). `tableCount`: the number of stored tables when the caller has
 * just read them (the ingest), so they are not counted again.
 */
export async function staleEdgeRules(db: CatalogDatabase, tableCount?: number): Promise<StaleEdgeRules | null> {
  const stored = await new CatalogStore(db).stateValue(GRAPH_RULES_STATE_KEY);
  const current = graphRulesVersion();
  if (stored === current || (tableCount ?? (await db.prisma.lakeTable.count())) === 0) return null;
  const origin = stored ? `rules ${stored}` : 'rules from before versioning';
  return { stored, current, origin, message: `the join / union edges come from ${origin}, not this version's ${current}: the next ingest re-derives them` };
}
