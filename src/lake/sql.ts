/** SQL literal/identifier quoting shared by the DuckDB and SQLite readers. */

/** A single-quoted SQL string literal: quotes doubled (DuckDB and SQLite treat backslashes literally). */
export function sqlString(value: string): string {
  if (value.includes('\0')) throw new Error('SQL string literal cannot contain a NUL character');
  return `'${value.replace(/'/g, "''")}'`;
}

/** A double-quoted SQL identifier: inner quotes doubled. */
export function sqlIdent(name: string): string {
  if (name.includes('\0')) throw new Error('SQL identifier cannot contain a NUL character');
  return `"${name.replace(/"/g, '""')}"`;
}
