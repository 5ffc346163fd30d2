import { deserialize, serialize } from 'node:v8';
import { LakeSnapshot } from '../search/index.js';

/**
 * The lake snapshot as one SharedArrayBuffer (V8 serialisation: typed-array embeddings stay
 * binary). Encoded once per catalog change on the main thread; every pool task carries the same
 * buffer, which is shared rather than copied, and a worker decodes it only when its generation
 * changes. Cheaper than structured-cloning the object graph per worker or per task.
 */
export function encodeSnapshot(snapshot: LakeSnapshot): SharedArrayBuffer {
  const bytes = serialize({ tables: snapshot.tables, joins: snapshot.joins, unions: snapshot.unions, embedderId: snapshot.embedderId });
  const shared = new SharedArrayBuffer(bytes.byteLength);
  new Uint8Array(shared).set(bytes);
  return shared;
}

export function decodeSnapshot(shared: SharedArrayBuffer): LakeSnapshot {
  const raw = deserialize(new Uint8Array(shared)) as Pick<LakeSnapshot, 'tables' | 'joins' | 'unions' | 'embedderId'>;
  return new LakeSnapshot(raw.tables, raw.joins, raw.unions, raw.embedderId);
}
