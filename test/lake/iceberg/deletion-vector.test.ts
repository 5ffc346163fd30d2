/**
 * The deletion-vector decoder on bitmaps written here by hand from the Roaring format spec
 * (github.com/RoaringBitmap/RoaringFormatSpec) and the Iceberg Puffin spec: array, bitset and
 * run containers, two 64-bit buckets, and a blob whose CRC no longer matches. The corpus test
 * (corpus.test.ts) covers a deletion vector another writer produced.
 */
import { describe, expect, it } from 'vitest';
import { crc32, decodeDeletionVectorBlob, decodeRoaring64 } from '../../../src/lake/iceberg/deletion-vector.js';

const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
};

/** A 32-bit Roaring bitmap without run containers (cookie 12346): array or bitset containers. */
function roaring32(containers: { key: number; values: number[] }[]): Buffer {
  const bodies = containers.map(({ values }) => {
    if (values.length <= 4096) return Buffer.concat(values.map(u16));
    const words = Buffer.alloc(8192);
    for (const v of values) words[v >> 3] |= 1 << (v & 7);
    return words;
  });
  const header = Buffer.concat([u32(12346), u32(containers.length), ...containers.flatMap((c) => [u16(c.key), u16(c.values.length - 1)])]);
  let offset = header.length + 4 * containers.length;
  const offsets = bodies.map((b) => {
    const o = u32(offset);
    offset += b.length;
    return o;
  });
  return Buffer.concat([header, ...offsets, ...bodies]);
}

/** A 32-bit Roaring bitmap of one run container (cookie 12347, fewer than 4 containers: no offsets). */
function roaring32Run(key: number, runs: [number, number][]): Buffer {
  const cardinality = runs.reduce((n, [, len]) => n + len, 0);
  const cookie = Buffer.alloc(4);
  cookie.writeUInt16LE(12347, 0);
  cookie.writeUInt16LE(0, 2); // size - 1
  return Buffer.concat([cookie, Buffer.from([1]), u16(key), u16(cardinality - 1), u16(runs.length), ...runs.flatMap(([s, len]) => [u16(s), u16(len - 1)])]);
}

function roaring64(buckets: { key: number; bitmap: Buffer }[]): Buffer {
  const count = Buffer.alloc(8);
  count.writeBigUInt64LE(BigInt(buckets.length));
  return Buffer.concat([count, ...buckets.flatMap((b) => [u32(b.key), b.bitmap])]);
}

function blob(vector: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from([0xd1, 0xd3, 0x39, 0x64]), vector]);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(body.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

describe('deletion vectors', () => {
  it('CRC-32 is the IEEE one (check value of "123456789")', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
  });

  it('array containers: scattered positions, touching ones merged into ranges', () => {
    const v = roaring64([{ key: 0, bitmap: roaring32([{ key: 0, values: [1, 5, 6, 7, 40] }]) }]);
    expect(decodeRoaring64(v)).toEqual({ ranges: [[1, 2], [5, 8], [40, 41]], cardinality: 5 });
  });

  it('a bitset container (more than 4096 values) and a second 16-bit key', () => {
    const evens = Array.from({ length: 5000 }, (_, i) => 2 * i);
    const v = roaring64([{ key: 0, bitmap: roaring32([{ key: 0, values: evens }, { key: 2, values: [3] }]) }]);
    const r = decodeRoaring64(v);
    expect(r.cardinality).toBe(5001);
    expect(r.ranges.slice(0, 2)).toEqual([[0, 1], [2, 3]]);
    expect(r.ranges.at(-2)).toEqual([9998, 9999]);
    expect(r.ranges.at(-1)).toEqual([2 * 65536 + 3, 2 * 65536 + 4]);
  });

  it('run containers, and positions past 2^32 in a second bucket', () => {
    const v = roaring64([
      { key: 0, bitmap: roaring32Run(0, [[100, 50], [1000, 1]]) },
      { key: 1, bitmap: roaring32([{ key: 0, values: [3] }]) },
    ]);
    expect(decodeRoaring64(v)).toEqual({ ranges: [[100, 150], [1000, 1001], [2 ** 32 + 3, 2 ** 32 + 4]], cardinality: 52 });
  });

  it('a blob checks length, magic and CRC; a damaged one is an error naming the file', () => {
    const b = blob(roaring64([{ key: 0, bitmap: roaring32([{ key: 0, values: [0, 2] }]) }]));
    expect(decodeDeletionVectorBlob(b, 'dv.puffin')).toEqual({ ranges: [[0, 1], [2, 3]], cardinality: 2 });
    const damaged = Buffer.from(b);
    damaged[damaged.length - 6] ^= 0x01;
    expect(() => decodeDeletionVectorBlob(damaged, 'dv.puffin')).toThrow(/dv\.puffin.*CRC-32 mismatch/);
    const badMagic = Buffer.from(b);
    badMagic[4] = 0;
    expect(() => decodeDeletionVectorBlob(badMagic, 'dv.puffin')).toThrow(/bad magic/);
  });
});
