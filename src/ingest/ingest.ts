import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { CatalogDatabase } from '../catalog/database.js';
import { createIngestRun, markDeadRunsInterrupted } from '../catalog/ingestRuns.js';
import { staleEdgeRules } from '../catalog/edgeRules.js';
import { CatalogStore, prepareTable, toGraphTable, type StoredTableBrief } from '../catalog/store.js';
import { columnEmbeddingText, type Embedder } from '../embed/index.js';
import { graphRulesVersion, LakeGraphIndex, type GraphTable } from '../graph/index.js';
import {
  entryName,
  entryUri,
  fingerprintEntry,
  isPostgresUrl,
  isRestCatalogUrl,
  listLakeEntries,
  parsePostgresSource,
  PROFILE_VERSION,
  profileEntry,
  rememberPostgresCredentials,
  confineEntry,
} from '../lake/index.js';
import { ingestTableEvents, type LineageEmitter, type LineageTable } from '../lineage/index.js';
import type { LakeEntry, TableProfile } from '../lake/types.js';
import { BadInputError, ErrorCode, GraftError } from '../util/errors.js';
import { isCorpusFitted, refreshEmbeddings } from './refreshEmbeddings.js';

export interface IngestProgress {
  phase: 'scan' | 'profile' | 'embeddings' | 'done';
  filesTotal: number;
  filesDone: number;
  rowsDone: number;
  current?: string;
}

export interface IngestIssue {
  path: string;
  code: string;
  message: string;
}

export interface IngestSummary {
  runId: string;
  /** interrupted: `signal` aborted it; the tables written before that stay (each is one transaction). */
  status: 'succeeded' | 'partial' | 'failed' | 'interrupted';
  path: string;
  filesSeen: number;
  tablesIngested: number;
  tablesSkipped: number;
  tablesFailed: number;
  tablesRemoved: number;
  rowsProfiled: number;
  errors: IngestIssue[];
  warnings: { path: string; message: string }[];
  durationMs: number;
}

export interface IngestOptions {
  embedder: Embedder;
  /** Rows profiled per table (statistics are sampled beyond this; counts stay exact). */
  sampleRows?: number;
  onProgress?: (p: IngestProgress) => void;
  /** Use a run row created by the caller (the API creates it to answer at once). */
  runId?: string;
  /** Remove catalog tables under the ingested root whose files are gone (default true). */
  removeMissing?: boolean;
  /** Governance events: START + COMPLETE / FAIL per table ingested or failed (src/lineage). */
  lineage?: LineageEmitter;
  /**
   * Stops the ingest between tables (the table being written commits or rolls back whole); the
   * run ends `interrupted`, nothing is removed, and columns left without embeddings are
   * embedded by the next ingest.
   */
  signal?: AbortSignal;
  /**
   * Confine every read to these folders (the API passes GRAFT_LAKE_ROOTS): each file's real path
   * is checked when it is read, and the resolved path is what gets read, so a file swapped for a
   * symlink out of the roots after the mutation's check fails FORBIDDEN as that file's error.
   */
  lakeRoots?: string[];
}

/** Where in the ingest a run row is: what the API's `ingestRun` polling shows. */
const PROGRESS_FLUSH_MS = 1000;

/**
 * The root a run records: a PostgreSQL schema's URL without password (credentials stay in this
 * process), an Iceberg REST catalog URL (no folder to stat or confine), else the absolute path.
 */
function ingestRoot(rootPath: string): { root: string; pgSource?: ReturnType<typeof parsePostgresSource>; isRest: boolean } {
  if (isPostgresUrl(rootPath)) {
    const pgSource = parsePostgresSource(rootPath);
    return { root: pgSource.root, pgSource, isRest: false };
  }
  if (isRestCatalogUrl(rootPath)) return { root: rootPath.replace(/\/+$/, ''), isRest: true };
  return { root: path.resolve(rootPath), isRest: false };
}

