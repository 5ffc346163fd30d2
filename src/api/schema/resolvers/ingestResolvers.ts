import 'reflect-metadata';
import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { CatalogStore } from '../../../catalog/store.js';
import { isUuid } from '../../catalog/cursor.js';
import type { RequestContext } from '../../context.js';
import { ForbiddenError } from '../../errors.js';
import { isPostgresUrl, isRestCatalogUrl } from '../../../lake/index.js';
import { confineCatalogUrl, confineDatabaseUrl, confineLakePath } from '../../lakeRoots.js';
import { IngestRun } from '../types/ingest.js';

/**
 * Grants are read grants: changing the catalog, or reading ingest runs (whose per-file errors
 * name any file of a lake), needs full access: anonymous (when enabled) or a token granted `*`.
 */
function requireFullAccess(ctx: RequestContext, what: string): void {
  if (!ctx.scope.unrestricted) throw new ForbiddenError(`${what} needs full access (a token granted '*')`);
}

type RunRow = {
  id: string;
  path: string;
  status: string;
  startedAt: Date;
  finishedAt: Date | null;
  filesSeen: number;
  tablesIngested: number;
  tablesSkipped: number;
  tablesFailed: number;
  rowsProfiled: bigint;
  errors: unknown;
  warnings: unknown;
};

function presentRun(r: RunRow): IngestRun {
  const errors = Array.isArray(r.errors) ? (r.errors as { path: string; code: string; message: string }[]) : [];
  const warnings = Array.isArray(r.warnings) ? (r.warnings as { path: string; message: string }[]) : [];
  return {
    id: r.id,
    path: r.path,
    status: r.status,
    startedAt: r.startedAt.toISOString(),
    finishedAt: r.finishedAt?.toISOString() ?? null,
    filesSeen: r.filesSeen,
    tablesIngested: r.tablesIngested,
    tablesSkipped: r.tablesSkipped,
    tablesFailed: r.tablesFailed,
    rowsProfiled: Number(r.rowsProfiled),
    errors: errors.map((e) => ({ path: String(e.path), code: String(e.code), message: String(e.message) })),
    warningCount: warnings.length,
    warnings: warnings.slice(0, 100).map((w) => ({ path: String(w.path), message: String(w.message) })),
  };
}

@Resolver()
export class IngestResolver {
  @Mutation(() => IngestRun, {
    description:
      'Starts ingesting a lake root (folder, file, SQLite or DuckDB database, Iceberg table or warehouse) under the configured lake roots, or a ' +
      'postgres:// schema or Iceberg REST catalog (http(s)://) on the configured sources, in the background; ' +
      'returns the run at once (status running). Poll ingestRun(id).',
  })
  async ingest(@Arg('path', () => String) lakePath: string, @Ctx() ctx: RequestContext): Promise<IngestRun> {
    requireFullAccess(ctx, 'ingest');
    const real = isPostgresUrl(lakePath)
      ? confineDatabaseUrl(lakePath, ctx.services.config.databaseSources)
      : isRestCatalogUrl(lakePath)
        ? confineCatalogUrl(lakePath, ctx.services.config.databaseSources)
        : await confineLakePath(lakePath, ctx.services.config.lakeRoots);
    const runId = await ctx.services.ingests.start(real, ctx.requestId);
    const run = await ctx.services.db.prisma.ingestRun.findUniqueOrThrow({ where: { id: runId } });
    return presentRun(run);
  }

  @Query(() => IngestRun, { nullable: true, description: 'An ingest run: status, counts and per-file errors.' })
  async ingestRun(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestContext): Promise<IngestRun | null> {
    requireFullAccess(ctx, 'ingestRun');
    if (!isUuid(id)) return null;
    const run = await ctx.services.db.prisma.ingestRun.findUnique({ where: { id } });
    return run ? presentRun(run) : null;
  }

  @Mutation(() => Boolean, {
    description: 'Removes a table (its columns, embeddings and edges) from the catalog; false when no such table exists. The lake file is untouched: a later ingest of its root adds it back.',
  })
  async deleteTable(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestContext): Promise<boolean> {
    requireFullAccess(ctx, 'deleteTable');
    if (!isUuid(id)) return false;
    const deleted = await new CatalogStore(ctx.services.db).deleteTable(id);
    ctx.loaders.tableById.clear(id);
    if (deleted) {
      ctx.log.info({ reqId: ctx.requestId, tableId: id }, 'table deleted');
      ctx.services.catalogChanged();
    }
    return deleted;
  }
}
