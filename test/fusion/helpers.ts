/** Hand-built fusion inputs over a built demo lake: headers come from the real files via DuckDB. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { duckdbSourceExpression, withDuckDB } from '../../src/lake/index.js';
import type { FusionJoinEdge, FusionTable, FusionUnionEdge } from '../../src/fusion/index.js';

export function logicalTypeOf(duckdbType: string): string {
  const t = duckdbType.toUpperCase();
  if (/^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT)$/.test(t)) return 'integer';
  if (/^(FLOAT|DOUBLE|REAL)$/.test(t) || t.startsWith('DECIMAL')) return 'float';
  if (t === 'DATE') return 'date';
  if (t.startsWith('TIMESTAMP')) return 'timestamp';
  if (t === 'BOOLEAN') return 'boolean';
  if (t === 'VARCHAR') return 'text';
  return 'other';
}

/** Ids are made up: `t:<name>` for tables, `c:<name>.<column>` for columns. */
export const tid = (name: string): string => `t:${name}`;
export const cid = (table: string, column: string): string => `c:${table}.${column}`;

/** A FusionTable for a file, its columns read with DESCRIBE. */
export async function describeTable(file: string, name = path.basename(file).replace(/\.(csv|parquet)$/, '')): Promise<FusionTable> {
  const format = file.endsWith('.parquet') ? 'parquet' : 'csv';
  const source = duckdbSourceExpression({ path: file, format })!;
  const rows = await withDuckDB(async (con) => (await con.runAndReadAll(`DESCRIBE SELECT * FROM ${source}`)).getRowObjects());
  return {
    id: tid(name),
    name,
    uri: file,
    format,
    columns: rows.map((r) => ({
      id: cid(name, String(r['column_name'])),
      name: String(r['column_name']),
      logicalType: logicalTypeOf(String(r['column_type'])),
    })),
  };
}

/** The demo table `name` in the built lake (CSV or Parquet, whichever was built). */
export async function demoTable(dir: string, name: string): Promise<FusionTable> {
  const parquet = path.join(dir, `${name}.parquet`);
  return describeTable(existsSync(parquet) ? parquet : path.join(dir, `${name}.csv`), name);
}

/** `a.col -> b.col` as a join edge with the given score. */
export function joinEdge(from: string, to: string, score = 0.9, containment = 1): FusionJoinEdge {
  const [ft, fc] = from.split('.') as [string, string];
  const [tt, tc] = to.split('.') as [string, string];
  return {
    fromColumnId: cid(ft, fc),
    toColumnId: cid(tt, tc),
    fromTableId: tid(ft),
    toTableId: tid(tt),
    score,
    containmentFromTo: containment,
    containmentToFrom: containment,
  };
}

/** A union edge aligning columns of equal name (what the graph module finds for shards). */
export function unionByName(a: FusionTable, b: FusionTable, score = 0.95): FusionUnionEdge {
  const alignment = a.columns.flatMap((ca) => {
    const cb = b.columns.find((c) => c.name === ca.name);
    return cb ? [{ columnAId: ca.id, columnBId: cb.id, score: 1 }] : [];
  });
  return { tableAId: a.id, tableBId: b.id, score, alignment };
}
