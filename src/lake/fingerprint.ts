/**
 * Streaming SHA-256 of a file's bytes, with a UTF-8 validity check done on the same pass
 * (the CSV reader needs to know the encoding before DuckDB touches the file: with
 * `ignore_errors` DuckDB would silently drop every line holding a Latin-1 byte).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { isUtf8 } from 'node:buffer';

export interface FileScan {
  /** `sha256:<hex>` of the file bytes. */
  fingerprint: string;
  bytes: number;
  /** Whether the whole file is valid UTF-8 (only computed when asked for). */
  utf8: boolean;
  /** The first bytes of the file (up to `headBytes`), for BOM and header checks. */
  head: Buffer;
}

/**
 * Length of the longest prefix of `buf` that does not end inside a multi-byte UTF-8
 * sequence, so chunk boundaries never split a character during validation.
 */
export function completeUtf8Prefix(buf: Buffer): number {
  const n = buf.length;
  for (let back = 1; back <= Math.min(4, n); back++) {
    const b = buf[n - back];
    if ((b & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead byte
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? n - back : n;
  }
  return n; // only continuation bytes at the end: invalid anyway, let isUtf8 judge
}

export async function scanFile(path: string, opts: { checkUtf8?: boolean; headBytes?: number } = {}): Promise<FileScan> {
  const checkUtf8 = opts.checkUtf8 ?? false;
  const headBytes = opts.headBytes ?? 64 * 1024;
  const hash = createHash('sha256');
  let bytes = 0;
  let utf8 = true;
  let carry: Buffer = Buffer.alloc(0);
  const headParts: Buffer[] = [];
  let headLen = 0;
  const stream = createReadStream(path, { highWaterMark: 1 << 20 });
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
    if (headLen < headBytes) {
      const part = chunk.subarray(0, headBytes - headLen);
      headParts.push(part);
      headLen += part.length;
    }
    if (checkUtf8 && utf8) {
      const buf = carry.length ? Buffer.concat([carry, chunk]) : chunk;
      const cut = completeUtf8Prefix(buf);
      if (!isUtf8(buf.subarray(0, cut))) utf8 = false;
      carry = Buffer.from(buf.subarray(cut));
    }
  }
  if (checkUtf8 && utf8 && carry.length > 0) utf8 = false; // truncated final character
  return { fingerprint: `sha256:${hash.digest('hex')}`, bytes, utf8, head: Buffer.concat(headParts) };
}
