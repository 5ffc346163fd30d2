/**
 * Ingest benchmark: all Spider SQLite databases (163 files, 838 tables) into a fresh PGlite
 * catalog in a temporary directory, through the real `ingestLake`. Prints and records wall
 * time (with a per-phase split), tables, columns, join/union edges and peak RSS; writes
 * docs/bench/ingest.json and the `bench:ingest` section of docs/BENCHMARKS.md.
 *
 *   npm run bench:ingest                      # = npx tsx bench/ingest-spider.ts
 *   npx tsx bench/ingest-spider.ts [spiderDatabaseDir] [--no-write]
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openCatalog, catalogCounts } from '../src/catalog/index.js';
import { createEmbedder, embedderConfigFromEnv } from '../src/embed/index.js';
import { ingestLake, type IngestProgress } from '../src/ingest/index.js';
import { closeDuckDB } from '../src/lake/index.js';
import { gitCommit, machineInfo } from '../src/bench/machine.js';
import { markdownTable, replaceMarkedSection } from '../src/bench/markdown.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const write = !args.includes('--no-write');
const root = path.resolve(args.find((a) => !a.startsWith('--')) ?? path.join(repo, '../shared/data-raw/spider/database'));
if (!existsSync(root)) {
  console.error(`Spider databases not found at ${root} (pass the folder as the first argument)`);
  process.exit(2);
}

const TARGET_S = 120;
const TARGET_RSS_GIB = 2;

const loadAtStart = os.loadavg().map((x) => round(x, 2));
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'graft-bench-ingest-'));
const embedder = createEmbedder(embedderConfigFromEnv(process.env));
const t0 = performance.now();
const db = await openCatalog({ dataDir });
const openedMs = performance.now() - t0;
const phaseStart = new Map<IngestProgress['phase'], number>();
let lastLog = 0;
try {
  const summary = await ingestLake(db, root, {
    embedder,
    onProgress: (p) => {
      if (!phaseStart.has(p.phase)) phaseStart.set(p.phase, performance.now());
      if (performance.now() - lastLog > 10_000) {
        lastLog = performance.now();
        process.stderr.write(`  ${p.phase} ${p.filesDone}/${p.filesTotal} tables, ${p.rowsDone.toLocaleString('en')} rows\n`);
      }
    },
  });
  const wallMs = performance.now() - t0;
  const counts = await catalogCounts(db);
  const maxRssKiB = process.resourceUsage().maxRSS; // kilobytes on Linux/macOS
  const at = (p: IngestProgress['phase']) => phaseStart.get(p);
  const profileStart = at('profile') ?? t0;
  const embedStart = at('embeddings');
  const done = at('done') ?? performance.now();
  const result = {
    benchmark: 'ingest-spider',
    root,
    embedder: embedder.id,
    catalog: 'pglite (temp dir)',
    status: summary.status,
    databases: new Set(
      (await db.prisma.lakeTable.findMany({ select: { uri: true } })).map((t) => t.uri.split('#')[0]),
    ).size,
    tables: counts.tables,
    columns: counts.columns,
    rows: summary.rowsProfiled,
    joinEdges: counts.joins,
    unionEdges: counts.unions,
    embeddings: counts.embeddings,
    tablesFailed: summary.tablesFailed,
    wallSeconds: round(wallMs / 1000, 1),
    phases: {
      openCatalogSeconds: round(openedMs / 1000, 2),
      scanSeconds: round((profileStart - t0 - openedMs) / 1000, 2),
      profileLinkWriteSeconds: round(((embedStart ?? done) - profileStart) / 1000, 1),
      embeddingsSeconds: embedStart ? round((done - embedStart) / 1000, 1) : 0,
    },
    peakRssMiB: round(maxRssKiB / 1024, 0),
    targets: { wallSeconds: TARGET_S, peakRssGiB: TARGET_RSS_GIB },
    withinTargets: wallMs / 1000 <= TARGET_S && maxRssKiB / 2 ** 20 <= TARGET_RSS_GIB,
    machine: machineInfo(),
    loadAverageAtStart: loadAtStart,
    commit: gitCommit(repo),
    measuredAt: new Date().toISOString(),
    command: 'npm run bench:ingest   # npx tsx bench/ingest-spider.ts',
    errors: summary.errors.map((e) => ({ path: e.path, code: e.code, message: e.message.slice(0, 300) })),
  };
  console.log(JSON.stringify(result, null, 2));
  for (const e of summary.errors.slice(0, 20)) console.error(`error: ${e.path}: ${e.message}`);
  if (write) {
    const jsonFile = path.join(repo, 'docs/bench/ingest.json');
    mkdirSync(path.dirname(jsonFile), { recursive: true });
    writeFileSync(jsonFile, `${JSON.stringify(result, null, 2)}\n`);
    replaceMarkedSection(path.join(repo, 'docs/BENCHMARKS.md'), 'ingest', ingestMarkdown(result));
    console.error(`wrote ${path.relative(repo, jsonFile)} and docs/BENCHMARKS.md (bench:ingest)`);
  }
} finally {
  await db.close();
  await embedder.close?.();
  await closeDuckDB();
  await rm(dataDir, { recursive: true, force: true });
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

function ingestMarkdown(r: {
  tables: number; columns: number; rows: number; joinEdges: number; unionEdges: number; databases: number;
  wallSeconds: number; peakRssMiB: number; phases: Record<string, number>; embedder: string; status: string;
  tablesFailed: number; loadAverageAtStart: number[];
  machine: ReturnType<typeof machineInfo>; commit: string; measuredAt: string; command: string; withinTargets: boolean;
}): string {
  return [
    '## Ingest: the Spider lake (163 SQLite databases) into a fresh PGlite catalog',
    '',
    markdownTable(
      ['databases', 'tables', 'columns', 'rows', 'join edges', 'union edges', 'wall (s)', 'peak RSS (MiB)', `target (<= ${TARGET_S} s, <= ${TARGET_RSS_GIB} GiB)`],
      [[r.databases, r.tables, r.columns, r.rows.toLocaleString('en'), r.joinEdges, r.unionEdges, r.wallSeconds, r.peakRssMiB, r.withinTargets ? 'met' : 'NOT met']],
    ),
    '',
    `Phases (s): open catalog ${r.phases.openCatalogSeconds}, scan ${r.phases.scanSeconds}, ` +
      `profile + link + write ${r.phases.profileLinkWriteSeconds}, embeddings ${r.phases.embeddingsSeconds}. ` +
      `Embedder \`${r.embedder}\`, ingest status ${r.status}` +
      (r.tablesFailed > 0 ? ` (**${r.tablesFailed} tables failed**; see the errors in docs/bench/ingest.json)` : '') + '.',
    '',
    `Machine: ${r.machine.cpu}, ${r.machine.cores} cores, ${r.machine.memoryGiB} GiB, ${r.machine.os}, node ${r.machine.node}. ` +
      `Load average at start ${r.loadAverageAtStart.join(' / ')} (other work on the machine skews the figures). ` +
      `Commit \`${r.commit}\`, measured ${r.measuredAt}.`,
    '',
    `Command: \`${r.command}\` (raw figures: docs/bench/ingest.json).`,
  ].join('\n');
}