export async function startIngestRun(db: CatalogDatabase, rootPath: string): Promise<string> {
  return createIngestRun(db, ingestRoot(rootPath).root);
}

/**
 * Ingests a lake root (folder, file or SQLite database) into the catalog.
 *
 * Each table is profiled, embedded, linked to the existing catalog (incremental join/union
 * discovery against an in-memory index of what is already stored) and written in ONE
 * transaction. Unchanged files (same fingerprint) are skipped, so re-ingesting an unchanged
 * lake is a fast no-op and an ingest killed mid-way converges when re-run. Bad files are
 * recorded as per-file errors in the IngestRun and never stop the rest of the lake.
 */
export async function ingestLake(db: CatalogDatabase, rootPath: string, opts: IngestOptions): Promise<IngestSummary> {
  const started = Date.now();
  const { root, pgSource, isRest } = ingestRoot(rootPath);
  if (pgSource) rememberPostgresCredentials(pgSource);
  const rootStat = pgSource || isRest ? null : await stat(root).catch(() => null);
  if (!pgSource && !isRest && !rootStat) throw new BadInputError(`ingest path does not exist: ${root}`, { path: root });

  const store = new CatalogStore(db);
  const runId = opts.runId ?? (await startIngestRun(db, root));
  // A run of the same root still marked running whose process is gone was killed: say so
  // rather than leave it dangling (opening the catalog does the same for every root).
  await markDeadRunsInterrupted(db, { path: root, excludeId: runId });

  const summary: IngestSummary = {
    runId, status: 'succeeded', path: root, filesSeen: 0, tablesIngested: 0, tablesSkipped: 0, tablesFailed: 0,
    tablesRemoved: 0, rowsProfiled: 0, errors: [], warnings: [], durationMs: 0,
  };
  const progress: IngestProgress = { phase: 'scan', filesTotal: 0, filesDone: 0, rowsDone: 0 };
  const report = () => opts.onProgress?.({ ...progress });
  let lastFlush = 0;
  const flush = async (force = false) => {
    if (!force && Date.now() - lastFlush < PROGRESS_FLUSH_MS) return;
    lastFlush = Date.now();
    await db.prisma.ingestRun.update({
      where: { id: runId },
      data: {
        filesSeen: summary.filesSeen, tablesIngested: summary.tablesIngested, tablesSkipped: summary.tablesSkipped,
        tablesFailed: summary.tablesFailed, rowsProfiled: BigInt(summary.rowsProfiled),
        errors: summary.errors as object[], warnings: summary.warnings as object[],
      },
    });
  };

  try {
    report();
    const { entries, problems } = await listLakeEntries(root);
    for (const p of problems) summary.errors.push({ path: p.path, code: ErrorCode.LAKE_READ, message: p.message });
    summary.filesSeen = entries.length + problems.length;
    summary.tablesFailed += problems.length;
    progress.filesTotal = entries.length;
    progress.phase = 'profile';
    report();

    const kind = pgSource
      ? 'postgres'
      : isRest
        ? 'iceberg-rest'
        : rootStat!.isDirectory()
          ? 'folder'
          : entries[0]?.format === 'sqlite' || entries[0]?.format === 'iceberg'
            ? entries[0].format
            : 'file';
    const sourceId = await store.upsertSource(root, kind);
    const existing = await store.tablesByUri();
    const byFingerprint = new Map<string, string>();
    for (const t of existing.values()) byFingerprint.set(t.fingerprint, t.uri);
    const graphTables = await store.loadGraphTables();
    const graphById = new Map(graphTables.map((t) => [t.id, t]));
    const index = LakeGraphIndex.build(graphTables);
    await rederiveStaleEdges(db, store, index, graphTables.length, root, summary);

    const seen = new Set<string>();
    for (const entry of entries) {
      if (opts.signal?.aborted) break;
      const uri = entryUri(entry);
      seen.add(uri);
      progress.current = uri;
      const tableStarted = new Date();
      try {
        const old = existing.get(uri);
        // The entry as read: its real path, checked against the lake roots now (confine.ts).
        const readEntry = opts.lakeRoots && !pgSource && !isRest ? await confineEntry(entry, opts.lakeRoots) : entry;
        const fingerprint = await fingerprintEntry(readEntry);
        // A pending table (written by a run killed before its embeddings) is complete but for
        // its vectors: kept, and finished by the embeddings step below like this run's own. A
        // table an older profiler profiled (`PROFILE_VERSION`) is profiled again.
        if (old && old.fingerprint === fingerprint && old.profileVersion >= PROFILE_VERSION) {
          summary.tablesSkipped++;
        } else {
          const done = await ingestOne(readEntry, entry, uri, old, { store, index, graphById, sourceId, opts, byFingerprint, summary });
          const rows = done.profile.rowCount;
          summary.tablesIngested++;
          summary.rowsProfiled += rows;
          progress.rowsDone += rows;
          if (opts.lineage) {
            const table: LineageTable = { ...done.profile, id: done.tableId, sourceRoot: root };
            opts.lineage.emit(ingestTableEvents({ ingestRunId: runId, table, startedAt: tableStarted, finishedAt: new Date() }), [table]);
          }
        }
      } catch (err) {
        summary.tablesFailed++;
        const issue = toIssue(uri, err);
        summary.errors.push(issue);
        if (opts.lineage) {
          const table: LineageTable = { name: entryName(entry), uri, format: entry.format, sourceRoot: root };
          opts.lineage.emit(ingestTableEvents({ ingestRunId: runId, table, startedAt: tableStarted, finishedAt: new Date(), error: issue.message }), [table]);
        }
      }
      progress.filesDone++;
      report();
      await flush();
    }

    if (opts.signal?.aborted) {
      summary.status = 'interrupted';
      summary.warnings.push({ path: root, message: `interrupted after ${progress.filesDone} of ${entries.length} tables` });
      return summary;
    }

    if (opts.removeMissing !== false && (pgSource || rootStat?.isDirectory())) {
      // A table is kept when its file, or a folder holding it (a broken partitioned folder), failed to list.
      const failedPaths = problems.map((p) => p.path);
      const failed = (file: string) => failedPaths.some((p) => p === file || isUnder(file, p));
      for (const [uri, t] of existing) {
        const file = uri.split('#')[0];
        const under = pgSource ? file === root : isUnder(file, root);
        if (!seen.has(uri) && under && !failed(file)) {
          await store.deleteTable(t.id);
          index.removeTable(t.id);
          summary.tablesRemoved++;
          summary.warnings.push({ path: uri, message: 'no longer in the lake: removed from the catalog' });
        }
      }
    }

    const missing = await db.prisma.lakeColumn.count({ where: { embedding: { is: null } } });
    const pending = await store.pendingTableCount();
    if (summary.tablesIngested > 0 || summary.tablesRemoved > 0 || missing > 0 || pending > 0) {
      progress.phase = 'embeddings';
      progress.current = undefined;
      report();
      await refreshEmbeddings(store, opts.embedder);
    }
    // Only now, with every vector written, do this run's tables become visible.
    await store.markEmbeddedTablesReady();

    const ok = summary.tablesIngested + summary.tablesSkipped;
    summary.status = summary.tablesFailed === 0 ? 'succeeded' : ok > 0 ? 'partial' : 'failed';
  } catch (err) {
    summary.status = 'failed';
    summary.errors.push(toIssue(root, err));
    throw err;
  } finally {
    summary.durationMs = Date.now() - started;
    await flush(true).catch(() => {});
    await db.prisma.ingestRun
      .update({ where: { id: runId }, data: { status: summary.status, finishedAt: new Date() } })
      .catch(() => {});
    await opts.lineage?.flush();
    progress.phase = 'done';
    report();
  }
  return summary;
}

