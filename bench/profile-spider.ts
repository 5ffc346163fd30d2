/**
 * Profiles the whole Spider lake (163 SQLite databases, ~880 tables) through src/lake and
 * prints wall time and table count. Usage:
 *   npx tsx bench/profile-spider.ts [/work/shared/data-raw/spider/database]
 */
import { closeDuckDB, listLakeEntries, profileEntry } from '../src/lake/index.js';

const root = process.argv[2] ?? '/work/shared/data-raw/spider/database';
const started = performance.now();
const { entries, problems } = await listLakeEntries(root);
const listed = performance.now();
let tables = 0;
let rows = 0;
let columns = 0;
const failures: string[] = [];
let slowest = { ms: 0, uri: '' };
for (const entry of entries) {
  const t0 = performance.now();
  try {
    const p = await profileEntry(entry);
    tables++;
    rows += p.rowCount;
    columns += p.columns.length;
  } catch (err) {
    failures.push((err as Error).message);
  }
  const ms = performance.now() - t0;
  if (ms > slowest.ms) slowest = { ms, uri: `${entry.path}#${entry.sqliteTable ?? ''}` };
}
const wall = performance.now() - started;
await closeDuckDB();
console.log(
  JSON.stringify(
    {
      root,
      tables,
      columns,
      rows,
      listProblems: problems.length,
      profileFailures: failures.length,
      listMs: Math.round(listed - started),
      wallMs: Math.round(wall),
      slowestTable: { ms: Math.round(slowest.ms), uri: slowest.uri },
    },
    null,
    2,
  ),
);
for (const p of problems) console.log(`problem: ${p.path}: ${p.message}`);
for (const f of failures) console.log(`failed: ${f}`);
