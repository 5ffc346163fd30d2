/**
 * The Iceberg REST catalog protocol (subset): `GET /v1/config` (for the `prefix` override),
 * `GET /v1/{prefix}/namespaces`, `GET /v1/{prefix}/namespaces/{ns}/tables` and
 * `GET /v1/{prefix}/namespaces/{ns}/tables/{table}` (load table: `metadata-location`).
 * A bearer token is sent when given (`ICEBERG_REST_TOKEN`). Data and metadata files must be
 * reachable as local paths (`file://` or plain); object stores are not read.
 */
import { LakeReadError } from '../../util/errors.js';
import type { CatalogTable } from './catalog.js';

export function isRestCatalogUrl(root: string): boolean {
  return /^https?:\/\//i.test(root);
}

async function getJson(url: string, token: string | undefined): Promise<Record<string, unknown>> {
  let res: Response;
  try {
    res = await fetch(url, { headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) } });
  } catch (err) {
    throw new LakeReadError(url, `Iceberg REST catalog unreachable: ${(err as Error).message}`);
  }
  const text = await res.text();
  if (!res.ok) throw new LakeReadError(url, `Iceberg REST catalog answered ${res.status}: ${text.slice(0, 200)}`);
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new LakeReadError(url, 'Iceberg REST catalog answered with invalid JSON');
  }
}

/** Every table of a REST catalog with its current metadata file; a table that fails to load becomes a problem. */
export async function restCatalogTables(baseUrl: string, token = process.env.ICEBERG_REST_TOKEN): Promise<CatalogTable[]> {
  const base = baseUrl.replace(/\/+$/, '');
  const config = await getJson(`${base}/v1/config`, token);
  const prefix = ((config.overrides as Record<string, string> | undefined)?.prefix ?? (config.defaults as Record<string, string> | undefined)?.prefix ?? '').replace(/^\/|\/$/g, '');
  const api = prefix ? `${base}/v1/${prefix.split('/').map(encodeURIComponent).join('/')}` : `${base}/v1`;
  const out: CatalogTable[] = [];
  const namespaces = ((await getJson(`${api}/namespaces`, token)).namespaces as string[][] | undefined) ?? [];
  for (const ns of namespaces) {
    // multi-level namespaces are joined with the unit separator, as the spec says
    const nsPath = encodeURIComponent(ns.join('\u001f'));
    const ids = ((await getJson(`${api}/namespaces/${nsPath}/tables`, token)).identifiers as { namespace: string[]; name: string }[]) ?? [];
    for (const id of ids) {
      const label = `${base}#${ns.join('.')}.${id.name}`;
      try {
        const table = await getJson(`${api}/namespaces/${nsPath}/tables/${encodeURIComponent(id.name)}`, token);
        const location = table['metadata-location'];
        if (typeof location !== 'string') out.push({ label, problem: 'load table answer has no metadata-location' });
        else out.push({ name: id.name, namespace: ns.join('.'), metadataPath: location.replace(/^file:(\/\/)?/, '') });
      } catch (err) {
        out.push({ label, problem: (err as Error).message });
      }
    }
  }
  return out;
}