interface IngestContext {
  store: CatalogStore;
  index: LakeGraphIndex;
  graphById: Map<string, GraphTable>;
  sourceId: string;
  opts: IngestOptions;
  byFingerprint: Map<string, string>;
  summary: IngestSummary;
}

/** Profiles, embeds, links and writes one table; returns its catalog id and profile. */
async function ingestOne(
  entry: LakeEntry,
  listed: LakeEntry,
  uri: string,
  old: StoredTableBrief | undefined,
  ctx: IngestContext,
): Promise<{ tableId: string; profile: TableProfile }> {
  const profile = await profileEntry(entry, { sampleRows: ctx.opts.sampleRows });
  // Named and addressed as listed (a symlink inside the roots keeps its own name), read resolved.
  profile.uri = uri;
  if (listed.path !== entry.path && listed.format !== 'iceberg') profile.name = entryName(listed);
  for (const w of profile.warnings) ctx.summary.warnings.push({ path: uri, message: w });
  const twin = ctx.byFingerprint.get(profile.fingerprint);
  if (twin && twin !== uri) {
    const message = `identical content to ${twin} (kept: a duplicate file is still a lake object; it is linked by a union edge)`;
    profile.warnings.push(message);
    ctx.summary.warnings.push({ path: uri, message });
  }
  const prepared = prepareTable(ctx.sourceId, entry, profile);
  // Corpus-fitted vectors are computed once, from final statistics, after the whole run
  // (refreshEmbeddings); stateless embedders embed right here, inside the table's transaction.
  const embedder = ctx.opts.embedder;
  const embeddings = isCorpusFitted(embedder)
    ? undefined
    : { model: embedder.id, vectors: await embedder.embed(profile.columns.map((c) => columnEmbeddingText(profile.name, c))) };

  const oldGraph = old ? ctx.graphById.get(old.id) : undefined;
  if (oldGraph) ctx.index.removeTable(oldGraph.id);
  const graphTable = toGraphTable(prepared);
  const { joins, unions } = ctx.index.addTable(graphTable);
  try {
    await ctx.store.writeTable({
      table: prepared,
      embeddings,
      joins,
      unions,
      replaces: old?.id,
    });
  } catch (err) {
    // The transaction rolled back: the catalog still holds the old version, so must the index.
    ctx.index.removeTable(graphTable.id);
    if (oldGraph) ctx.index.addTable(oldGraph);
    throw err;
  }
  if (oldGraph) ctx.graphById.delete(oldGraph.id);
  ctx.graphById.set(graphTable.id, graphTable);
  ctx.byFingerprint.set(profile.fingerprint, uri);
  return { tableId: prepared.id, profile };
}

