/**
 * Which tables a gold SQL query reads: every name after FROM or JOIN (comma lists, aliases
 * `T1` / `AS t`, nested SELECTs and set operations included), matched case-insensitively to the
 * database's own table names. A small tokenizer rather than a full parser: Spider and BIRD SQL
 * only need strings, quoted identifiers ("…", `…`, […]) and parentheses told apart.
 */

interface Token {
  kind: 'word' | 'quoted' | 'string' | 'punct';
  text: string;
}

function tokenize(sql: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '-' && sql[i + 1] === '-') {
      while (i < n && sql[i] !== '\n') i++;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === "'") {
      // SQL string literal; '' escapes a quote.
      let j = i + 1;
      let text = '';
      while (j < n) {
        if (sql[j] === "'" && sql[j + 1] === "'") {
          text += "'";
          j += 2;
        } else if (sql[j] === "'") {
          break;
        } else {
          text += sql[j++];
        }
      }
      out.push({ kind: 'string', text });
      i = j + 1;
    } else if (c === '"' || c === '`' || c === '[') {
      const close = c === '[' ? ']' : c;
      let j = i + 1;
      let text = '';
      while (j < n) {
        if (sql[j] === close && sql[j + 1] === close && close !== ']') {
          text += close;
          j += 2;
        } else if (sql[j] === close) {
          break;
        } else {
          text += sql[j++];
        }
      }
      // Spider writes string values in double quotes; as a table reference it is an identifier.
      out.push({ kind: 'quoted', text });
      i = j + 1;
    } else if (/[\p{L}\p{N}_$]/u.test(c)) {
      let j = i;
      while (j < n && /[\p{L}\p{N}_$.]/u.test(sql[j])) j++;
      out.push({ kind: 'word', text: sql.slice(i, j) });
      i = j;
    } else {
      out.push({ kind: 'punct', text: c });
      i++;
    }
  }
  return out;
}

const CLAUSE_WORDS = new Set([
  'where', 'group', 'order', 'having', 'limit', 'union', 'intersect', 'except', 'join', 'inner', 'left', 'right',
  'full', 'outer', 'cross', 'natural', 'on', 'using', 'select', 'from', 'as', 'and', 'or', 'not', 'offset', 'window',
]);

/** Raw table references (as written, schema prefix removed) after FROM / JOIN, in order. */
export function sqlTableReferences(sql: string): string[] {
  const toks = tokenize(sql);
  const refs: string[] = [];
  const lower = (k: number) => (toks[k]?.kind === 'word' ? toks[k].text.toLowerCase() : '');
  const isName = (k: number) =>
    toks[k] !== undefined && (toks[k].kind === 'quoted' || (toks[k].kind === 'word' && !CLAUSE_WORDS.has(lower(k))));
  for (let k = 0; k < toks.length; k++) {
    const w = lower(k);
    if (w !== 'from' && w !== 'join') continue;
    let p = k + 1;
    // FROM a [AS] x, b [AS] y, ( SELECT ... ) ...; a '(' starts a sub-query that the scan reaches anyway.
    for (;;) {
      if (!isName(p)) break;
      const name = toks[p].text;
      refs.push(name.includes('.') && toks[p].kind === 'word' ? name.slice(name.lastIndexOf('.') + 1) : name);
      p++;
      if (lower(p) === 'as') p++;
      if (isName(p)) p++; // alias
      if (toks[p]?.kind === 'punct' && toks[p].text === ',') {
        p++;
        continue;
      }
      break;
    }
  }
  return refs;
}

export interface SqlTablesResult {
  /** The database's table names the query reads (its own spelling), sorted, without duplicates. */
  tables: string[];
  /** References that match no table of the database (aliases of sub-queries, typos). */
  unknown: string[];
}

/** Tables of `dbTables` read by `sql`, matched case-insensitively. */
export function sqlTables(sql: string, dbTables: readonly string[]): SqlTablesResult {
  const byLower = new Map(dbTables.map((t) => [t.toLowerCase(), t]));
  const tables = new Set<string>();
  const unknown = new Set<string>();
  for (const ref of sqlTableReferences(sql)) {
    const t = byLower.get(ref.toLowerCase());
    if (t) tables.add(t);
    else unknown.add(ref);
  }
  return { tables: [...tables].sort(), unknown: [...unknown].sort() };
}
