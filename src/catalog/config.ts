import path from 'node:path';

/** Where the catalog lives. DATABASE_URL wins; otherwise the embedded PGlite directory. */
export interface CatalogLocation {
  databaseUrl?: string;
  /** PGlite data directory, or 'memory://' for a throwaway in-memory catalog. */
  dataDir: string;
}

export const DEFAULT_HOME = '.graft';

export function graftHome(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.GRAFT_HOME ?? DEFAULT_HOME);
}

export function catalogLocationFromEnv(env: NodeJS.ProcessEnv = process.env): CatalogLocation {
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  const dataDir = env.GRAFT_DB_DIR?.trim() || path.join(graftHome(env), 'db');
  return { databaseUrl, dataDir: dataDir === 'memory://' ? dataDir : path.resolve(dataDir) };
}

/** The location without credentials, for logs and `graft doctor`. */
export function describeLocation(loc: CatalogLocation): string {
  if (loc.databaseUrl) {
    try {
      const u = new URL(loc.databaseUrl);
      if (u.password) u.password = '***';
      return `postgres ${u.toString()}`;
    } catch {
      return 'postgres (unparseable DATABASE_URL)';
    }
  }
  return `pglite ${loc.dataDir}`;
}
