/**
 * Avro object container files (manifest lists, manifests) read with avsc. Avro `long`s are
 * decoded as `bigint`: avsc's default long type refuses values above 2^53 ("potential
 * precision loss"), and snapshot ids use the whole 64-bit range.
 */
import avro from 'avsc';

const bigintLong = avro.types.LongType.__with({
  fromBuffer: (buf: Buffer) => buf.readBigInt64LE(),
  toBuffer: (n: bigint) => {
    const buf = Buffer.alloc(8);
    buf.writeBigInt64LE(BigInt(n));
    return buf;
  },
  fromJSON: (v: unknown) => BigInt(v as string | number),
  toJSON: (n: bigint) => Number(n),
  isValid: (n: unknown) => typeof n === 'bigint',
  compare: (a: bigint, b: bigint) => (a === b ? 0 : a < b ? -1 : 1),
});

/** Every record of an Avro file, longs as bigint. */
export function readAvroRecords(path: string): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const records: Record<string, unknown>[] = [];
    const decoder = avro.createFileDecoder(path, {
      parseHook: (schema: unknown) =>
        avro.Type.forSchema(schema as never, {
          registry: { long: bigintLong },
          // Writers such as BigQuery spell longs as {"type": "long", ...}: the registry alone misses those.
          typeHook: (s: unknown) =>
            s && typeof s === 'object' && (s as { type?: unknown }).type === 'long' && !(s as { logicalType?: unknown }).logicalType
              ? (bigintLong as never)
              : undefined,
        } as never),
    } as never);
    decoder.on('data', (r: Record<string, unknown>) => records.push(r));
    decoder.on('error', reject);
    decoder.on('end', () => resolve(records));
  });
}
