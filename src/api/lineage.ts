/**
 * Governance events from the API and the CLI: the emitter configured by the environment and the
 * synthesis events (ingest events are emitted by src/ingest itself, given the emitter).
 *
 * - GRAFT_LINEAGE_URL: POST each OpenLineage run event (JSON) here; GRAFT_LINEAGE_API_KEY: bearer key.
 * - GRAFT_LINEAGE_FILE: append each event as one JSON line.
 * - GRAFT_LINEAGE_GRANTS: comma-separated grants (`sales.*,hr.employees`) of the consumer: events
 *   naming any other table are not sent. Default: every table.
 * - GRAFT_LINEAGE_TIMEOUT_MS: per-delivery limit (5000).
 */
import { randomUUID } from 'node:crypto';
import type { CatalogDatabase } from '../catalog/database.js';
import type { SynthesisResult } from '../engine/types.js';
import { LineageEmitter, synthesisEvents, type LineageTable, type LineageVisibility } from '../lineage/index.js';
import { envInt } from '../util/env.js';
import { BadInputError } from '../util/errors.js';
import { GrantScope } from './auth/grants.js';

type Env = Record<string, string | undefined>;

/** The emitter GRAFT_LINEAGE_* ask for, or undefined when neither a URL nor a file is set. */
export function lineageFromEnv(env: Env = process.env, warn?: (message: string) => void): LineageEmitter | undefined {
  const url = env.GRAFT_LINEAGE_URL?.trim() || undefined;
  const file = env.GRAFT_LINEAGE_FILE?.trim() || undefined;
  if (!url && !file) return undefined;
  if (url) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol)) {
      throw new BadInputError(`GRAFT_LINEAGE_URL must be an http(s) URL, not '${url}'`, { variable: 'GRAFT_LINEAGE_URL' });
    }
  }
  const grants = (env.GRAFT_LINEAGE_GRANTS ?? '').split(',').map((g) => g.trim()).filter(Boolean);
  let scope: GrantScope | undefined;
  try {
    scope = grants.length > 0 ? GrantScope.of(grants) : undefined;
  } catch (err) {
    throw new BadInputError(`GRAFT_LINEAGE_GRANTS: ${(err as Error).message}`, { variable: 'GRAFT_LINEAGE_GRANTS' });
  }
  const timeoutMs = envInt(env, 'GRAFT_LINEAGE_TIMEOUT_MS', 1) ?? 5000;
  return new LineageEmitter({
    url,
    file,
    apiKey: env.GRAFT_LINEAGE_API_KEY?.trim() || undefined,
    timeoutMs,
    visible: scope ? (root, name) => scope.allows(root, name) : undefined,
    onError: (err, event) => warn?.(`lineage event ${event.eventType} ${event.job.name} not delivered: ${(err as Error).message ?? String(err)}`),
  });
}

/**
 * Emits START + COMPLETE for a synthesis (its stored id as run id; a fresh one for the CLI).
 * Sent only if the sink and `callerVisible` (the caller's grants) see every chosen table.
 */
export async function emitSynthesisLineage(
  emitter: LineageEmitter | undefined,
  db: CatalogDatabase,
  result: SynthesisResult,
  startedAt: Date,
  callerVisible?: LineageVisibility,
): Promise<boolean> {
  if (!emitter) return false;
  const ids = result.tables.map((t) => t.id);
  const rows = await db.prisma.lakeTable.findMany({
    where: { id: { in: ids } },
    select: {
      id: true, name: true, uri: true, format: true, fingerprint: true,
      source: { select: { rootPath: true } },
      columns: { select: { name: true, logicalType: true }, orderBy: { ordinal: 'asc' } },
    },
  });
  const byId = new Map(rows.map((r) => [r.id, r]));
  // A table gone since the synthesis (re-ingest removed it) cannot be checked against grants: send nothing.
  if (ids.some((id) => !byId.has(id))) return false;
  const tables: (LineageTable & { role: string })[] = result.tables.map((t) => {
    const r = byId.get(t.id)!;
    return { id: r.id, name: r.name, uri: r.uri, format: r.format, fingerprint: r.fingerprint, sourceRoot: r.source.rootPath, columns: r.columns, role: t.role };
  });
  const events = synthesisEvents({
    synthesisId: result.id ?? randomUUID(),
    question: result.question,
    sql: result.plan.sql,
    tables,
    outputColumns: result.preview?.columns,
    startedAt,
    finishedAt: new Date(),
  });
  return emitter.emit(events, tables, callerVisible);
}
