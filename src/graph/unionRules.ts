/**
 * Whether two tables are unionable (their rows could be stacked): align columns with the
 * Hungarian algorithm on a column-similarity matrix, then score the alignment by how much of
 * both tables it covers. Pure functions of the two prepared tables.
 */
import { jaccard } from '../sketch/minhash.js';
import { memoInto } from '../util/boundedMemo.js';
import { maxWeightAssignment } from './hungarian.js';
import { embeddingEvidence, type PreparedColumn, type PreparedTable } from './prepared.js';
import { editSimilarity, weightedTokenJaccard } from './tokens.js';
import type { GraphOptions, UnionAlignment, UnionEdgeCandidate } from './types.js';

/** Weights of header vs value similarity in a column pair; they sum to 1. */
export const UNION_COLUMN_WEIGHTS = Object.freeze({ header: 0.6, value: 0.4 });
/** Value-profile shape alone is weaker evidence than shared values. */
export const SHAPE_WEIGHT = 0.8;
/** Shared specific values without a similar name are weaker evidence than both together. */
export const VALUE_ONLY_WEIGHT = 0.8;
/** Edit similarity above which two names count as the same word (typos, abbreviations). */
const EDIT_EVIDENCE_MIN = 0.8;

export interface ColumnUnionMatch {
  /** Column-pair similarity in [0,1]. */
  score: number;
  /** Header similarity in [0,1]. */
  header: number;
  /** True when the match rests on more than generic names (`id`, `name`, ...). */
  specificEvidence: boolean;
}

const NO_MATCH: ColumnUnionMatch = Object.freeze({ score: 0, header: 0, specificEvidence: false });

interface NameSimilarity {
  header: number;
  sharedCoreToken: boolean;
  edit: number;
}

/** Name-only similarities repeat across table pairs (same names everywhere): memoise them. */
const nameCache = new Map<number, NameSimilarity>();
const NAME_CACHE_MAX = 200_000;

function nameSimilarity(a: PreparedColumn, b: PreparedColumn): NameSimilarity {
  // Pair key from the two interned name numbers (exact while fewer than 2^26 names).
  const key = a.nameId < b.nameId ? a.nameId * 67108864 + b.nameId : b.nameId * 67108864 + a.nameId;
  return memoInto(nameCache, key, NAME_CACHE_MAX, () => {
    const tokens = weightedTokenJaccard(a.tokens, b.tokens);
    const edit = editSimilarity(a.compactName, b.compactName);
    // Edit similarity of short unrelated names is often 0.3-0.5 (`age` ~ `name`): only the part
    // above 0.5 counts, rescaled to [0,1].
    const editTerm = Math.max(0, 2 * edit - 1);
    return { header: Math.max(tokens, editTerm), sharedCoreToken: a.coreTokens.some((t) => b.tokens.has(t)), edit };
  });
}

/**
 * Header similarity = max(weighted token Jaccard, 2 * edit similarity - 1 of the compact
 * names, header-embedding evidence). Specific evidence: a shared non-generic token, an edit
 * similarity >= 0.8, or embedding evidence >= 0.5, unless both names are generic-only.
 */
export function unionHeaderSimilarity(
  a: PreparedColumn,
  b: PreparedColumn,
  opts: GraphOptions,
): { header: number; specificEvidence: boolean } {
  const names = nameSimilarity(a, b);
  const emb = embeddingEvidence(a, b, opts);
  const header = Math.max(names.header, emb);
  const bothGeneric = a.genericOnly && b.genericOnly;
  const specificEvidence = !bothGeneric && (names.sharedCoreToken || names.edit >= EDIT_EVIDENCE_MIN || emb >= 0.5);
  return { header, specificEvidence };
}

