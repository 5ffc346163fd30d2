/**
 * Tiny builder of hand-made lake graphs for the trajectory tests. Table ids are the table names,
 * column ids `<table>.<column>`, uris `/lake/<table>.csv` (so uri order = name order).
 */
import { LakeSnapshot, type SnapshotColumn, type SnapshotJoin, type SnapshotTable, type SnapshotUnion } from '../../../src/search/snapshot.js';
import { mulberry32 } from '../../../src/util/prng.js';

export interface ColumnSpec {
  name: string;
  type?: string;
  values?: string[];
}

export class LakeBuilder {
  private tables: SnapshotTable[] = [];
  private joins: SnapshotJoin[] = [];
  private unions: SnapshotUnion[] = [];

  /** Columns given as names are text columns with values `<column> 1`, `<column> 2`. */
  table(name: string, columns: (string | ColumnSpec)[]): this {
    this.tables.push({
      id: name,
      name,
      uri: `/lake/${name}.csv`,
      format: 'csv',
      sourceRoot: 'lake',
      rowCount: 10,
      columns: columns.map((spec, ordinal): SnapshotColumn => {
        const c = typeof spec === 'string' ? { name: spec } : spec;
        const values = c.values ?? [`${c.name} 1`, `${c.name} 2`];
        return {
          id: `${name}.${c.name}`,
          tableId: name,
          name: c.name,
          ordinal,
          logicalType: c.type ?? 'text',
          uniqueness: 1,
          distinctEstimate: values.length,
          sampleValues: values,
          topValues: values,
          minhash: [],
          numericMin: null,
          numericMax: null,
          embedding: null,
        };
      }),
    });
    return this;
  }

  /** Join from column `a.x` into column `b.y`. */
  join(from: string, to: string, score = 0.9): this {
    this.joins.push({
      fromColumnId: from,
      toColumnId: to,
      fromTableId: from.split('.')[0],
      toTableId: to.split('.')[0],
      score,
      containmentFromTo: 1,
      containmentToFrom: 1,
    });
    return this;
  }

  /** Union of two tables, aligning their columns of equal name. */
  union(a: string, b: string, score = 0.9): this {
    const colsA = this.tables.find((t) => t.id === a)!.columns;
    const colsB = this.tables.find((t) => t.id === b)!.columns;
    const alignment = colsA.flatMap((ca) =>
      colsB.filter((cb) => cb.name === ca.name).map((cb) => ({ columnAId: ca.id, columnBId: cb.id, score: 1 })),
    );
    this.unions.push({ tableAId: a, tableBId: b, score, alignment });
    return this;
  }

  build(): LakeSnapshot {
    return new LakeSnapshot(this.tables, this.joins, this.unions, null);
  }
}

export function lake(): LakeBuilder {
  return new LakeBuilder();
}

/**
 * A random lake for invariant tests: `n` tables t00..t<n-1>, each with an id column, a couple of
 * text columns and a numeric one; random joins (fk_<i> -> id) and some unions. Deterministic in `seed`.
 */
export function randomLake(n: number, seed: number, options: { joins?: number; unions?: number; isolated?: number } = {}): LakeSnapshot {
  const rand = mulberry32(seed);
  const b = lake();
  const name = (i: number) => `t${String(i).padStart(2, '0')}`;
  const joins = options.joins ?? n * 2;
  const unions = options.unions ?? Math.floor(n / 5);
  const isolated = options.isolated ?? 0;
  const linked = n - isolated;
  const fks = new Map<number, number>();
  const pairs: [number, number][] = [];
  for (let k = 0; k < joins; k++) {
    const i = Math.floor(rand() * linked);
    const j = Math.floor(rand() * linked);
    if (i === j) continue;
    pairs.push([i, j]);
    fks.set(i, (fks.get(i) ?? 0) + 1);
  }
  for (let i = 0; i < n; i++) {
    const fkCols = Array.from({ length: fks.get(i) ?? 0 }, (_, f) => `fk_${f}`);
    b.table(name(i), ['id', 'label', 'note', { name: 'amount', type: 'integer', values: ['1', '2'] }, ...fkCols]);
  }
  const used = new Map<number, number>();
  for (const [i, j] of pairs) {
    const f = used.get(i) ?? 0;
    used.set(i, f + 1);
    b.join(`${name(i)}.fk_${f}`, `${name(j)}.id`, 0.3 + 0.7 * rand());
  }
  for (let k = 0; k < unions; k++) {
    const i = Math.floor(rand() * linked);
    const j = Math.floor(rand() * linked);
    if (i !== j) b.union(name(i), name(j), 0.5 + 0.5 * rand());
  }
  return b.build();
}
