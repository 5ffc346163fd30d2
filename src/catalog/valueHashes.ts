/** `ColumnProfile.valueHashes` as the catalog stores them (`lake_column.value_hashes`): float64s, little-endian. */
export function encodeValueHashes(hashes: readonly number[]): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(hashes.length * 8);
  const view = new DataView(bytes.buffer);
  hashes.forEach((h, i) => view.setFloat64(i * 8, h, true));
  return bytes;
}

/** The stored bytes back as hashes (null stays null: the column's top values hold all its values). */
export function decodeValueHashes(bytes: Uint8Array | null): Float64Array | null {
  if (!bytes) return null;
  if (bytes.byteLength % 8 !== 0) throw new Error(`value_hashes holds ${bytes.byteLength} bytes, not a whole number of float64s`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float64Array(bytes.byteLength / 8);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat64(i * 8, true);
  return out;
}
