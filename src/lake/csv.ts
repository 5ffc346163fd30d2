/**
 * How CSV files are handed to DuckDB's `read_csv`.
 *
 * - Dialect (delimiter, quoting, header, column types) is sniffed by DuckDB from the first
 *   CSV_SNIFF_SAMPLE_ROWS lines (`auto_detect=true`); the sample size is fixed so every read
 *   of a file (profiling, previews, later fusion queries) sniffs the same way.
 * - `ignore_errors=true`: malformed lines (wrong column count, values that do not fit the
 *   sniffed type) are skipped instead of failing the query; profiling counts them through
 *   `store_rejects` and reports them as warnings. `null_padding` is deliberately NOT used:
 *   with it the sniffer widens the table to the longest ragged line (a bogus extra column)
 *   and pads short lines silently, so bad lines could no longer be counted.
 * - Encoding: DuckDB reads UTF-8, UTF-16 and Latin-1 natively. Files that are not valid
 *   UTF-8 are read as Latin-1 (every byte sequence is valid Latin-1, so nothing is dropped);
 *   a UTF-16 byte-order mark selects UTF-16.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { completeUtf8Prefix } from './fingerprint.js';
import { sqlString } from './sql.js';
import type { CsvReadOptions } from './types.js';

export const CSV_SNIFF_SAMPLE_ROWS = 20_480;

/** DuckDB's generated names for header-less / blank-header columns (`column0`, `column07`). */
export const DUCKDB_AUTO_NAME = /^column\d+$/;

/**
 * The `read_csv(...)` table expression for a file (or a list of files read as one table, as
 * for a partitioned folder); `extra` are further options (profiling's rejects tables).
 */
export function csvReadExpression(path: string | string[], csv: CsvReadOptions = {}, extra: string[] = []): string {
  const files = Array.isArray(path) ? `[${path.map(sqlString).join(', ')}]` : sqlString(path);
  const parts = [files, 'auto_detect=true', `sample_size=${CSV_SNIFF_SAMPLE_ROWS}`, 'ignore_errors=true'];
  if (csv.encoding && csv.encoding !== 'utf-8') parts.push(`encoding=${sqlString(csv.encoding)}`);
  if (csv.header !== undefined) parts.push(`header=${csv.header ? 'true' : 'false'}`);
  if (csv.names && csv.names.length > 0) parts.push(`names=[${csv.names.map(sqlString).join(', ')}]`);
  const types = Object.entries(csv.types ?? {});
  if (types.length > 0) parts.push(`types={${types.map(([k, v]) => `${sqlString(k)}: ${sqlString(v)}`).join(', ')}}`);
  parts.push(...extra);
  return `read_csv(${parts.join(', ')})`;
}

/** Encoding from a byte-order mark, if any. */
export function bomEncoding(head: Buffer): CsvReadOptions['encoding'] | undefined {
  if (head.length >= 2 && ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff))) return 'utf-16';
  return undefined;
}

/** Decode the first bytes of a file in the given encoding (for header parsing). */
export function decodeHead(head: Buffer, encoding: CsvReadOptions['encoding']): string {
  if (encoding === 'latin-1') return head.toString('latin1');
  if (encoding === 'utf-16') {
    const be = head[0] === 0xfe && head[1] === 0xff;
    return new TextDecoder(be ? 'utf-16be' : 'utf-16le').decode(head);
  }
  return new TextDecoder('utf-8').decode(head).replace(/^\uFEFF/, '');
}

/**
 * Cheap synchronous encoding guess from the first MiB, for `duckdbSourceExpression` calls
 * about files this process has not profiled. Profiling checks the whole file.
 */
export function quickCsvOptions(path: string): CsvReadOptions {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buf = Buffer.alloc(Math.min(1 << 20, statSync(path).size));
    const n = readSync(fd, buf, 0, buf.length, 0);
    const head = buf.subarray(0, n);
    const bom = bomEncoding(head);
    if (bom) return { encoding: bom };
    return isUtf8(head.subarray(0, completeUtf8Prefix(head))) ? {} : { encoding: 'latin-1' };
  } catch {
    return {}; // unreadable: let DuckDB produce the error when the expression is used
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Split one CSV line into fields (RFC 4180 quoting with a doubled quote as escape). */
export function splitCsvLine(line: string, delimiter: string, quote: string | null): string[] {
  const fields: string[] = [];
  let cur = '';
  let inQuotes = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote && ch === quote) {
      if (inQuotes && line[i + 1] === quote) {
        cur += quote;
        i++;
      } else inQuotes = !inQuotes;
    } else if (!inQuotes && line.startsWith(delimiter, i)) {
      fields.push(cur);
      cur = '';
      i += delimiter.length - 1;
    } else cur += ch;
  }
  fields.push(cur);
  return fields;
}

/**
 * Final column names: DuckDB's generated `columnN` names are replaced by `column_N`
 * (N = 0-based position) where the header cell is blank or the file has no header; real
 * header names (DuckDB already disambiguates duplicates as `name_1`) are kept. Returns null
 * when nothing changes.
 */
export function renameGeneratedColumns(
  duckNames: string[],
  headerFields: string[] | null,
): string[] | null {
  const generated = duckNames.map((n, i) => {
    if (!DUCKDB_AUTO_NAME.test(n)) return false;
    const cell = headerFields?.[i];
    // A real header cell literally named "column3" stays.
    return !(headerFields && cell !== undefined && cell.trim() !== '');
  });
  if (!generated.some(Boolean)) return null;
  // Real names win; renamed columns dodge them (a real header may already be "column_3").
  const taken = new Set(duckNames.filter((_, i) => !generated[i]));
  return duckNames.map((n, i) => {
    if (!generated[i]) return n;
    let name = `column_${i}`;
    for (let k = 1; taken.has(name); k++) name = `column_${i}_${k}`;
    taken.add(name);
    return name;
  });
}
