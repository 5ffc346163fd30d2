import { type ColumnKey, isUuid, type TableKey } from '../../catalog/scopedReader.js';
import { BadInputError } from '../../util/errors.js';

/**
 * Opaque Relay cursors: base64url of the JSON sort key of a row, tagged with what it pages
 * (`t` tables: [name, id]; `c` columns: [table name, table id, ordinal]). Keyset pagination on
 * the sort key keeps pages stable while rows are added elsewhere and costs one index range scan.
 */
export type { ColumnKey, TableKey } from '../../catalog/scopedReader.js';
export { isUuid } from '../../catalog/scopedReader.js';

export function encodeCursor(kind: 't', key: TableKey): string;
export function encodeCursor(kind: 'c', key: ColumnKey): string;
export function encodeCursor(kind: 't' | 'c', key: unknown[]): string {
  return Buffer.from(JSON.stringify([kind, ...key]), 'utf8').toString('base64url');
}


function parse(cursor: string): unknown[] {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(v)) return v;
  } catch {
    // fall through
  }
  throw new BadInputError('after: not a cursor this API returned', { field: 'after' });
}

export function decodeTableCursor(cursor: string): TableKey {
  const v = parse(cursor);
  if (v.length === 3 && v[0] === 't' && typeof v[1] === 'string' && typeof v[2] === 'string' && isUuid(v[2])) return [v[1], v[2]];
  throw new BadInputError('after: not a table cursor', { field: 'after' });
}

export function decodeColumnCursor(cursor: string): ColumnKey {
  const v = parse(cursor);
  if (v.length === 4 && v[0] === 'c' && typeof v[1] === 'string' && typeof v[2] === 'string' && isUuid(v[2]) && Number.isInteger(v[3])) {
    return [v[1], v[2], v[3] as number];
  }
  throw new BadInputError('after: not a column cursor', { field: 'after' });
}
