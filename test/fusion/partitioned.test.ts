/**
 * Fused SQL over a hive-partitioned Parquet folder (one table, partition keys as columns)
 * joined to a CSV file, checked row by row against a hand-written DuckDB query over the same
 * files.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countFusion, planFusion, previewFusion, type FusionTable } from '../../src/fusion/index.js';
import { closeDuckDB, listLakeEntries, profileEntry, withDuckDB, type LakeEntry } from '../../src/lake/index.js';
import { sqlString } from '../../src/lake/sql.js';
import { makeTempDir } from '../lake/helpers.js';
import { cid, joinEdge, tid } from './helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
let sales: string;
let stores: string;

/** A FusionTable from the table's real profile (what ingest stores), ids as in helpers.ts. */
async function profiled(entry: LakeEntry): Promise<FusionTable> {
  const p = await profileEntry(entry);
  return {
    id: tid(p.name),
    name: p.name,
    uri: p.uri,
    format: p.format,
    columns: p.columns.map((c) => ({ id: cid(p.name, c.name), name: c.name, logicalType: c.logicalType })),
    ...(p.csv ? { csv: p.csv } : {}),
  };
}

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('fusion-hive'));
  sales = path.join(dir, 'sales');
  stores = path.join(dir, 'stores.csv');
  await withDuckDB((con) =>
    con.run(
      `COPY (SELECT i AS sale_id, i % 5 AS store_id, i * 2 AS amount, 2023 + (i % 2) AS year, 1 + (i % 4) AS month FROM range(200) t(i))
       TO ${sqlString(sales)} (FORMAT parquet, PARTITION_BY (year, month))`,
    ),
  );
  // Store 4 has no row here: the inner join drops its sales.
  await writeFile(stores, 'store_id,city\n0,Oslo\n1,Bergen\n2,Trondheim\n3,Tromsø\n');
});

afterAll(async () => {
  await closeDuckDB();
  await cleanup?.();
});

describe('fused SQL over a partitioned folder and a CSV', () => {
  it('filters on a partition key, joins, and matches a hand-written DuckDB query row for row', async () => {
    const { entries, problems } = await listLakeEntries(dir);
    expect(problems).toEqual([]);
    expect(entries.map((e) => [e.path, e.format, e.hive ?? false])).toEqual([
      [sales, 'parquet', true],
      [stores, 'csv', false],
    ]);
    const [salesTable, storesTable] = await Promise.all(entries.map(profiled));
    const plan = planFusion({
      tables: [salesTable!, storesTable!],
      joins: [joinEdge('sales.store_id', 'stores.store_id')],
      unions: [],
      filters: [
        { columnId: cid('sales', 'year'), operator: '=', literal: 2024 },
        { columnId: cid('sales', 'month'), operator: '<=', literal: 2 },
      ],
    });
    expect(plan.executable, plan.warnings.join('\n')).toBe(true);
    expect(plan.sql).toContain('hive_partitioning=true');
    expect(plan.sources.map((s) => [s.name, s.copiedBy])).toEqual([
      ['sales', null],
      ['stores', null],
    ]);

    const preview = await previewFusion(plan, 1000);
    expect(preview.engine).toBe('duckdb');
    const expected = await withDuckDB(async (con) =>
      (
        await con.runAndReadAll(
          `SELECT s.sale_id, s.amount, s.year, s.month, c.city
             FROM read_parquet(${sqlString(`${sales}/*/*/*.parquet`)}, hive_partitioning=true) s
             JOIN read_csv(${sqlString(stores)}) c ON c.store_id = s.store_id
            WHERE s.year = 2024 AND s.month <= 2`,
        )
      ).getRows(),
    );
    const text = (rows: unknown[][]) => rows.map((r) => JSON.stringify(r.map((v) => String(v)))).sort();
    expect(expected.length).toBeGreaterThan(10);
    expect(preview.rowCountExact).toBe(expected.length);
    expect(text(preview.rows.map((r) => [r.sale_id, r.amount, r.year, r.month, r.city]))).toEqual(text(expected));
    expect(await countFusion(plan)).toBe(expected.length);
  });
});
