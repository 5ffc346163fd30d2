import type { TableFilter } from '../../engine/types.js';
import { memoInto } from '../../util/boundedMemo.js';
import { BadInputError } from '../../util/errors.js';

/**
 * Grants say which catalog tables a token may see. A grant is a pattern over
 * `<source>.<table>`, where `<source>` is the basename of the lake root the table was ingested
 * from (`/data/lakes/sales` -> `sales`; a single-file or SQLite source keeps its file name,
 * `shop.sqlite`) and `<table>` is the table's name. `*` matches any run of characters, dots
 * included; everything else matches itself, case-sensitively. So `sales.*` is every table of
 * the `sales` root, `hr.employees` one table, `*.orders` every `orders` table, `*` everything.
 *
 * The same patterns are applied in two places that must agree: in JavaScript (the engine's
 * TableFilter) and in SQL (`LIKE`, for catalog queries); see `grantSql`.
 */

const MAX_GRANT_LENGTH = 256;

/** Throws BadInputError naming the offending pattern. */
export function validateGrant(pattern: string): string {
  const p = pattern.trim();
  if (p === '') throw new BadInputError('a grant pattern must not be empty');
  if (p.length > MAX_GRANT_LENGTH) throw new BadInputError(`grant '${p.slice(0, 40)}…' is longer than ${MAX_GRANT_LENGTH} characters`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(p)) throw new BadInputError(`grant '${p}' contains control characters`);
  if (p !== '*' && !p.includes('.')) {
    throw new BadInputError(`grant '${p}' must have the form <source>.<table> (wildcards: *), e.g. 'sales.*'`, { grant: p });
  }
  return p;
}

function globToRegExp(pattern: string): RegExp {
  const body = pattern
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[\\s\\S]*');
  return new RegExp(`^${body}$`);
}

/** `*` -> `%`; LIKE's own metacharacters (`%`, `_`, `\`) escaped with the default `\`. */
export function globToLike(pattern: string): string {
  return pattern.replace(/[\\%_]/g, '\\$&').replace(/\*/g, '%');
}

/**
 * The grant key of a table: `<basename of source root>.<table name>`. The basename is what
 * follows the last slash, exactly as the SQL side computes it (regexp_replace on the root path);
 * an engine passing an already-bare source name gets it back unchanged.
 */
export function grantKey(sourceRoot: string, tableName: string): string {
  return `${sourceRoot.slice(sourceRoot.lastIndexOf('/') + 1)}.${tableName}`;
}

/** Most distinct grant lists whose scopes are kept; past it the memory starts over. */
const MAX_BUILT_SCOPES = 1_000;
const builtScopes = new Map<string, GrantScope>();

/** What one caller may see. `unrestricted` (anonymous, or a `*` grant) skips every filter. */
export class GrantScope {
  readonly unrestricted: boolean;
  private readonly regexps: RegExp[];

  private constructor(readonly patterns: readonly string[], unrestricted: boolean) {
    this.unrestricted = unrestricted || patterns.includes('*');
    this.regexps = patterns.map(globToRegExp);
  }

  private static readonly everything = new GrantScope([], true);

  static all(): GrantScope {
    return GrantScope.everything;
  }

  /**
   * The scope of these grants. Every request builds its caller's scope, and a token's grants
   * rarely change: scopes are immutable, so one is shared per list of grants (checked and
   * compiled once, not per request).
   */
  static of(patterns: string[]): GrantScope {
    return memoInto(builtScopes, patterns.join('\u0000'), MAX_BUILT_SCOPES, () => new GrantScope(patterns.map(validateGrant), false));
  }

  allows(sourceRoot: string, tableName: string): boolean {
    if (this.unrestricted) return true;
    const key = grantKey(sourceRoot, tableName);
    return this.regexps.some((r) => r.test(key));
  }

  /** The engine-side filter (TableFilter); undefined when everything is visible. */
  tableFilter(): TableFilter | undefined {
    if (this.unrestricted) return undefined;
    return (t) => this.allows(t.sourceRoot, t.name);
  }

  /**
   * SQL condition admitting the granted tables, for a query joining `lake_table` as `t` and
   * `source` as `s` (aliases given). Pushes its one parameter onto `params`.
   */
  sql(params: unknown[], t = 't', s = 's'): string {
    if (this.unrestricted) return 'TRUE';
    if (this.patterns.length === 0) return 'FALSE';
    params.push(this.patterns.map(globToLike));
    return `((regexp_replace(${s}.root_path, '^.*/', '') || '.' || ${t}.name) LIKE ANY ($${params.length}::text[]))`;
  }
}
