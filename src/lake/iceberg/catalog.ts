/**
 * Iceberg catalogs that list tables and their current metadata file.
 * - pyiceberg's SQL catalog: a SQLite file with an `iceberg_tables` table
 *   (catalog_name, table_namespace, table_name, metadata_location).
 */
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import Database from 'better-sqlite3';

export type CatalogTable = { name: string; namespace: string; metadataPath: string } | { label: string; problem: string };

/** Whether a SQLite file is a pyiceberg SQL catalog. */
export function isIcebergSqlCatalog(path: string): boolean {
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    return !!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'iceberg_tables'").get();
  } catch {
    return false;
  } finally {
    db?.close();
  }
}

/**
 * A metadata location written by the catalog (absolute, `file://`, or relative to where the
 * writer ran) as a local path: as written, else relative to the catalog file's folder or one
 * of its ancestors (moved warehouses).
 */
export function resolveCatalogPath(catalogFile: string, location: string): string | null {
  const p = location.replace(/^file:(\/\/)?/, '');
  if (isAbsolute(p) && existsSync(p)) return p;
  const rel = p.replace(/^\/+/, '');
  for (let dir = dirname(catalogFile); ; dir = dirname(dir)) {
    // try the whole path, then ever shorter tails of it, under each ancestor
    const parts = rel.split('/');
    for (let i = 0; i < parts.length; i++) {
      const local = join(dir, ...parts.slice(i));
      if (existsSync(local)) return local;
    }
    if (dirname(dir) === dir) return null;
  }
}

/** Tables of a pyiceberg SQL catalog; a row whose metadata file is missing becomes a problem. */
export function icebergCatalogTables(path: string): CatalogTable[] {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare('SELECT catalog_name, table_namespace, table_name, metadata_location FROM iceberg_tables ORDER BY table_namespace, table_name')
      .all() as { catalog_name: string; table_namespace: string; table_name: string; metadata_location: string | null }[];
    return rows.map((r) => {
      const label = `${path}#${r.table_namespace}.${r.table_name}`;
      if (!r.metadata_location) return { label, problem: 'catalog row has no metadata_location' };
      const metadataPath = resolveCatalogPath(path, r.metadata_location);
      if (!metadataPath) return { label, problem: `metadata file ${r.metadata_location} not found (also not relative to the catalog folder)` };
      return { name: r.table_name, namespace: r.table_namespace, metadataPath };
    });
  } finally {
    db.close();
  }
}
