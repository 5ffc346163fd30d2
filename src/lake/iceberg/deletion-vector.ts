/**
 * Iceberg deletion vectors (format v3): the Puffin `deletion-vector-v1` blob that marks deleted
 * row positions of one data file, decoded here without a Roaring library.
 *
 * Blob layout (Iceberg Puffin spec): 4-byte big-endian length of magic + vector, magic
 * `D1 D3 39 64`, the vector as a 64-bit Roaring bitmap in the "portable" serialization
 * (little-endian uint64 bucket count, then per bucket a uint32 key, the high 32 bits of the
 * positions, and a standard 32-bit Roaring bitmap of the low 32 bits), and a 4-byte big-endian
 * CRC-32 of magic + vector. Every length, cookie, container and the CRC is checked, so a
 * damaged file is an error naming it rather than a wrong set of deleted rows.
 *
 * The blob normally sits inside a Puffin file (`PFA1` magic at both ends, JSON footer listing
 * the blobs); the manifest gives its offset and size. Older DuckDB versions wrote the blob
 * alone, without the container: such a bare blob is accepted only when its length prefix,
 * magic and CRC all check out, and the caller is told so (a warning on the table).
 */
import { readFileSync } from 'node:fs';
import { LakeReadError } from '../../util/errors.js';
import { parseJsonLossless, toBigInt } from './json.js';

/** Deleted positions as sorted, non-overlapping, non-adjacent half-open ranges [start, end). */
export type PositionRanges = [number, number][];

