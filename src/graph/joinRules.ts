/**
 * Whether two columns join, in which direction, and how strongly. Pure functions of the two
 * prepared columns, so the verdict never depends on which table was ingested first.
 */
import { containment, jaccard } from '../sketch/minhash.js';
import { isSmallKey } from './columnTraits.js';
import { embeddingEvidence, type PreparedColumn } from './prepared.js';
import { GENERIC_TOKEN_WEIGHT, isGenericToken, tokenWeight } from './tokens.js';
import type { GraphOptions, JoinEdgeCandidate } from './types.js';

/** Weights of the join score; they sum to 1 so the score stays in [0,1]. */
export const JOIN_SCORE_WEIGHTS = Object.freeze({
  containment: 0.35,
  keyCoverage: 0.1,
  keyUniqueness: 0.05,
  name: 0.3,
  specificity: 0.2,
});

/** Containment both ways (MinHash estimates) from which two count-and-range twins hold one value set. */
const ONE_TO_ONE_CONTAINMENT = 0.9;

/**
 * Token name evidence that foreign column `f` refers to key column `k`:
 * matched = tokens of f's name found in k's name or in k's TABLE name;
 * 0 unless a non-generic token matched (sharing only `id` is no evidence);
 * otherwise w(matched) / w(tokens(f) ∪ tokens(k)), where generic tokens and f's role words
 * (`roleTokens`: `home` of `home_team_id`, the `2` of `Club_ID_2`) weigh 0.5: like `id`, they
 * say which row or what kind of reference, not which table.
 * `player_id` -> player.`id`: 1; `CountryCode` -> country.`Code`: 1;
 * `home_team_id` -> team.`id`: 0.75; `winner_id` -> player.`id`: 0; a token closing a compound
 * word of the key's table name counts as found there (`hero_id` -> superhero.`id`: 1). Two names
 * are the same (1) when their letters are (`stuid` ~ `StuID`).
 */
export function joinTokenEvidence(f: PreparedColumn, k: PreparedColumn): number {
  // The key's own name, split another way (`stuid` ~ `StuID`): the letters are the same.
  if (!k.genericOnly && f.compactName === k.compactName) return 1;
  const refersToKey = (t: string) => k.tokens.has(t) || k.table.nameTokens.has(t) || k.table.compoundTails.has(t);
  let matched = 0;
  let core = false;
  const unexplained: string[] = [];
  for (const t of f.tokens) {
    if (refersToKey(t)) {
      matched += tokenWeight(t);
      if (!isGenericToken(t)) core = true;
    } else unexplained.push(t);
  }
  if (!core) return 0;
  // Role words only matter (and are only worked out) for a name that matched at all. Weights are
  // 1 and 0.5, so the sums are exact whatever the order.
  let union = matched;
  if (unexplained.length > 0) {
    const roles = roleTokens(f.tokenKey.split(' '), refersToKey);
    for (const t of unexplained) union += roles.has(t) ? GENERIC_TOKEN_WEIGHT : tokenWeight(t);
  }
  // A key token that abbreviates a matched word (`ContId` of continents, for `Continent`) is
  // that word again, not an unexplained one.
  for (const t of k.tokens) if (!f.tokens.has(t) && !abbreviates(t, f.tokens)) union += tokenWeight(t);
  return Math.min(1, matched / union);
}

/**
 * The role words of a reference's name (`tokens`, in order): numbers, and, when the name ends
 * with words found in the key's name or its table's (trailing numbers aside), one of them not
 * generic, every word before those: `reported_by_staff_id` -> staff.`staff_id` (reported, by),
 * `dst_apid` -> airports.`apid` (dst), `hair_colour_id` -> colour.`id` (hair). Schemas name a
 * second reference to one table this way; the words say which row, not which table.
 */
function roleTokens(tokens: readonly string[], refersToKey: (t: string) => boolean): Set<string> {
  const isNumber = (t: string) => /^\p{N}+$/u.test(t);
  const roles = new Set(tokens.filter(isNumber));
  let end = tokens.length;
  while (end > 0 && isNumber(tokens[end - 1])) end--;
  let start = end;
  while (start > 0 && refersToKey(tokens[start - 1])) start--;
  if (tokens.slice(start, end).some((t) => !isGenericToken(t))) for (const t of tokens.slice(0, start)) roles.add(t);
  return roles;
}

/** `short` (3+ letters) is the beginning of a longer word in `words`. */
function abbreviates(short: string, words: ReadonlySet<string>): boolean {
  if (short.length < 3 || /\d/.test(short)) return false;
  for (const w of words) if (w.length > short.length && w.startsWith(short)) return true;
  return false;
}

/**
 * Name evidence: the larger of the token evidence and header-embedding evidence; embeddings
 * are not trusted when both names are generic-only (`id` ~ `id` embeds identically).
 */
export function joinNameEvidence(f: PreparedColumn, k: PreparedColumn, opts: GraphOptions): number {
  const tokens = joinTokenEvidence(f, k);
  if (tokens >= 1 || (f.genericOnly && k.genericOnly)) return tokens;
  return Math.max(tokens, embeddingEvidence(f, k, opts));
}

