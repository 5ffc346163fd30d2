/** How the planner treats a column's logical type when comparing values in SQL. */

export type ValueKind = 'numeric' | 'text' | 'date' | 'timestamp' | 'boolean';

/** Kind of a logical type string; anything unknown (including 'other') is compared as text. */
export function valueKind(logicalType: string): ValueKind {
  switch (logicalType) {
    case 'integer':
    case 'float':
      return 'numeric';
    case 'date':
      return 'date';
    case 'timestamp':
      return 'timestamp';
    case 'boolean':
      return 'boolean';
    default:
      return 'text';
  }
}

/**
 * Logical type of a union-group column from its members' types, mirroring what DuckDB's
 * UNION picks: equal types stay, integer + float widen to float, anything else becomes text.
 */
export function mergeLogicalTypes(types: string[]): string {
  if (types.length === 0) return 'text';
  const first = types[0]!;
  if (types.every((t) => t === first)) return first;
  if (types.every((t) => t === 'integer' || t === 'float')) return 'float';
  return 'text';
}