const DV_MAGIC = [0xd1, 0xd3, 0x39, 0x64];
const PUFFIN_MAGIC = Buffer.from('PFA1', 'ascii');
const SERIAL_COOKIE_NO_RUNCONTAINER = 12346;
const SERIAL_COOKIE = 12347;
const NO_OFFSET_THRESHOLD = 4;
/** Containers with more values than this are bitsets (8 KiB), fewer are sorted arrays. */
const ARRAY_MAX = 4096;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE, as zlib and java.util.zip.CRC32), the checksum deletion vectors carry. */
export function crc32(buf: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Appends positions in increasing order, merging touching ranges. */
class RangeBuilder {
  readonly ranges: PositionRanges = [];
  count = 0;
  add(start: number, end: number): void {
    const last = this.ranges[this.ranges.length - 1];
    if (last && start < last[1]) throw new Error('positions are not in increasing order');
    if (last && start === last[1]) last[1] = end;
    else this.ranges.push([start, end]);
    this.count += end - start;
  }
}

/** Bounds-checked little-endian reader over one blob. */
class Cursor {
  constructor(
    readonly buf: Buffer,
    public at: number,
    readonly end: number,
  ) {}
  need(n: number, what: string): void {
    if (this.at + n > this.end) throw new Error(`truncated ${what} at byte ${this.at}`);
  }
  u16(what: string): number {
    this.need(2, what);
    const v = this.buf.readUInt16LE(this.at);
    this.at += 2;
    return v;
  }
  u32(what: string): number {
    this.need(4, what);
    const v = this.buf.readUInt32LE(this.at);
    this.at += 4;
    return v;
  }
}

/**
 * Decodes one 32-bit Roaring bitmap (RoaringFormatSpec) starting at the cursor, adding
 * `base + value` for each value to `out`; leaves the cursor after its last container.
 */
function decodeRoaring32(cur: Cursor, base: number, out: RangeBuilder): void {
  const start = cur.at;
  const cookie = cur.u32('Roaring cookie');
  let size: number;
  let runFlags: Buffer | null = null;
  if (cookie === SERIAL_COOKIE_NO_RUNCONTAINER) {
    size = cur.u32('Roaring container count');
  } else if ((cookie & 0xffff) === SERIAL_COOKIE) {
    size = (cookie >>> 16) + 1;
    const n = Math.ceil(size / 8);
    cur.need(n, 'Roaring run-container flags');
    runFlags = cur.buf.subarray(cur.at, cur.at + n);
    cur.at += n;
  } else {
    throw new Error(`not a Roaring bitmap (cookie ${cookie}) at byte ${start}`);
  }
  if (size > 65536) throw new Error(`Roaring bitmap claims ${size} containers (at most 65536)`);
  const keys: number[] = [];
  const cards: number[] = [];
  for (let i = 0; i < size; i++) {
    keys.push(cur.u16('Roaring container key'));
    cards.push(cur.u16('Roaring container cardinality') + 1);
    if (i > 0 && keys[i] <= keys[i - 1]) throw new Error('Roaring container keys are not increasing');
  }
  let offsets: number[] | null = null;
  if (!runFlags || size >= NO_OFFSET_THRESHOLD) {
    offsets = [];
    for (let i = 0; i < size; i++) offsets.push(cur.u32('Roaring offset header'));
  }
  for (let i = 0; i < size; i++) {
    if (offsets && start + offsets[i] !== cur.at) throw new Error(`Roaring container ${i} offset ${offsets[i]} does not match its position`);
    const high = base + keys[i] * 65536;
    const isRun = runFlags !== null && (runFlags[i >> 3] & (1 << (i & 7))) !== 0;
    let seen = 0;
    if (isRun) {
      const runs = cur.u16('Roaring run count');
      for (let r = 0; r < runs; r++) {
        const from = cur.u16('Roaring run');
        const length = cur.u16('Roaring run') + 1;
        if (from + length > 65536) throw new Error('Roaring run extends past its container');
        out.add(high + from, high + from + length);
        seen += length;
      }
    } else if (cards[i] <= ARRAY_MAX) {
      for (let k = 0; k < cards[i]; k++) {
        const v = high + cur.u16('Roaring array container');
        out.add(v, v + 1);
      }
      seen = cards[i];
    } else {
      cur.need(8192, 'Roaring bitset container');
      for (let byte = 0; byte < 8192; byte++) {
        const bits = cur.buf[cur.at + byte];
        if (!bits) continue;
        for (let bit = 0; bit < 8; bit++) {
          if (bits & (1 << bit)) {
            const v = high + byte * 8 + bit;
            out.add(v, v + 1);
            seen++;
          }
        }
      }
      cur.at += 8192;
    }
    if (seen !== cards[i]) throw new Error(`Roaring container ${i} holds ${seen} values, its header says ${cards[i]}`);
  }
}

/** Decodes the 64-bit "portable" Roaring serialization that fills `buf[start, end)` exactly. */
export function decodeRoaring64(buf: Buffer, start = 0, end = buf.length): { ranges: PositionRanges; cardinality: number } {
  const cur = new Cursor(buf, start, end);
  cur.need(8, 'bucket count');
  const buckets = buf.readBigUInt64LE(cur.at);
  cur.at += 8;
  if (buckets > 0xffffffffn) throw new Error(`bucket count ${buckets} is out of range`);
  const out = new RangeBuilder();
  let previous = -1;
  for (let b = 0; b < Number(buckets); b++) {
    const key = cur.u32('bucket key');
    if (key <= previous) throw new Error('bucket keys are not increasing');
    // Positions are row numbers: beyond 2^53 they cannot be a file's rows (nor exact in JS).
    if (key >= 2 ** 21) throw new Error(`position key ${key} is beyond 2^53`);
    previous = key;
    decodeRoaring32(cur, key * 2 ** 32, out);
  }
  if (cur.at !== end) throw new Error(`${end - cur.at} bytes left after the bitmap`);
  return { ranges: out.ranges, cardinality: out.count };
}

/**
 * Decodes one `deletion-vector-v1` blob (length prefix, magic, bitmap, CRC). `file` names the
 * file in errors.
 */
export function decodeDeletionVectorBlob(blob: Buffer, file: string): { ranges: PositionRanges; cardinality: number } {
  const fail = (msg: string) => new LakeReadError(file, `invalid deletion vector: ${msg}`);
  if (blob.length < 12) throw fail(`blob of ${blob.length} bytes is too short`);
  const length = blob.readUInt32BE(0);
  if (length !== blob.length - 8) throw fail(`length prefix ${length} does not match the blob size ${blob.length} (expected ${blob.length - 8})`);
  if (!DV_MAGIC.every((b, i) => blob[4 + i] === b)) throw fail(`bad magic ${blob.subarray(4, 8).toString('hex')} (expected d1d33964)`);
  const stored = blob.readUInt32BE(blob.length - 4);
  const actual = crc32(blob.subarray(4, blob.length - 4));
  if (stored !== actual) throw fail(`CRC-32 mismatch (stored ${stored.toString(16).padStart(8, '0')}, computed ${actual.toString(16).padStart(8, '0')})`);
  try {
    return decodeRoaring64(blob, 8, blob.length - 4);
  } catch (err) {
    throw fail((err as Error).message);
  }
}

/** What the manifest says about one deletion vector. */
export interface DeletionVectorRef {
  /** Resolved local path of the Puffin file. */
  path: string;
  /** `referenced_data_file` as written in the manifest. */
  referencedDataFile: string;
  contentOffset: number;
  contentSizeInBytes: number;
  /** `record_count`: the number of deleted rows. */
  recordCount: number;
}

export interface DeletionVector {
  ranges: PositionRanges;
  cardinality: number;
  /** Set when the file is a bare blob without the Puffin container (older DuckDB writers). */
  warning?: string;
}

/**
 * Reads a deletion vector: the Puffin container is verified when present (magic at both ends,
 * footer listing a `deletion-vector-v1` blob at exactly this offset and size for this data
 * file), a bare blob is accepted with a warning, and the decoded cardinality must match the
 * manifest's record count. Errors name the Puffin file.
 */
export function readDeletionVector(ref: DeletionVectorRef, buf: Buffer = readFileSync(ref.path)): DeletionVector {
  const fail = (msg: string) => new LakeReadError(ref.path, `invalid deletion vector: ${msg}`);
  const { contentOffset: offset, contentSizeInBytes: size } = ref;
  if (!(offset >= 0 && size >= 0 && offset + size <= buf.length)) {
    throw fail(`blob at offset ${offset} of ${size} bytes lies outside the ${buf.length}-byte file`);
  }
  let warning: string | undefined;
  if (buf.subarray(0, 4).equals(PUFFIN_MAGIC)) {
    verifyPuffinFooter(buf, ref, fail);
  } else {
    warning =
      `deletion vector ${ref.path} is a bare blob without the Puffin container (as older DuckDB versions wrote); ` +
      'read because its length prefix, magic and CRC-32 check out';
  }
  const dv = decodeDeletionVectorBlob(buf.subarray(offset, offset + size), ref.path);
  if (dv.cardinality !== ref.recordCount) {
    throw fail(`it deletes ${dv.cardinality} rows but the manifest's record_count says ${ref.recordCount}`);
  }
  return warning ? { ...dv, warning } : dv;
}

function verifyPuffinFooter(buf: Buffer, ref: DeletionVectorRef, fail: (msg: string) => Error): void {
  // Footer: magic, payload, payload size (int32 LE), flags (4 bytes), magic.
  if (buf.length < 4 + 16 || !buf.subarray(buf.length - 4).equals(PUFFIN_MAGIC)) throw fail('Puffin file does not end with the PFA1 magic');
  const payloadSize = buf.readInt32LE(buf.length - 12);
  const flags = buf.readUInt32LE(buf.length - 8);
  const footerStart = buf.length - 12 - payloadSize - 4;
  if (payloadSize < 0 || footerStart < 4 || !buf.subarray(footerStart, footerStart + 4).equals(PUFFIN_MAGIC)) {
    throw fail(`Puffin footer of ${payloadSize} bytes does not start with the PFA1 magic`);
  }
  if (ref.contentOffset < 4 || ref.contentOffset + ref.contentSizeInBytes > footerStart) {
    throw fail(`blob at offset ${ref.contentOffset} of ${ref.contentSizeInBytes} bytes is not in the Puffin blob area`);
  }
  if (flags & 1) throw fail('the Puffin footer is compressed (LZ4), which this reader does not decode');
  let footer: { blobs?: Record<string, unknown>[] };
  try {
    footer = parseJsonLossless(buf.subarray(footerStart + 4, footerStart + 4 + payloadSize).toString('utf8')) as typeof footer;
  } catch (err) {
    throw fail(`Puffin footer is not valid JSON: ${(err as Error).message}`);
  }
  const blob = (footer.blobs ?? []).find(
    (b) => toBigInt(b.offset) === BigInt(ref.contentOffset) && toBigInt(b.length) === BigInt(ref.contentSizeInBytes),
  );
  if (!blob) throw fail(`the Puffin footer lists no blob at offset ${ref.contentOffset} of ${ref.contentSizeInBytes} bytes`);
  if (blob.type !== 'deletion-vector-v1') throw fail(`the blob at offset ${ref.contentOffset} is ${JSON.stringify(blob.type)}, not deletion-vector-v1`);
  if (blob['compression-codec'] != null) throw fail('the deletion vector blob is compressed, which the spec does not allow');
  const referenced = (blob.properties as Record<string, unknown> | undefined)?.['referenced-data-file'];
  if (referenced !== undefined && referenced !== ref.referencedDataFile) {
    throw fail(`the blob is for ${String(referenced)}, the manifest says ${ref.referencedDataFile}`);
  }
}

/** Most ranges a table's deletion vectors may have: each becomes a few bytes of scan SQL. */
export const MAX_DELETED_RANGES = 1_000_000;

/**
 * A DuckDB condition on `file_row_number` that drops the deleted positions. The ranges travel
 * as one string literal (`start` or `start:count`, comma-separated) expanded by DuckDB, which
 * parses far faster than a list literal of the same values.
 */
export function notDeletedSql(ranges: PositionRanges): string {
  const text = ranges.map(([s, e]) => (e - s === 1 ? String(s) : `${s}:${e - s}`)).join(',');
  const from = `split_part(r, ':', 1)::BIGINT`;
  const count = `coalesce(nullif(split_part(r, ':', 2), '')::BIGINT, 1)`;
  return `file_row_number NOT IN (SELECT unnest(range(${from}, ${from} + ${count})) FROM unnest(string_split('${text}', ',')) AS dv(r))`;
}
