import { loadIcebergTable } from './src/lake/iceberg/table.js';
import { withDuckDB } from './src/lake/duckdb.js';
const p = await loadIcebergTable(process.argv[2]);
console.log(p.snapshotId, p.dataFiles.length, p.deleteFiles.length);
await withDuckDB(async con => { const r = await con.runAndReadAll(`SELECT * FROM ${p.sql} ORDER BY ALL LIMIT 5`); console.log(r.columnNames(), r.getRowObjectsJson()); const c = await con.runAndReadAll(`SELECT count(*) FROM ${p.sql}`); console.log(c.getRowsJson()); });