/** Overlap of the two numeric ranges over their union, in [0,1]; 0 when either is unknown. */
export function numericRangeOverlap(a: PreparedColumn, b: PreparedColumn): number {
  const { numericMin: aLo, numericMax: aHi } = a.col;
  const { numericMin: bLo, numericMax: bHi } = b.col;
  if (aLo === null || aHi === null || bLo === null || bHi === null) return 0;
  const union = Math.max(aHi, bHi) - Math.min(aLo, bLo);
  if (union <= 0) return aLo === bLo ? 1 : 0;
  return Math.max(0, Math.min(aHi, bHi) - Math.max(aLo, bLo)) / union;
}

/**
 * Similarity of the value profiles, ignoring the values themselves: 1 - mean of
 * |Δ uniqueness|, |Δ null share| and |Δ avg length| / larger avg length. Row shards of one
 * table agree here even when their key values are disjoint.
 */
export function profileShapeSimilarity(a: PreparedColumn, b: PreparedColumn): number {
  const du = Math.abs(a.col.uniqueness - b.col.uniqueness);
  const dn = Math.abs(a.col.nullShare - b.col.nullShare);
  const dl = Math.abs(a.col.avgLength - b.col.avgLength) / Math.max(a.col.avgLength, b.col.avgLength, 1);
  return clamp01(1 - (du + dn + Math.min(1, dl)) / 3);
}

function bothSpecific(a: PreparedColumn, b: PreparedColumn, opts: GraphOptions): boolean {
  return (
    a.hasSketch &&
    b.hasSketch &&
    a.col.minhash.length === b.col.minhash.length &&
    Math.min(a.specificity, b.specificity) >= opts.unionAlignMin
  );
}

/** Upper bound of columnUnionSimilarity from the header alone (value terms taken as 1). */
function similarityUpperBound(a: PreparedColumn, b: PreparedColumn, header: number, opts: GraphOptions): number {
  const blended = UNION_COLUMN_WEIGHTS.header * header + UNION_COLUMN_WEIGHTS.value;
  return bothSpecific(a, b, opts) ? Math.max(blended, VALUE_ONLY_WEIGHT) : blended;
}

function completeSimilarity(
  a: PreparedColumn,
  b: PreparedColumn,
  header: number,
  specificEvidence: boolean,
  opts: GraphOptions,
): ColumnUnionMatch {
  const sketches = a.hasSketch && b.hasSketch && a.col.minhash.length === b.col.minhash.length;
  const j = sketches ? jaccard(a.col.minhash, b.col.minhash) : 0;
  const range = a.family === 'numeric' ? numericRangeOverlap(a, b) : 0;
  const value = Math.max(j, range, SHAPE_WEIGHT * profileShapeSimilarity(a, b));
  const w = UNION_COLUMN_WEIGHTS;
  const blended = w.header * header + w.value * value;
  const valueOnly = VALUE_ONLY_WEIGHT * j * Math.min(a.specificity, b.specificity);
  return {
    score: clamp01(Math.max(blended, valueOnly)),
    header,
    specificEvidence: specificEvidence || valueOnly >= opts.unionAlignMin,
  };
}

/**
 * Column-pair similarity for union alignment; 0 across type families.
 *   value   = max(MinHash Jaccard, numeric range overlap, 0.8 * profile shape)
 *   blended = 0.6 * header + 0.4 * value
 *   score   = max(blended, 0.8 * Jaccard * min(specificity a, specificity b))
 * The second term lets renamed columns with the same specific values align.
 */
export function columnUnionSimilarity(a: PreparedColumn, b: PreparedColumn, opts: GraphOptions): ColumnUnionMatch {
  if (a.family !== b.family) return NO_MATCH;
  const { header, specificEvidence } = unionHeaderSimilarity(a, b, opts);
  if (similarityUpperBound(a, b, header, opts) < opts.unionAlignMin) return { score: 0, header, specificEvidence: false };
  return completeSimilarity(a, b, header, specificEvidence, opts);
}

