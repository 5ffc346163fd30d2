/**
 * Lossless JSON for Iceberg metadata: snapshot ids, sequence numbers and file sizes are
 * 64-bit, and plain `JSON.parse` rounds integers above 2^53 (5298355539581857556 becomes
 * 5298355539581858000). Integer literals that do not fit a double exactly are turned into
 * `bigint`s; everything else parses as usual.
 */
const BIG_MARK = '\u0000bigint:';

export function parseJsonLossless(text: string): unknown {
  let out = '';
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === '"') {
      // copy the string literal verbatim (escapes included)
      let j = i + 1;
      while (j < n && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      let j = i + 1;
      while (j < n && /[0-9eE.+-]/.test(text[j])) j++;
      const lit = text.slice(i, j);
      if (/^-?\d+$/.test(lit) && !Number.isSafeInteger(Number(lit))) out += JSON.stringify(BIG_MARK + lit);
      else out += lit;
      i = j;
    } else {
      out += c;
      i++;
    }
  }
  return JSON.parse(out, (_key, value) =>
    typeof value === 'string' && value.startsWith(BIG_MARK) ? BigInt(value.slice(BIG_MARK.length)) : value,
  );
}

/** A JSON id (number, bigint or numeric string) as a bigint; null when absent. */
export function toBigInt(value: unknown): bigint | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  return null;
}
