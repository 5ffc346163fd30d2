/** pgvector text literal: `[0.1,0.2,...]`. Non-finite components are rejected, not stored. */
export function toVectorLiteral(v: ArrayLike<number>): string {
  const parts: string[] = new Array(v.length);
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (!Number.isFinite(x)) throw new Error(`embedding component ${i} is not finite (${x})`);
    parts[i] = String(x);
  }
  return `[${parts.join(',')}]`;
}

export function parseVectorLiteral(text: string): Float32Array {
  const body = text.trim().replace(/^\[/, '').replace(/\]$/, '');
  if (body === '') return new Float32Array(0);
  return Float32Array.from(body.split(',').map(Number));
}
