import { DuckDBInstance } from '@duckdb/node-api';
const inst = await DuckDBInstance.create(':memory:');
const con = await inst.connect();
async function q(sql: string) {
  try { const r = await con.runAndReadAll(sql); console.log(sql, '\n ', r.columnNames(), r.columnTypes().map(String), JSON.stringify(r.getRowsJson()).slice(0,500)); }
  catch (e: any) { console.log(sql, '\n  ERR', e.message.slice(0, 300)); }
}
const d = '/tmp/exp/';
await q(`select * from read_csv('${d}wide.csv', auto_detect=true, header=false)`);
await q(`select * from read_csv('${d}txt.csv', auto_detect=true)`);
await q(`select * from read_csv('${d}nohdr.csv', auto_detect=true)`);
await q(`select * from read_csv('${d}u16.csv', auto_detect=true, encoding='utf-16')`);
await q(`select * from read_csv('${d}dup.csv', auto_detect=true, names=['a','a','b','c','d'])`);
await q(`select * from sniff_csv('${d}latin.csv', encoding='latin-1')`);
await q(`select count(*) from read_csv('${d}cast.csv', auto_detect=true, store_rejects=true, rejects_table='r1', rejects_scan='s1')`);
await q(`select count(*) from read_csv('${d}cast.csv', auto_detect=true, store_rejects=true, rejects_table='r1', rejects_scan='s1')`);
await q(`select line, column_name, error_type from r1`);
await q(`select count(*) from read_csv('${d}cast.csv', auto_detect=true, types={'b':'VARCHAR'}, store_rejects=true, rejects_table='r1', rejects_scan='s1')`);
await q(`select line, column_name, error_type from r1`);
await q(`select count(*) from read_csv('${d}dup.csv', auto_detect=true, names=['id','name','column_2','name_1','column_4'], types={'column_2':'VARCHAR'})`);
await q(`select typeof(column_2) from read_csv('${d}dup.csv', auto_detect=true, names=['id','name','column_2','name_1','column_4'], types={'column_2':'VARCHAR'})`);
await q(`select count(*), approx_count_distinct(a) from read_csv('${d}cast.csv', auto_detect=true, ignore_errors=true)`);
