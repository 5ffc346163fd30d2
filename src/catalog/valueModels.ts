import { createHash } from 'node:crypto';
import type { CatalogDatabase } from './database.js';
import { CatalogStore, GRAPH_RULES_STATE_KEY } from './store.js';
import { visibleTable } from './visibility.js';

/**
 * Identity of the lake a value model was trained on: sha256 over every ready table's uri and
 * content fingerprint, in uri order, and the rules version of the stored edges. Any ingest that
 * adds, drops or changes a table, or re-derives the edges, changes it, so a model never silently
 * scores a lake whose graph it has not seen.
 */
export async function lakeFingerprint(db: CatalogDatabase): Promise<string> {
  const tables = await db.prisma.lakeTable.findMany({ where: visibleTable, select: { uri: true, fingerprint: true }, orderBy: { uri: 'asc' } });
  const rules = await new CatalogStore(db).stateValue(GRAPH_RULES_STATE_KEY);
  const h = createHash('sha256');
  for (const t of tables) h.update(`${t.uri}\u0000${t.fingerprint}\n`);
  if (rules) h.update(`edges\u0000${rules}\n`);
  return h.digest('hex');
}

export interface ValueModelRecord {
  id: string;
  lakeFingerprint: string;
  featureVersion: number;
  inputDim: number;
  sampler: string;
  gamma: number;
  trajectories: number;
  transitions: number;
  heldOutMape: number;
  trainMs: number;
  metadata: Record<string, unknown>;
  createdAt: Date;
}

export interface StoredValueModel extends ValueModelRecord {
  onnx: Uint8Array;
}

export type NewValueModel = Omit<StoredValueModel, 'id' | 'createdAt'>;

// Listings never need the model bytes.
const WITHOUT_BYTES = { onnx: true } as const;

export async function saveValueModel(db: CatalogDatabase, m: NewValueModel): Promise<ValueModelRecord> {
  // Field by field: a caller holding a stored record must not smuggle its id or timestamp in.
  const row = await db.prisma.valueModel.create({
    data: {
      lakeFingerprint: m.lakeFingerprint, featureVersion: m.featureVersion, inputDim: m.inputDim, sampler: m.sampler, gamma: m.gamma,
      trajectories: m.trajectories, transitions: m.transitions, heldOutMape: m.heldOutMape, trainMs: m.trainMs,
      metadata: m.metadata as object, onnx: Buffer.from(m.onnx),
    },
    omit: WITHOUT_BYTES,
  });
  return { ...row, metadata: row.metadata as Record<string, unknown> };
}

/** Every stored model, newest first (without the ONNX bytes). */
export async function listValueModels(db: CatalogDatabase): Promise<ValueModelRecord[]> {
  const rows = await db.prisma.valueModel.findMany({ omit: WITHOUT_BYTES, orderBy: { createdAt: 'desc' } });
  return rows.map((r) => ({ ...r, metadata: r.metadata as Record<string, unknown> }));
}

/** The newest model trained on this lake state for this feature version, with its bytes. */
export async function latestValueModel(db: CatalogDatabase, fingerprint: string, featureVersion: number): Promise<StoredValueModel | null> {
  const row = await db.prisma.valueModel.findFirst({
    where: { lakeFingerprint: fingerprint, featureVersion },
    orderBy: { createdAt: 'desc' },
  });
  if (!row) return null;
  return { ...row, metadata: row.metadata as Record<string, unknown>, onnx: new Uint8Array(row.onnx) };
}
