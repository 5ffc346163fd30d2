import type { Engine } from '../engine/index.js';
import type { LakeSnapshot, SnapshotTable } from '../search/index.js';
import { BadInputError } from '../util/errors.js';
import { enrichTable } from './enrich.js';
import type { EnrichOptions, EnrichResult } from './types.js';

/** What an enrichment request in words asks for, before it is matched to the catalog. */
export interface EnrichRequestWords {
  target: string;
  /** The table words, when the request names one ("in the houses table", "of students"). */
  table: string | null;
}

// "find tables that help (to) predict price in/of/for/from (the) houses (table)",
// "which tables improve a model of gpa for student", "enrich houses to predict price".
const PREDICT = /\b(?:predict(?:ing|s)?|forecast(?:ing|s)?|model(?:ling|ing)?(?:\s+of)?|estimat(?:e|ing))\s+(?:the\s+)?(.+?)(?:\s+(?:in|of|for|from|on)\s+(?:the\s+)?(?:table\s+)?(.+?))?\s*[?.!]*$/i;
const ENRICH = /\benrich\s+(?:the\s+)?(?:table\s+)?([\w.-]+)(?:\s+table)?\s+(?:to|for)\s+(?:predict(?:ing)?\s+)?(?:the\s+)?(.+?)\s*[?.!]*$/i;
const ASKS_FOR_TABLES = /\b(tables?|data(?:sets?)?|columns?|features?|attributes?|rows?)\b.*\b(help|improve|add|enrich|predict)/i;

/**
 * Recognises a request for training-data enrichment ("find tables that help predict price in
 * the houses table") and returns its target and table words; null for any other question, which
 * stays a question for synthesize.
 */
export function parseEnrichRequest(question: string): EnrichRequestWords | null {
  const q = question.trim();
  const e = ENRICH.exec(q);
  if (e) return { table: clean(e[1]!), target: clean(e[2]!) };
  if (!ASKS_FOR_TABLES.test(q) && !/^\s*enrich\b/i.test(q)) return null;
  const p = PREDICT.exec(q);
  if (!p) return null;
  const table = p[2] ? clean(p[2]) : null;
  return { target: clean(p[1]!), table: table && !/^this( table)?$/i.test(table) ? table.replace(/\s+table$/i, '') : null };
}

function clean(s: string): string {
  return s.trim().replace(/^(?:the|a|an)\s+/i, '').replace(/[?.!,;:]+$/, '').trim();
}

const norm = (s: string) => s.toLowerCase().replace(/_[0-9a-f]{8}$/, '').replace(/[^a-z0-9]/g, '');
const singular = (s: string) => (s.endsWith('ies') ? `${s.slice(0, -3)}y` : s.endsWith('s') && !s.endsWith('ss') ? s.slice(0, -1) : s);

/**
 * The request matched to the caller's view of the catalog: the table its words name (by name,
 * singular or plural, a hash suffix ignored), else the one table holding a column the target
 * words name; the target = that table's column. Ambiguity and misses are BAD_USER_INPUT saying
 * which.
 */
export function resolveEnrichRequest(words: EnrichRequestWords, snapshot: LakeSnapshot): { table: SnapshotTable; target: string } {
  const targetKey = norm(words.target);
  const hasTarget = (t: SnapshotTable) => t.columns.find((c) => norm(c.name) === targetKey);
  let tables: SnapshotTable[];
  if (words.table) {
    const key = singular(norm(words.table));
    tables = snapshot.tables.filter((t) => singular(norm(t.name)) === key);
    if (tables.length === 0) throw new BadInputError(`no table named "${words.table}" is visible in the catalog`, { field: 'question' });
    if (tables.length > 1) tables = tables.filter(hasTarget);
  } else {
    tables = snapshot.tables.filter(hasTarget);
    if (tables.length === 0) throw new BadInputError(`no visible table has a column "${words.target}": name the table ("... predict ${words.target} in <table>")`, { field: 'question' });
  }
  if (tables.length !== 1) {
    throw new BadInputError(`"${words.target}" is a column of ${tables.length} tables (${tables.slice(0, 5).map((t) => t.name).join(', ')}): name the table`, { field: 'question' });
  }
  const column = hasTarget(tables[0]!);
  if (!column) throw new BadInputError(`table ${tables[0]!.name} has no column "${words.target}" (columns: ${tables[0]!.columns.map((c) => c.name).join(', ')})`, { field: 'question' });
  return { table: tables[0]!, target: column.name };
}

/** An enrichment asked for in words: parsed, matched to the caller's catalog view, run. Null when the question is not such a request. */
export async function enrichFromRequest(
  engine: Engine,
  question: string,
  opts: Omit<EnrichOptions, 'target'> = {},
): Promise<EnrichResult | null> {
  const words = parseEnrichRequest(question);
  if (!words) return null;
  const { table, target } = resolveEnrichRequest(words, await engine.snapshot(opts.allowTable));
  return enrichTable(engine, table.id, { ...opts, target });
}
