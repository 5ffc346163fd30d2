/**
 * Facts about one column that join and union rules need: its type family, whether it is
 * key-like, and how specific its values are (how unlikely a chance overlap is).
 */
import type { LogicalType } from '../lake/types.js';
import { isEmptySignature } from '../sketch/minhash.js';
import type { GraphColumn, GraphOptions } from './types.js';

export type TypeFamily = 'numeric' | 'text' | 'temporal' | 'boolean';

/** Columns only ever join / align inside one family (integer ~ float, text ~ other, ...). */
export function typeFamily(t: LogicalType): TypeFamily {
  switch (t) {
    case 'integer':
    case 'float':
      return 'numeric';
    case 'date':
    case 'timestamp':
      return 'temporal';
    case 'boolean':
      return 'boolean';
    default:
      return 'text';
  }
}

export const FAMILY_INDEX: Record<TypeFamily, number> = { numeric: 0, text: 1, temporal: 2, boolean: 3 };

export function hasValueSketch(col: GraphColumn): boolean {
  return col.minhash.length > 0 && !isEmptySignature(col.minhash);
}

/** Can take part in a join at all: not boolean, not near-constant, has a value sketch. */
export function isJoinEligible(col: GraphColumn, opts: GraphOptions): boolean {
  return (
    typeFamily(col.logicalType) !== 'boolean' &&
    col.distinctEstimate >= opts.joinMinDistinct &&
    hasValueSketch(col)
  );
}

/**
 * A key: (nearly) unique values, at least `keyMinDistinct` of them, or a lookup table's small key
 * (`isSmallKey`).
 */
export function isKeyLike(col: GraphColumn, opts: GraphOptions): boolean {
  return (col.uniqueness >= opts.keyMinUniqueness && col.distinctEstimate >= opts.keyMinDistinct) || isSmallKey(col, opts);
}

/**
 * A lookup table's key of fewer than `keyMinDistinct` values (`roles.role_code` holding 'ED' and
 * 'PT'): at least 2, every one distinct. It joins only a column of the same name (joinRules.ts):
 * two values say nothing by themselves.
 */
export function isSmallKey(col: GraphColumn, opts: GraphOptions): boolean {
  return col.distinctEstimate >= 2 && col.distinctEstimate < opts.keyMinDistinct && col.uniqueness >= 1;
}

function clamp01(x: number): number {
  return x <= 0 ? 0 : x >= 1 ? 1 : x;
}

function hasFraction(col: GraphColumn): boolean {
  if (col.numericMin !== null && !Number.isInteger(col.numericMin)) return true;
  if (col.numericMax !== null && !Number.isInteger(col.numericMax)) return true;
  return col.sampleValues.some((v) => /\.\d*[1-9]/.test(v));
}

/**
 * How specific the values are, in [0,1]: 1 means a shared value is unlikely to be chance.
 *
 * - text: min(1, avgLength / 4) * min(1, distinct / 10) — short codes and small category
 *   sets (`M`/`F`, `yes`/`no`) overlap across unrelated tables — or, when larger, the
 *   cardinality term min(1, avgLength / 2) * min(1, distinct / 200): hundreds of distinct codes
 *   (country or product codes) contained in one key are not chance, however short each is.
 * - numeric: 0 for fractional values, for dense integer ranges (distinct / span >= 0.5:
 *   auto-increment ids 1..n, years, counts) and for numbers below 1000 in magnitude; otherwise
 *   min(1, (digits - 2) / 4) (4 digits 0.5, 6+ digits 1) — sparse long numbers such as zip
 *   codes or account numbers.
 * - temporal, boolean: 0 (dates and flags coincide by chance).
 */
export function valueSpecificity(col: GraphColumn): number {
  switch (typeFamily(col.logicalType)) {
    case 'text':
      return Math.max(
        clamp01(col.avgLength / 4) * clamp01(col.distinctEstimate / 10),
        clamp01(col.avgLength / 2) * clamp01(col.distinctEstimate / 200),
      );
    case 'numeric': {
      const lo = col.numericMin;
      const hi = col.numericMax;
      if (lo === null || hi === null || hasFraction(col)) return 0;
      const span = hi - lo + 1;
      const density = span > 0 ? col.distinctEstimate / span : 1;
      if (density >= 0.5) return 0;
      const magnitude = Math.max(Math.abs(lo), Math.abs(hi));
      if (magnitude < 1000) return 0;
      const digits = Math.floor(Math.log10(magnitude)) + 1;
      return clamp01((digits - 2) / 4);
    }
    default:
      return 0;
  }
}

/**
 * What a unique integer column of at least `oneToOneMinDistinct` values is indexed by for the
 * one-value-set join rule (joinRules.ts): its count and range; null for any other column.
 */
export function oneToOneKey(col: GraphColumn, opts: GraphOptions): string | null {
  if (typeFamily(col.logicalType) !== 'numeric' || col.numericMin === null || col.numericMax === null) return null;
  if (!Number.isInteger(col.numericMin) || !Number.isInteger(col.numericMax)) return null;
  if (col.uniqueness < opts.keyMinUniqueness || col.distinctEstimate < opts.oneToOneMinDistinct) return null;
  return `${col.distinctEstimate}:${col.numericMin}:${col.numericMax}`;
}