function isUnder(file: string, root: string): boolean {
  const rel = path.relative(root, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

function toIssue(pathName: string, err: unknown): IngestIssue {
  if (err instanceof GraftError) return { path: pathName, code: err.code, message: err.message };
  const message = err instanceof Error ? err.message : String(err);
  return { path: pathName, code: ErrorCode.INTERNAL, message: `${pathName}: ${message}` };
}

/**
 * Edges are derived when a table is ingested and then stored, so a catalog keeps the edges of the
 * rules it was ingested with. When they come from other rules than this code's
 * (`staleEdgeRules`), every edge is re-derived from the stored profiles (`index` already holds
 * them all) and replaced in one transaction, before this run adds its own tables. An empty
 * catalog just records the rules its first tables' edges will come from.
 */
async function rederiveStaleEdges(db: CatalogDatabase, store: CatalogStore, index: LakeGraphIndex, tableCount: number, root: string, summary: IngestSummary): Promise<void> {
  if (tableCount === 0) {
    await store.replaceAllEdges({ joins: [], unions: [] }, graphRulesVersion());
    return;
  }
  const stale = await staleEdgeRules(db, tableCount);
  if (!stale) return;
  const edges = index.allEdges();
  await store.replaceAllEdges(edges, stale.current);
  summary.warnings.push({
    path: root,
    message: `join and union edges of all ${tableCount} stored tables re-derived by rules ${stale.current} (they came from ${stale.origin}): ${edges.joins.length} joins, ${edges.unions.length} unions`,
  });
}
