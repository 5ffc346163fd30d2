import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { findEscapingSymlink, isRestCatalogUrl, parsePostgresSource, realRoots, within } from '../lake/index.js';
import { BadInputError } from '../util/errors.js';
import { ForbiddenError } from './errors.js';

/**
 * Confines `ingest(path)` to the configured lake roots (GRAFT_LAKE_ROOTS); database URLs to the
 * allow-list GRAFT_DATABASE_SOURCES (`confineDatabaseUrl`).
 *
 * 1. A relative path is taken relative to each root in turn; an absolute one as it is.
 * 2. Lexical check: after resolving `.` and `..`, the path must lie in a root, else FORBIDDEN
 *    (checked before touching the file system, so outside paths are no existence oracle).
 * 3. The path must exist (BAD_USER_INPUT), and its realpath must still lie in a root's realpath:
 *    a symlink pointing out of the roots is FORBIDDEN.
 * 4. For a folder, no symlink inside it may point out of the roots either (the lake walker
 *    follows symlinks), else FORBIDDEN.
 *
 * This is the mutation-time check; every read re-checks the real path of what it opens
 * (src/lake/confine.ts), since a file can be swapped for a symlink after this check.
 */

/** Returns the real, confined path to ingest; throws BadInputError / ForbiddenError. */
export async function confineLakePath(input: string, roots: string[]): Promise<string> {
  const raw = input.trim();
  if (raw === '' || raw.includes('\u0000')) throw new BadInputError('path must be a non-empty path', { field: 'path' });
  if (roots.length === 0) throw new ForbiddenError('no lake roots are configured (GRAFT_LAKE_ROOTS): ingest is disabled');
  const candidates = path.isAbsolute(raw) ? [path.resolve(raw)] : roots.map((r) => path.resolve(r, raw));
  const inside = candidates.filter((c) => roots.some((r) => within(c, r)));
  if (inside.length === 0) throw new ForbiddenError('path is outside the configured lake roots', { field: 'path' });

  const reals = await realRoots(roots);
  for (const candidate of inside) {
    const st = await lstat(candidate).catch(() => null);
    if (!st) continue;
    const real = await realpath(candidate).catch(() => null);
    if (!real) continue;
    if (!reals.some((r) => within(real, r))) throw new ForbiddenError('path resolves (through a symlink) outside the configured lake roots', { field: 'path' });
    const realStat = await lstat(real);
    if (realStat.isDirectory()) {
      const escape = await findEscapingSymlink(real, reals);
      if (escape) {
        throw new ForbiddenError(`the lake contains a symlink pointing outside the configured lake roots: ${path.relative(real, escape)}`, { field: 'path' });
      }
    }
    return real;
  }
  throw new BadInputError(`path does not exist: ${raw}`, { field: 'path' });
}

/**
 * The allow-list check for `ingest(path: "postgres://…")`: the URL must name the host, port,
 * database and user of an entry of GRAFT_DATABASE_SOURCES, and its schema (default `public`)
 * must be the entry's when the entry names one (`?schema=`). Returns the URL to connect with:
 * the entry's credentials and the requested schema, so callers never send passwords.
 */
export function confineDatabaseUrl(url: string, allowed: string[]): string {
  const want = parsePostgresSource(url);
  const wantUrl = new URL(want.connectionString);
  for (const entry of allowed) {
    let have;
    try {
      have = parsePostgresSource(entry);
    } catch {
      continue; // a malformed entry allows nothing
    }
    const haveUrl = new URL(have.connectionString);
    const sameServer =
      haveUrl.hostname === wantUrl.hostname &&
      (haveUrl.port || '5432') === (wantUrl.port || '5432') &&
      haveUrl.pathname === wantUrl.pathname &&
      haveUrl.username === wantUrl.username;
    const schemaOk = !/[?&]schema=/.test(entry) || have.schema === want.schema;
    if (sameServer && schemaOk) {
      haveUrl.searchParams.set('schema', want.schema);
      return haveUrl.toString();
    }
  }
  throw new ForbiddenError(`database ${want.root} is not among the database sources this server may read (GRAFT_DATABASE_SOURCES)`);
}

/** A catalog URL compared the way a person writes it: scheme and host case-insensitive, no trailing slash. */
function catalogUrlKey(url: string): string | null {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`.toLowerCase() + u.search;
  } catch {
    return null;
  }
}

/**
 * The allow-list check for `ingest(path: "https://…")` (an Iceberg REST catalog): the URL must
 * be an `http(s)://` entry of GRAFT_DATABASE_SOURCES (trailing slash and host case aside). The
 * catalog's token comes from this process (ICEBERG_REST_TOKEN), never from the caller.
 */
export function confineCatalogUrl(url: string, allowed: string[]): string {
  const want = catalogUrlKey(url);
  if (want !== null) {
    for (const entry of allowed) {
      if (isRestCatalogUrl(entry) && catalogUrlKey(entry) === want) return entry.replace(/\/+$/, '');
    }
  }
  throw new ForbiddenError(`catalog ${url} is not among the sources this server may read (GRAFT_DATABASE_SOURCES)`);
}
