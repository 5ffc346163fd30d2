/**
 * How often a join edge of each score links two tables of one database of a bench lake, and how
 * often tables of different databases (the lake pools them, so the search cannot tell): the
 * evidence behind the search's strong-link score (src/search/candidates.ts, `strongLinkScore`).
 * The lake manifest says which database each lake table came from; the product never reads it.
 * Usage: tsx bench/edge-sources.ts [--lake lakes/spider] [--catalog <lake>/.graft-db] [--bin 0.05]
 * Prints a markdown table; writes nothing.
 */
import path from 'node:path';
import { readBenchManifest, uriStem } from '../src/bench/index.js';
import { openCatalog, readJoinEdges, readReadyTables } from '../src/catalog/index.js';

const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const lake = path.resolve(opt('--lake', 'lakes/spider'));
const bin = Number(opt('--bin', '0.05'));
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
} finally {
  await db.close();
}
