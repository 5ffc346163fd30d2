/**
 * Where an answer lost its missing gold tables: whether the search offered them as alternates at
 * all, and why an offer was not taken (the benchmark's error analysis by stage).
 */
import type { TracedOffer } from './methods.js';

/**
 * A gold lake table an answer lacks, by how far the search got with it: never offered (neither in
 * the core nor among the alternates' offers), offered with a confidence under the floor, or
 * offered above it when the more likely offers had taken the budget.
 */
export interface MissedGold {
  table: string;
  reach: MissedReach;
  /** The stage that offered it, and its confidence (absent: not offered). */
  stage?: string;
  confidence?: number;
}

export type MissedReach = 'not offered' | 'under the floor' | 'no room';
export const MISSED_REACHES: readonly MissedReach[] = ['not offered', 'under the floor', 'no room'];

/** The gold tables an answer lacks, each with the offer that held it, if any (`MissedGold`); tables are lake stems. */
export function missedGold(gold: readonly string[], retrieved: readonly string[], offers: readonly TracedOffer[], floor: number): MissedGold[] {
  const got = new Set(retrieved);
  return gold
    .filter((g) => !got.has(g))
    .map((table) => {
      const offer = offers.find((o) => o.tables.includes(table));
      if (!offer) return { table, reach: 'not offered' as const };
      return { table, reach: offer.confidence < floor ? ('under the floor' as const) : ('no room' as const), stage: offer.stage, confidence: offer.confidence };
    });
}
