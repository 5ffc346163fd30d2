/** Bytes a stored value hash takes: a float64 (`valueHash` is 52 bits, exact in one). */
const HASH_BYTES = 8;

/** `ColumnProfile.valueHashes` as the catalog stores them (`lake_column.value_hashes`): float64s, little-endian. */
export function encodeValueHashes(hashes: readonly number[]): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(hashes.length * HASH_BYTES);
  const view = new DataView(bytes.buffer);
  hashes.forEach((h, i) => view.setFloat64(i * HASH_BYTES, h, true));
  return bytes;
}

/** The stored bytes back as hashes (null stays null: the column's top values hold all its values). */
export function decodeValueHashes(bytes: Uint8Array | null): Float64Array | null {
  if (!bytes) return null;
  if (bytes.byteLength % HASH_BYTES !== 0) throw new Error(`value_hashes holds ${bytes.byteLength} bytes, not a whole number of float64s`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float64Array(bytes.byteLength / HASH_BYTES);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat64(i * HASH_BYTES, true);
  return out;
}

/** SQL for how many hashes a `lake_column` row (by its alias) keeps, without reading them: 0 when none. */
export function hashedValueCountSql(alias: string): string {
  return `COALESCE(octet_length(${alias}.value_hashes) / ${HASH_BYTES}, 0)::int`;
}