/**
 * The join f -> k (k must be key-like), or null when a rule fails. Rules: different tables,
 * both join-eligible, same type family, containment(f in k) >= joinMinContainment, and
 * name evidence >= nameEvidenceMin OR value specificity >= specificityMin OR one value set (two
 * unique integer columns of the same count and range, `oneToOneMinDistinct`). A key piece (k a row
 * shard of the referenced table: >= keyPieceMinCoverage of its keys in f, name evidence) joins
 * below that containment, with the lower score it implies.
 */
export function evaluateJoin(f: PreparedColumn, k: PreparedColumn, opts: GraphOptions): JoinEdgeCandidate | null {
  if (f.table.table.id === k.table.table.id) return null;
  if (!f.joinEligible || !k.joinEligible || f.joinFamily !== k.joinFamily || !k.keyLike) return null;
  // Cheap evidence first: most candidate pairs fail here and never need the sketches.
  const name = joinNameEvidence(f, k, opts);
  if (name < 1 && isSmallKey(k.col, opts)) return null;
  const specificity = Math.min(f.specificity, k.specificity);
  // Neither names nor values say the columns are related; only one value set still can: one
  // table's rows continue the other's, the same unique integers on both sides, many of them.
  const unnamedUnspecific = name < opts.nameEvidenceMin && specificity < opts.specificityMin;
  if (unnamedUnspecific && (f.oneToOneKey === null || f.oneToOneKey !== k.oneToOneKey)) return null;
  const sf = Math.max(1, f.col.distinctEstimate);
  const sk = Math.max(1, k.col.distinctEstimate);
  // A key table cut into row shards holds a piece of the keys: f is not contained in any one
  // piece, but every key of the piece is referenced. With name evidence that piece is part of
  // the referenced table (the shards' union holds f) and joins, scored by what it holds: a weak
  // link, which the search takes when the question needs the bridge, not by default.
  const mayBePiece = name >= opts.nameEvidenceMin;
  // Sizes first: most pairs fail here and never need the sketches.
  if (sk / sf < opts.joinMinContainment && !mayBePiece) return null;
  const cFK = containment(f.col.minhash, sf, k.col.minhash, sk);
  if (cFK < opts.joinMinContainment && !mayBePiece) return null;
  const cKF = containment(k.col.minhash, sk, f.col.minhash, sf);
  if (cFK < opts.joinMinContainment && cKF < opts.keyPieceMinCoverage) return null;
  if (unnamedUnspecific && (cFK < ONE_TO_ONE_CONTAINMENT || cKF < ONE_TO_ONE_CONTAINMENT)) return null;
  const w = JOIN_SCORE_WEIGHTS;
  const score =
    w.containment * cFK +
    w.keyCoverage * cKF +
    w.keyUniqueness * clamp01(k.col.uniqueness) +
    w.name * name +
    w.specificity * specificity;
  return {
    fromColumnId: f.col.id,
    toColumnId: k.col.id,
    fromTableId: f.table.table.id,
    toTableId: k.table.table.id,
    containmentFromInTo: cFK,
    containmentToInFrom: cKF,
    jaccard: jaccard(f.col.minhash, k.col.minhash),
    nameSimilarity: name,
    typeCompatible: true,
    score: clamp01(score),
  };
}

/**
 * The join between two columns in its better direction (higher score; ties go to the
 * smaller fromColumnId), or null. Symmetric in its arguments.
 */
export function bestJoin(a: PreparedColumn, b: PreparedColumn, opts: GraphOptions): JoinEdgeCandidate | null {
  const ab = evaluateJoin(a, b, opts);
  const ba = evaluateJoin(b, a, opts);
  if (!ab) return ba;
  if (!ba) return ab;
  if (ab.score !== ba.score) return ab.score > ba.score ? ab : ba;
  // A tie (two key-like columns, e.g. player.player_id and a one-row-per-player map) must not
  // be broken by generated ids: the edge set would depend on ingest order. Point the edge at the
  // column whose table the column name names (player_id -> player), then by names.
  const names = (c: PreparedColumn) => [...c.table.table.name.toLowerCase().split(/[^a-z0-9]+/)].filter(Boolean);
  const ownsKey = (key: PreparedColumn, other: PreparedColumn) => names(key).some((t) => other.tokens.has(t));
  const aOwns = ownsKey(a, b);
  const bOwns = ownsKey(b, a);
  if (aOwns !== bOwns) return aOwns ? ba : ab; // edge runs from the referencing column to the owner
  const ka = `${a.table.table.name}\u0000${a.col.name}`;
  const kb = `${b.table.table.name}\u0000${b.col.name}`;
  if (ka !== kb) return ka < kb ? ab : ba;
  // Same names (one table held by two sources): by content, so two ingests agree; generated ids
  // decide only between columns that are indistinguishable anyway.
  const byContent = compareContent(a, b);
  if (byContent !== 0) return byContent < 0 ? ab : ba;
  return ab.fromColumnId < ba.fromColumnId ? ab : ba;
}

function compareContent(a: PreparedColumn, b: PreparedColumn): number {
  const facts = (c: PreparedColumn) => [c.table.table.rowCount, c.col.distinctEstimate, c.col.ordinal, ...c.col.minhash];
  const [x, y] = [facts(a), facts(b)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

function clamp01(x: number): number {
  return x <= 0 ? 0 : x >= 1 ? 1 : x;
}
