/**
 * How often a join edge of each score links two tables of one database of a bench lake, and how
 * often tables of different databases (the lake pools them, so the search cannot tell): the
 * evidence behind the search's strong-link score (src/search/candidates.ts, `strongLinkScore`).
 * The lake manifest says which database each lake table came from; the product never reads it.
 * Then the recall of the source databases' declared foreign keys (their tables.json or
 * dev_tables.json next to the manifest's database folder, or --tables): per key, the strongest
 * join edge between any lake tables of the two (row shards included), by score band.
 * Usage: tsx bench/edge-sources.ts [--lake lakes/spider] [--catalog <lake>/.graft-db] [--bin 0.05] [--tables <tables.json>]
 * Prints two markdown tables; writes nothing.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { readBenchManifest, uriStem } from '../src/bench/index.js';
import { openCatalog, readJoinEdges, readReadyTables } from '../src/catalog/index.js';
import { numberOption } from '../src/cli/options.js';

const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const lake = path.resolve(opt('--lake', 'lakes/spider'));
const binArg = opt('--bin', '0.05') ?? '';
const bin = numberOption('bin', { min: 0, max: 1 })(binArg);
// The bounds above are inclusive; a width of 0 would put every edge in one bin at infinity.
if (bin === 0) throw new Error(`--bin must be a number in (0, 1] (got "${binArg}")`);
const manifest = await readBenchManifest(path.join(lake, 'manifest.json'));
const dbOfStem = new Map(manifest.tables.map((t) => [t.name, t.dbId]));

const db = await openCatalog({ dataDir: path.resolve(opt('--catalog', path.join(lake, '.graft-db'))) });
try {
  const dbOfTable = new Map((await readReadyTables(db)).map((t) => [t.id, dbOfStem.get(uriStem(t.uri))]));
  const bins = new Map<number, { same: number; other: number }>();
  for (const e of await readJoinEdges(db)) {
    const [a, b] = [dbOfTable.get(e.fromTableId), dbOfTable.get(e.toTableId)];
    if (a === undefined || b === undefined) continue; // a table outside the bench lake
    const k = Math.floor(e.score / bin + 1e-9);
    const row = bins.get(k) ?? { same: 0, other: 0 };
    if (a === b) row.same++;
    else row.other++;
    bins.set(k, row);
  }
  const lines = ['| edge score | same database | other database | other / same |', '| --- | --- | --- | --- |'];
  for (const k of [...bins.keys()].sort((x, y) => x - y)) {
    const { same, other } = bins.get(k)!;
    lines.push(`| ${(k * bin).toFixed(2)}–${((k + 1) * bin).toFixed(2)} | ${same} | ${other} | ${same > 0 ? (other / same).toFixed(1) : '—'} |`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);

  // Declared foreign keys (Spider's tables.json shape: table and column names, [from, to] column indexes).
  // The schema file beside the database folder, under either name the Spider format ships it as.
  const beside = ['tables.json', 'dev_tables.json'].map((f) => path.join(manifest.dbsDir, '..', f));
  const tablesFile = path.resolve(opt('--tables', beside.find((f) => existsSync(f)) ?? beside[0]));
  if (!existsSync(tablesFile)) {
    process.stdout.write(`\n(no ${tablesFile}: foreign-key recall skipped)\n`);
  } else {
    type Schema = { db_id: string; table_names_original: string[]; column_names_original: [number, string][]; foreign_keys: [number, number][] };
    const schemas = JSON.parse(readFileSync(tablesFile, 'utf8')) as Schema[];
    const idOfStem = new Map((await readReadyTables(db)).map((t) => [uriStem(t.uri), t.id]));
    const lakeTables = new Map<string, string[]>();
    for (const t of manifest.tables) {
      const key = `${t.dbId}\u0000${t.baseTable.toLowerCase()}`;
      const id = idOfStem.get(t.name);
      if (id) lakeTables.set(key, [...(lakeTables.get(key) ?? []), id]);
    }
    const best = new Map<string, number>();
    for (const e of await readJoinEdges(db)) {
      for (const k of [`${e.fromTableId}|${e.toTableId}`, `${e.toTableId}|${e.fromTableId}`]) best.set(k, Math.max(best.get(k) ?? 0, e.score));
    }
    const bands = { none: 0, 'below 0.7': 0, '0.70–0.80': 0, '0.80 and above': 0 };
    for (const s of schemas) {
      for (const [from, to] of s.foreign_keys) {
        const [a, b] = [s.column_names_original[from][0], s.column_names_original[to][0]].map((i) => s.table_names_original[i].toLowerCase());
        const [as, bs] = [lakeTables.get(`${s.db_id}\u0000${a}`), lakeTables.get(`${s.db_id}\u0000${b}`)];
        if (a === b || !as || !bs) continue; // self references; tables not in the lake
        let score = 0;
        for (const x of as) for (const y of bs) score = Math.max(score, best.get(`${x}|${y}`) ?? 0);
        bands[score === 0 ? 'none' : score < 0.7 ? 'below 0.7' : score < 0.8 ? '0.70–0.80' : '0.80 and above']++;
      }
    }
    const total = Object.values(bands).reduce((x, y) => x + y, 0);
    const fk = ['| declared foreign keys: strongest edge | keys | share |', '| --- | --- | --- |'];
    for (const [band, n] of Object.entries(bands)) fk.push(`| ${band} | ${n} | ${(n / Math.max(1, total)).toFixed(3)} |`);
    process.stdout.write(`\n${fk.join('\n')}\n`);
  }
} finally {
  await db.close();
}
