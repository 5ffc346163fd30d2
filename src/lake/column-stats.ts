/**
 * Per-column statistics over the profiled rows, shared by the DuckDB (CSV/Parquet) and
 * SQLite readers. Values arrive already reduced to JS primitives (see `Cell`).
 *
 * Per-value work is kept small: one `cellKey` plus a Map lookup. MinHash (128
 * permutations) runs once per *distinct* value; exact distinct counting stops at
 * DISTINCT_CAP keys, after which a HyperLogLog takes over.
 */
import { HyperLogLog } from '../sketch/hll.js';
import { cellKey } from '../sketch/minhash.js';
import { valueHash } from '../text/index.js';
import { createMinHash } from './fast-minhash.js';
import type { ColumnProfile, LogicalType } from './types.js';

/** A cell as the readers hand it over. Buffers are SQLite/DuckDB blobs. */
export type Cell = string | number | bigint | boolean | Buffer | null | undefined;

export const DISTINCT_CAP = 100_000;
export const SAMPLE_VALUES = 10;
export const TOP_TEXT_VALUES = 50;
export const MAX_VALUE_CHARS = 200;
/** Most values of one column whose hashes a profile keeps (`ColumnProfile.valueHashes`): 8 bytes each. */
export const VALUE_HASH_CAP = 50_000;

/** Text form of a non-null cell, as shown in sample/top values and measured by avgLength. */
export function cellText(v: Exclude<Cell, null | undefined>): string {
  if (typeof v === 'string') return v;
  if (Buffer.isBuffer(v)) return `\\x${v.subarray(0, 100).toString('hex')}${v.length > 100 ? '…' : ''}`;
  return String(v);
}

function truncate(s: string): string {
  return s.length > MAX_VALUE_CHARS ? s.slice(0, MAX_VALUE_CHARS) : s;
}

interface KeyStat {
  count: number;
  /** First-seen original text for this normalised key. */
  raw: string;
}

/** What kinds of non-null values a column held; SQLite needs it to infer a type. */
export interface ValueKinds {
  bigint: number;
  number: number;
  string: number;
  boolean: number;
  blob: number;
  /** Integers (bigint or integral number) that are 0 or 1. */
  zeroOne: number;
  /** Strings shaped like ISO dates / timestamps. */
  isoDate: number;
  isoTimestamp: number;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?$/;

export class ColumnAccumulator {
  rows = 0;
  nulls = 0;
  nonNull = 0;
  private totalLength = 0;
  private min = Infinity;
  private max = -Infinity;
  private readonly keys = new Map<string, KeyStat>();
  private overflow: HyperLogLog | null = null;
  readonly minhash = createMinHash();
  readonly kinds: ValueKinds = { bigint: 0, number: 0, string: 0, boolean: 0, blob: 0, zeroOne: 0, isoDate: 0, isoTimestamp: 0 };

  constructor(
    readonly name: string,
    readonly ordinal: number,
    /** Track string shapes (ISO dates) for type inference; DuckDB sources already know their types. */
    private readonly inferTypes = false,
  ) {}

  add(v: Cell): void {
    this.rows++;
    if (v === null || v === undefined) {
      this.nulls++;
      return;
    }
    const text = cellText(v);
    const key = Buffer.isBuffer(v) ? text : cellKey(v);
    if (key === null) {
      // Empty / blank strings count as missing.
      this.nulls++;
      return;
    }
    this.nonNull++;
    this.totalLength += text.length;
    const k = this.kinds;
    switch (typeof v) {
      case 'bigint': {
        k.bigint++;
        if (v === 0n || v === 1n) k.zeroOne++;
        const n = Number(v);
        if (n < this.min) this.min = n;
        if (n > this.max) this.max = n;
        break;
      }
      case 'number':
        k.number++;
        if (v === 0 || v === 1) k.zeroOne++;
        if (v < this.min) this.min = v;
        if (v > this.max) this.max = v;
        break;
      case 'string':
        k.string++;
        if (this.inferTypes && text.length <= 35 && text.charCodeAt(0) >= 48 && text.charCodeAt(0) <= 57) {
          if (ISO_DATE.test(text)) k.isoDate++;
          else if (ISO_TIMESTAMP.test(text)) k.isoTimestamp++;
        }
        break;
      case 'boolean':
        k.boolean++;
        break;
      default:
        k.blob++;
    }
    const seen = this.keys.get(key);
    if (seen) {
      seen.count++;
      return;
    }
    if (this.overflow) {
      // Past the cap the key set is frozen: sketches absorb the value (both are idempotent).
      this.overflow.add(key);
      this.minhash.add(key);
      return;
    }
    this.keys.set(key, { count: 1, raw: text });
    this.minhash.add(key);
    if (this.keys.size >= DISTINCT_CAP) {
      this.overflow = new HyperLogLog();
      for (const existing of this.keys.keys()) this.overflow.add(existing);
    }
  }

  /** Distinct non-null values seen so far: exact under the cap, HyperLogLog beyond it. */
  distinctSeen(): number {
    if (!this.overflow) return this.keys.size;
    return Math.min(this.nonNull, Math.max(this.keys.size, Math.round(this.overflow.count())));
  }

  /**
   * A HyperLogLog holding every key seen so far, for callers that keep counting distinct
   * values past the profiled rows (SQLite streams the rest of the table through it).
   */
  sketch(): HyperLogLog {
    if (this.overflow) return this.overflow;
    const h = new HyperLogLog();
    for (const key of this.keys.keys()) h.add(key);
    return h;
  }

  /**
   * Build the profile. `distinctEstimate` defaults to the distinct count over the profiled
   * rows; pass a whole-column estimate when the table has more rows than were profiled.
   */
  finish(logicalType: LogicalType, distinctEstimate?: number): ColumnProfile {
    const distinct = this.distinctSeen();
    const numeric = logicalType === 'integer' || logicalType === 'float';
    const sampleValues: string[] = [];
    for (const stat of this.keys.values()) {
      if (sampleValues.length >= SAMPLE_VALUES) break;
      sampleValues.push(truncate(stat.raw));
    }
    let topValues: string[] = [];
    let valueHashes: number[] | undefined;
    if (logicalType === 'text' && this.keys.size > 0) {
      // Stable sort: ties keep first-seen order.
      const byCount = [...this.keys.values()].sort((a, b) => b.count - a.count);
      topValues = byCount.slice(0, TOP_TEXT_VALUES).map((s) => truncate(s.raw));
      if (byCount.length > TOP_TEXT_VALUES) {
        const hashes = new Set<number>();
        for (const s of byCount.slice(0, VALUE_HASH_CAP)) {
          const h = valueHash(s.raw);
          if (h !== undefined) hashes.add(h);
        }
        valueHashes = [...hashes].sort((a, b) => a - b);
      }
    }
    return {
      name: this.name,
      ordinal: this.ordinal,
      logicalType,
      nullShare: this.rows === 0 ? 0 : this.nulls / this.rows,
      distinctEstimate: Math.max(distinct, Math.round(distinctEstimate ?? distinct)),
      uniqueness: this.nonNull === 0 ? 0 : Math.min(1, distinct / this.nonNull),
      sampleValues,
      minhash: this.minhash.toArray(),
      numericMin: numeric && this.nonNull > 0 && Number.isFinite(this.min) ? this.min : null,
      numericMax: numeric && this.nonNull > 0 && Number.isFinite(this.max) ? this.max : null,
      avgLength: this.nonNull === 0 ? 0 : this.totalLength / this.nonNull,
      topValues,
      ...(valueHashes && valueHashes.length > 0 ? { valueHashes } : {}),
    };
  }
}
