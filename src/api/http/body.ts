import type { IncomingMessage } from 'node:http';

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`request body is larger than ${limit} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

/**
 * Reads a request body as UTF-8, refusing more than `limit` bytes: at once when Content-Length
 * says so, otherwise as soon as the running total passes the limit (chunked uploads). After a
 * refusal the rest of the upload is read and dropped (up to 8x the limit, then the connection
 * is cut) so the client gets to read the 413 instead of a reset connection.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new BodyTooLargeError(limit));
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] = [];
    let total = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (refused) {
        if (total > limit * 8) req.destroy();
        return;
      }
      if (total > limit) {
        refused = true;
        chunks = [];
        reject(new BodyTooLargeError(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!refused) resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', (err) => {
      if (!refused) reject(err);
    });
  });
}

/** Header value a client may set as its request id: short and log-safe, else we make one. */
export function acceptableRequestId(v: string | string[] | undefined): string | undefined {
  const s = Array.isArray(v) ? v[0] : v;
  return s && /^[A-Za-z0-9._:@/-]{1,128}$/.test(s) ? s : undefined;
}
