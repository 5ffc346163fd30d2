/**
 * Value filters -> SQL predicates over a group's output column. Every literal goes through
 * `sqlString` (strings) or is printed as a finite number, so a literal can never end the
 * statement or add a clause.
 *
 * Comparisons follow the column's kind:
 * - text ('=', '!=', 'in'): case-insensitive and trimmed on both sides, since questions rarely
 *   match the stored case (`lower(trim(col)) = lower(trim('AIB'))`);
 * - numeric with a numeric literal: plain comparison; a text column compared with a number is
 *   read through TRY_CAST(... AS DOUBLE) (non-numbers drop out);
 * - date / timestamp with an ISO-looking literal: the literal is CAST to the column's type;
 * - anything else falls back to comparing the column's text form;
 * - 'like': ILIKE, wrapped in `%...%` unless the literal already has a `%`.
 */
import { sqlIdent, sqlString } from '../lake/index.js';
import { valueKind, type ValueKind } from './logical-types.js';
import type { FilterOperator, ValueFilter } from './types.js';

const NUMERIC_TEXT = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}(:?\d{2})?)?$/;

const OPERATORS: ReadonlySet<string> = new Set(['=', '!=', '<', '<=', '>', '>=', 'like', 'in', 'between']);

/** A literal as a number when it is one (a finite number, or text spelling one). */
function asNumber(v: string | number): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  const t = v.trim();
  if (!NUMERIC_TEXT.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

function numberSql(n: number): string {
  // Negative numbers in parentheses so `x - -1`-style surprises cannot arise.
  return n < 0 ? `(${String(n)})` : String(n);
}

function textOf(v: string | number): string {
  return typeof v === 'number' ? String(v) : v;
}

export class FilterBindError extends Error {}

/** The column expression's text form, trimmed and lower-cased. */
function normText(col: string, kind: ValueKind): string {
  const text = kind === 'text' ? col : `CAST(${col} AS VARCHAR)`;
  return `lower(trim(${text}))`;
}

function normLiteral(v: string | number): string {
  return `lower(trim(${sqlString(textOf(v))}))`;
}

/**
 * How the values compare for an ordering / equality operator: as numbers, as dates or
 * timestamps, as booleans, or as text.
 */
function comparison(kind: ValueKind, values: (string | number)[]): 'numeric' | 'numeric-cast' | 'date' | 'timestamp' | 'boolean' | 'text' {
  if (values.every((v) => asNumber(v) !== null)) {
    if (kind === 'numeric') return 'numeric';
    if (kind === 'text') return 'numeric-cast';
  }
  if (kind === 'date' && values.every((v) => typeof v === 'string' && ISO_DATE.test(v.trim()))) return 'date';
  if ((kind === 'date' || kind === 'timestamp') && values.every((v) => typeof v === 'string' && ISO_TIMESTAMP.test(v.trim()))) {
    return 'timestamp';
  }
  if (kind === 'boolean' && values.every((v) => boolLiteral(v) !== null)) return 'boolean';
  return 'text';
}

function boolLiteral(v: string | number): 'true' | 'false' | null {
  const t = textOf(v).trim().toLowerCase();
  if (t === 'true' || t === '1' || t === 't' || t === 'yes') return 'true';
  if (t === 'false' || t === '0' || t === 'f' || t === 'no') return 'false';
  return null;
}

/** Column expression and literal renderer for a comparison mode. */
function operands(
  mode: ReturnType<typeof comparison>,
  col: string,
  kind: ValueKind,
): { column: string; literal: (v: string | number) => string } {
  switch (mode) {
    case 'numeric':
      return { column: col, literal: (v) => numberSql(asNumber(v)!) };
    case 'numeric-cast':
      return { column: `TRY_CAST(${col} AS DOUBLE)`, literal: (v) => numberSql(asNumber(v)!) };
    case 'date':
      return { column: col, literal: (v) => `CAST(${sqlString(textOf(v).trim())} AS DATE)` };
    case 'timestamp':
      return { column: col, literal: (v) => `CAST(${sqlString(textOf(v).trim())} AS TIMESTAMP)` };
    case 'boolean':
      return { column: col, literal: (v) => boolLiteral(v)! };
    case 'text':
      return { column: kind === 'text' ? col : `CAST(${col} AS VARCHAR)`, literal: (v) => sqlString(textOf(v)) };
  }
}

/**
 * The SQL predicate of `filter` on `column` (already qualified, e.g. `g1."club_name"`) whose
 * logical type is `logicalType`. Throws FilterBindError with a readable reason when the filter
 * cannot be expressed.
 */
export function filterPredicate(filter: ValueFilter, column: string, logicalType: string): string {
  const op = filter.operator as FilterOperator;
  if (!OPERATORS.has(op)) throw new FilterBindError(`unknown operator ${JSON.stringify(filter.operator)}`);
  const kind = valueKind(logicalType);
  const lit = filter.literal;
  const scalars = (Array.isArray(lit) ? lit : [lit]) as unknown[];
  for (const v of scalars) {
    if (typeof v === 'number' && !Number.isFinite(v)) throw new FilterBindError('literal is not a finite number');
    if (typeof v !== 'number' && typeof v !== 'string') throw new FilterBindError('literal must be a string or a number');
    if (typeof v === 'string' && v.includes('\0')) throw new FilterBindError('literal contains a NUL character');
  }
  const values = scalars as (string | number)[];

  switch (op) {
    case '=':
    case '!=': {
      if (Array.isArray(lit)) throw new FilterBindError(`operator ${op} takes one value, not a list`);
      const sqlOp = op === '=' ? '=' : '<>';
      const mode = comparison(kind, values);
      if (mode === 'text') return `${normText(column, kind)} ${sqlOp} ${normLiteral(lit)}`;
      const o = operands(mode, column, kind);
      return `${o.column} ${sqlOp} ${o.literal(lit)}`;
    }
    case '<':
    case '<=':
    case '>':
    case '>=': {
      if (Array.isArray(lit)) throw new FilterBindError(`operator ${op} takes one value, not a list`);
      const o = operands(comparison(kind, values), column, kind);
      return `${o.column} ${op} ${o.literal(lit)}`;
    }
    case 'like': {
      if (Array.isArray(lit)) throw new FilterBindError('operator like takes one value, not a list');
      const text = textOf(lit);
      const pattern = text.includes('%') ? text : `%${text}%`;
      const col = kind === 'text' ? column : `CAST(${column} AS VARCHAR)`;
      return `${col} ILIKE ${sqlString(pattern)}`;
    }
    case 'in': {
      if (values.length === 0) throw new FilterBindError('operator in needs at least one value');
      const mode = comparison(kind, values);
      if (mode === 'text') return `${normText(column, kind)} IN (${values.map(normLiteral).join(', ')})`;
      const o = operands(mode, column, kind);
      return `${o.column} IN (${values.map(o.literal).join(', ')})`;
    }
    case 'between': {
      if (!Array.isArray(lit) || values.length !== 2) throw new FilterBindError('operator between needs exactly two values [low, high]');
      const o = operands(comparison(kind, values), column, kind);
      return `${o.column} BETWEEN ${o.literal(values[0]!)} AND ${o.literal(values[1]!)}`;
    }
  }
}

/** `g1."name"`: a group output column, qualified by its CTE. */
export function qualified(groupId: string, column: string): string {
  return `${sqlIdent(groupId)}.${sqlIdent(column)}`;
}