/**
 * Union edge between tables a and b (callers pass a.id < b.id), or null below unionMinScore.
 *   score = 2 * Σ aligned similarity / (|columns a| + |columns b|)
 * i.e. the mean aligned similarity times the Dice coverage 2k / (|a| + |b|). When no aligned
 * pair has specific evidence (only `id`, `name`, ... line up) the score is multiplied by
 * genericOnlyUnionFactor f, or, when the two headers are identical, by
 * f + (1 - f) * table-name token similarity, digits and shard words (part, shard, copy, ...)
 * ignored (shards `t_part1`, `t_part2` keep their score).
 */
export function scoreUnion(a: PreparedTable, b: PreparedTable, opts: GraphOptions): UnionEdgeCandidate | null {
  const na = a.columns.length;
  const nb = b.columns.length;
  if (na === 0 || nb === 0) return null;
  // Even a perfect alignment of the narrower table cannot beat its Dice coverage.
  if ((2 * Math.min(na, nb)) / (na + nb) < opts.unionMinScore) return null;
  // Pass 1: header similarities and an upper bound per column pair (value terms taken as 1).
  // Any assignment's total is at most the sum of row maxima (and of column maxima), so most
  // unrelated candidate pairs are dismissed before any value comparison.
  const headers: Array<Array<{ header: number; specificEvidence: boolean } | null>> = [];
  let rowBound = 0;
  const colMax = new Array<number>(nb).fill(0);
  for (let i = 0; i < na; i++) {
    const ca = a.columns[i];
    const row: Array<{ header: number; specificEvidence: boolean } | null> = [];
    let rowMax = 0;
    for (let j = 0; j < nb; j++) {
      const cb = b.columns[j];
      if (ca.family !== cb.family) {
        row.push(null);
        continue;
      }
      const h = unionHeaderSimilarity(ca, cb, opts);
      const ub = similarityUpperBound(ca, cb, h.header, opts);
      if (ub < opts.unionAlignMin) {
        row.push(null);
        continue;
      }
      row.push(h);
      if (ub > rowMax) rowMax = ub;
      if (ub > colMax[j]) colMax[j] = ub;
    }
    headers.push(row);
    rowBound += rowMax;
  }
  const colBound = colMax.reduce((x, y) => x + y, 0);
  if ((2 * Math.min(rowBound, colBound)) / (na + nb) < opts.unionMinScore) return null;

  // Pass 2: full similarities where the bound allows an alignment.
  const matches: ColumnUnionMatch[][] = [];
  const weights: number[][] = [];
  for (let i = 0; i < na; i++) {
    const mRow: ColumnUnionMatch[] = [];
    const wRow: number[] = [];
    for (let j = 0; j < nb; j++) {
      const h = headers[i][j];
      const m = h ? completeSimilarity(a.columns[i], b.columns[j], h.header, h.specificEvidence, opts) : NO_MATCH;
      mRow.push(m);
      wRow.push(m.score >= opts.unionAlignMin ? m.score : 0);
    }
    matches.push(mRow);
    weights.push(wRow);
  }
  const assignment = maxWeightAssignment(weights);
  const alignment: UnionAlignment[] = [];
  let sum = 0;
  let specific = false;
  let allHeadersExact = true;
  assignment.forEach((j, i) => {
    if (j < 0 || weights[i][j] <= 0) return;
    const m = matches[i][j];
    alignment.push({ columnAId: a.columns[i].col.id, columnBId: b.columns[j].col.id, score: m.score });
    sum += m.score;
    specific ||= m.specificEvidence;
    if (m.header < 1) allHeadersExact = false;
  });
  if (alignment.length === 0) return null;
  let score = (2 * sum) / (na + nb);
  if (!specific) {
    const f = opts.genericOnlyUnionFactor;
    const identical = allHeadersExact && alignment.length === na && na === nb && a.headerShape === b.headerShape;
    score *= identical ? f + (1 - f) * weightedTokenJaccard(a.stemTokens, b.stemTokens) : f;
  }
  score = clamp01(score);
  if (score < opts.unionMinScore) return null;
  return { tableAId: a.table.id, tableBId: b.table.id, score, alignment };
}

function clamp01(x: number): number {
  return x <= 0 ? 0 : x >= 1 ? 1 : x;
}
