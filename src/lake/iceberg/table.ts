/**
 * Reading one Iceberg table: metadata.json -> current snapshot -> manifest list -> manifests
 * -> live data files and delete files, and the DuckDB SQL that scans them.
 *
 * - Columns are matched to Parquet columns by Iceberg field id (DuckDB `read_parquet(...,
 *   schema=MAP{field_id: {name, type, default_value}})`), so renamed, added and reordered
 *   columns read right; a column missing from a file gets its `initial-default` (or NULL).
 * - Identity partition values are column values: when a file does not carry the partition
 *   column (Spark `write.data.partition-columns=false`), its value comes from the manifest.
 * - Position deletes and equality deletes are anti-joined; their sequence numbers decide
 *   which data files they apply to (position: delete seq >= data seq, equality: >).
 * - Deletion vectors (v3, Puffin `deletion-vector-v1` blobs, decoded in deletion-vector.ts)
 *   apply to their `referenced_data_file` (delete seq >= data seq) and replace that file's
 *   position delete files, as the spec says. Their deleted positions travel in the scan SQL
 *   as one string literal of ranges, so `sql` stays a self-contained subquery; a table whose
 *   vectors hold more than MAX_DELETED_RANGES ranges is refused rather than read with deleted
 *   rows. A bare blob without the Puffin container (older DuckDB) is read with a warning when
 *   its length, magic and CRC check out.
 * - Moved warehouses: paths written in metadata (absolute, `file://`, `s3://`, or relative
 *   to where the writer ran) are resolved against the table folder this reader found: the
 *   metadata's `location` prefix is replaced by the real folder, and failing that the part
 *   from `/metadata/` or `/data/` on is looked up under it.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { LakeReadError } from '../../util/errors.js';
import { withDuckDB } from '../duckdb.js';
import { sqlIdent, sqlString } from '../sql.js';
import { readAvroRecords } from './avro.js';
import { MAX_DELETED_RANGES, notDeletedSql, readDeletionVector, type PositionRanges } from './deletion-vector.js';
import { parseJsonLossless, toBigInt } from './json.js';

type Json = Record<string, unknown>;

export interface IcebergField {
  id: number;
  name: string;
  /** Iceberg type: primitive name or nested type object. */
  type: unknown;
  initialDefault?: unknown;
}

export interface IcebergDataFile {
  /** Resolved local path. */
  path: string;
  /** The path as written in the manifest (delete files refer to data files by it). */
  writtenPath: string;
  recordCount: bigint;
  sequenceNumber: bigint;
  specId: number;
  partition: Json;
}

export interface IcebergDeleteFile extends IcebergDataFile {
  kind: 'position' | 'equality' | 'deletion-vector';
  equalityIds: number[];
  /** Deletion vectors: the data file they apply to, as written and resolved. */
  referencedDataFile?: { writtenPath: string; path: string };
  /** Deletion vectors: the deleted row positions of the referenced data file. */
  deletedRanges?: PositionRanges;
}

/** Everything a SQL builder needs to scan the current snapshot of a table. */
export interface IcebergScanPlan {
  /** The table folder (parent of `metadata/`). */
  tableDir: string;
  metadataPath: string;
  formatVersion: number;
  /** null for a table without snapshots (empty). */
  snapshotId: bigint | null;
  columns: IcebergField[];
  dataFiles: IcebergDataFile[];
  deleteFiles: IcebergDeleteFile[];
  /** Things a reader should know about how the table was read (e.g. a bare deletion vector blob). */
  warnings: string[];
  /** DuckDB table expression (a parenthesised subquery) giving the live rows. */
  sql: string;
}

/** The metadata.json an input names: a metadata file, or a table folder (version-hint.text or newest vN). */
export function findMetadataFile(input: string): string {
  const abs = resolve(input);
  if (!existsSync(abs)) throw new LakeReadError(abs, 'Iceberg table not found');
  if (statSync(abs).isFile()) return abs;
  const metaDir = basename(abs) === 'metadata' ? abs : join(abs, 'metadata');
  if (!existsSync(metaDir)) throw new LakeReadError(abs, 'not an Iceberg table: no metadata/ folder');
  const hint = join(metaDir, 'version-hint.text');
  const names = readdirSync(metaDir).filter((n) => n.endsWith('.metadata.json') && !n.startsWith('.'));
  if (existsSync(hint)) {
    const v = readFileSync(hint, 'utf8').trim();
    const candidates = [`v${v}.metadata.json`, `${v}.metadata.json`, `v${v}.gz.metadata.json`, v];
    for (const c of candidates) if (existsSync(join(metaDir, c)) && statSync(join(metaDir, c)).isFile()) return join(metaDir, c);
    const byPrefix = names.find((n) => n.startsWith(`${v}-`) || n.startsWith(`0000${v}-`.slice(-6 - String(v).length)));
    if (byPrefix) return join(metaDir, byPrefix);
  }
  if (names.length === 0) throw new LakeReadError(abs, 'not an Iceberg table: no *.metadata.json in metadata/');
  const version = (n: string) => Number(/^v?(\d+)/.exec(n)?.[1] ?? -1);
  names.sort((a, b) => version(a) - version(b) || a.localeCompare(b));
  return join(metaDir, names[names.length - 1]);
}

/** Whether a folder looks like an Iceberg table (has metadata/*.metadata.json). */
export function isIcebergTableDir(dir: string): boolean {
  const metaDir = join(dir, 'metadata');
  try {
    return statSync(metaDir).isDirectory() && readdirSync(metaDir).some((n) => n.endsWith('.metadata.json') && !n.startsWith('.'));
  } catch {
    return false;
  }
}

function readMetadata(path: string): Json {
  let text: string;
  try {
    const buf = readFileSync(path);
    text = buf[0] === 0x1f && buf[1] === 0x8b ? (gunzip(buf)) : buf.toString('utf8');
  } catch (err) {
    throw new LakeReadError(path, `cannot read Iceberg metadata: ${(err as Error).message}`);
  }
  let meta: unknown;
  try {
    meta = parseJsonLossless(text);
  } catch (err) {
    throw new LakeReadError(path, `Iceberg metadata is not valid JSON: ${(err as Error).message}`);
  }
  if (!meta || typeof meta !== 'object' || !('format-version' in meta)) {
    throw new LakeReadError(path, 'Iceberg metadata lacks "format-version"');
  }
  return meta as Json;
}

import { gunzipSync } from 'node:zlib';
function gunzip(buf: Buffer): string {
  return gunzipSync(buf).toString('utf8');
}

/** Resolves a path written in metadata to a local file (see "Moved warehouses" above). */
export function pathResolver(tableDir: string, location: string): (written: string) => string {
  const strip = (p: string) => p.replace(/^file:(\/\/)?/, '').replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  const loc = strip(location).replace(/\/+$/, '');
  return (written: string) => {
    const p = strip(written);
    if (loc && (p === loc || p.startsWith(`${loc}/`))) {
      const local = join(tableDir, p.slice(loc.length));
      if (existsSync(local)) return local;
    }
    if (isAbsolute(p) && existsSync(p)) return p;
    for (const marker of ['/metadata/', '/data/']) {
      const at = p.lastIndexOf(marker) >= 0 ? p.indexOf(marker, Math.max(0, p.indexOf(basename(tableDir)))) : -1;
      for (const idx of [at, p.lastIndexOf(marker)]) {
        if (idx < 0) continue;
        const local = join(tableDir, p.slice(idx + 1));
        if (existsSync(local)) return local;
      }
    }
    if (!isAbsolute(p)) {
      // Relative to the directory the writer ran in: some ancestor of the table folder.
      for (let dir = tableDir; ; dir = dirname(dir)) {
        const local = join(dir, p);
        if (existsSync(local)) return local;
        if (dirname(dir) === dir) break;
      }
    }
    return join(tableDir, p.startsWith(`${loc}/`) ? p.slice(loc.length + 1) : p);
  };
}

const PRIMITIVE_DUCKDB: Record<string, string> = {
  boolean: 'BOOLEAN',
  int: 'INTEGER',
  long: 'BIGINT',
  float: 'FLOAT',
  double: 'DOUBLE',
  date: 'DATE',
  time: 'TIME',
  timestamp: 'TIMESTAMP',
  timestamptz: 'TIMESTAMPTZ',
  timestamp_ns: 'TIMESTAMP_NS',
  timestamptz_ns: 'TIMESTAMPTZ',
  string: 'VARCHAR',
  uuid: 'UUID',
  binary: 'BLOB',
};

/** DuckDB type of an Iceberg type. */
export function duckdbType(type: unknown): string {
  if (typeof type === 'string') {
    if (PRIMITIVE_DUCKDB[type]) return PRIMITIVE_DUCKDB[type];
    const dec = /^decimal\((\d+),\s*(\d+)\)$/.exec(type);
    if (dec) return `DECIMAL(${dec[1]},${dec[2]})`;
    if (/^fixed\[\d+\]$/.test(type)) return 'BLOB';
    return 'VARCHAR';
  }
  const t = type as Json;
  if (t.type === 'struct') {
    const fields = (t.fields as Json[]).map((f) => `${sqlIdent(String(f.name))} ${duckdbType(f.type)}`);
    return `STRUCT(${fields.join(', ')})`;
  }
  if (t.type === 'list') return `${duckdbType(t.element)}[]`;
  if (t.type === 'map') return `MAP(${duckdbType(t.key)}, ${duckdbType(t.value)})`;
  return 'VARCHAR';
}

/** A DuckDB literal for an Iceberg value in its single-value JSON / Avro partition form. */
export function icebergLiteral(type: unknown, value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  const t = typeof type === 'string' ? type : '';
  const cast = duckdbType(type);
  if (Buffer.isBuffer(value)) {
    const dec = /^decimal\((\d+),\s*(\d+)\)$/.exec(t);
    if (dec) {
      let n = 0n;
      for (const b of value) n = (n << 8n) | BigInt(b);
      if (value.length && value[0] & 0x80) n -= 1n << BigInt(8 * value.length);
      const scale = Number(dec[2]);
      const neg = n < 0n;
      const digits = (neg ? -n : n).toString().padStart(scale + 1, '0');
      const text = scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
      return `${neg ? '-' : ''}${text}::${cast}`;
    }
    if (t === 'uuid') {
      const h = value.toString('hex');
      return `'${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}'::UUID`;
    }
    return `from_hex('${value.toString('hex')}')`;
  }
  if ((t === 'binary' || /^fixed\[/.test(t)) && typeof value === 'string') return `from_hex(${sqlString(value)})`;
  switch (t) {
    case 'date':
      return typeof value === 'string' ? `${sqlString(value)}::DATE` : `(DATE '1970-01-01' + ${Number(value)})`;
    case 'time':
      return typeof value === 'string' ? `${sqlString(value)}::TIME` : `(TIME '00:00:00' + to_microseconds(${String(value)}))`;
    case 'timestamp':
      return typeof value === 'string' ? `${sqlString(value)}::TIMESTAMP` : `make_timestamp(${String(value)})`;
    case 'timestamptz':
      return typeof value === 'string'
        ? `${sqlString(value)}::TIMESTAMPTZ`
        : `(TIMESTAMPTZ '1970-01-01 00:00:00+00' + to_microseconds(${String(value)}))`;
    case 'timestamp_ns':
    case 'timestamptz_ns':
      return typeof value === 'string' ? `${sqlString(value)}::${cast}` : `make_timestamp_ns(${String(value)})::${cast}`;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
    case 'uuid':
      return `${sqlString(String(value))}::${cast}`;
    default:
      if (typeof value === 'object') return `${sqlString(JSON.stringify(value))}::${cast}`;
      // quoted so that e.g. -9223372036854775808 is one literal, not the negation of an overflow
      return `${sqlString(String(value))}::${cast}`;
  }
}

function schemaFields(meta: Json): IcebergField[] {
  const schemas = (meta.schemas as Json[] | undefined) ?? (meta.schema ? [meta.schema as Json] : []);
  const id = meta['current-schema-id'];
  const schema = schemas.find((s) => s['schema-id'] === id) ?? schemas[schemas.length - 1];
  if (!schema) throw new Error('no schema');
  return (schema.fields as Json[]).map((f) => ({
    id: Number(f.id),
    name: String(f.name),
    type: f.type,
    initialDefault: f['initial-default'],
  }));
}

/** Identity-partition source field id -> partition field name, per spec id. */
function identityPartitions(meta: Json): Map<number, Map<number, string>> {
  const specs = (meta['partition-specs'] as Json[] | undefined) ?? [];
  const out = new Map<number, Map<number, string>>();
  for (const spec of specs) {
    const m = new Map<number, string>();
    for (const f of (spec.fields as Json[]) ?? []) if (f.transform === 'identity') m.set(Number(f['source-id']), String(f.name));
    out.set(Number(spec['spec-id']), m);
  }
  if (meta['partition-spec'] && !out.size) {
    const m = new Map<number, string>();
    for (const f of meta['partition-spec'] as Json[]) if (f.transform === 'identity') m.set(Number(f['source-id']), String(f.name));
    out.set(0, m);
  }
  return out;
}

/** Loads a table's current snapshot and plans its scan. Errors name the metadata file. */
/**
 * Plans of recently read tables, by metadata file (size and mtime included). A metadata file is
 * never rewritten in place (a commit writes a new one), so fusing or previewing the same
 * snapshot again reuses the plan instead of re-reading its manifests and deletion vectors.
 */
const PLAN_CACHE_SIZE = 64;
const planCache = new Map<string, Promise<IcebergScanPlan>>();

export async function loadIcebergTable(input: string): Promise<IcebergScanPlan> {
  const metadataPath = findMetadataFile(input);
  const st = statSync(metadataPath);
  const key = `${metadataPath}\0${st.size}\0${st.mtimeMs}`;
  const cached = planCache.get(key);
  if (cached) return cached;
  const planned = planIcebergTable(metadataPath);
  planCache.set(key, planned);
  planned.catch(() => planCache.delete(key));
  while (planCache.size > PLAN_CACHE_SIZE) planCache.delete(planCache.keys().next().value!);
  return planned;
}

async function planIcebergTable(metadataPath: string): Promise<IcebergScanPlan> {
  const meta = readMetadata(metadataPath);
  const metaDir = dirname(metadataPath);
  const tableDir = basename(metaDir) === 'metadata' ? dirname(metaDir) : metaDir;
  const where = (msg: string, err?: unknown) =>
    new LakeReadError(metadataPath, err ? `${msg}: ${(err as Error).message}` : msg);
  let columns: IcebergField[];
  try {
    columns = schemaFields(meta);
  } catch (err) {
    throw where('Iceberg metadata has no usable schema', err);
  }
  // DuckDB names are case-insensitive: a column differing from an earlier one only in case
  // (legal in Iceberg) is read as `<name>_<field id>` so the table still reads.
  const taken = new Set<string>();
  columns = columns.map((c) => {
    const name = taken.has(c.name.toLowerCase()) ? `${c.name}_${c.id}` : c.name;
    taken.add(name.toLowerCase());
    return name === c.name ? c : { ...c, name };
  });
  const formatVersion = Number(meta['format-version']);
  const resolvePath = pathResolver(tableDir, String(meta.location ?? ''));
  const snapshotId = toBigInt(meta['current-snapshot-id']);
  const dataFiles: IcebergDataFile[] = [];
  const deleteFiles: IcebergDeleteFile[] = [];
  const warnings: string[] = [];
  if (snapshotId !== null && snapshotId !== -1n) {
    const snapshot = ((meta.snapshots as Json[]) ?? []).find((s) => toBigInt(s['snapshot-id']) === snapshotId);
    if (!snapshot) throw where(`current snapshot ${snapshotId} is not in "snapshots"`);
    let manifests: { path: string; content: number; seq: bigint; specId: number }[];
    if (snapshot['manifest-list']) {
      const listPath = resolvePath(String(snapshot['manifest-list']));
      let list: Json[];
      try {
        list = await readAvroRecords(listPath);
      } catch (err) {
        throw where(`cannot read manifest list ${listPath}`, err);
      }
      manifests = list.map((m) => ({
        path: String(m.manifest_path),
        content: Number(m.content ?? 0),
        seq: toBigInt(m.sequence_number) ?? 0n,
        specId: Number(m.partition_spec_id ?? 0),
      }));
    } else {
      manifests = ((snapshot.manifests as string[]) ?? []).map((p) => ({ path: p, content: 0, seq: 0n, specId: 0 }));
    }
    for (const m of manifests) {
      const manifestPath = resolvePath(m.path);
      let entries: Json[];
      try {
        entries = await readAvroRecords(manifestPath);
      } catch (err) {
        throw where(`cannot read manifest ${manifestPath}`, err);
      }
      for (const e of entries) {
        if (Number(e.status) === 2) continue; // DELETED entry
        const df = e.data_file as Json;
        const content = Number(df.content ?? m.content ?? 0);
        const format = String(df.file_format ?? 'PARQUET').toUpperCase();
        const seq = toBigInt(e.sequence_number) ?? m.seq;
        const file: IcebergDataFile = {
          path: resolvePath(String(df.file_path)),
          writtenPath: String(df.file_path),
          recordCount: toBigInt(df.record_count) ?? 0n,
          sequenceNumber: seq,
          specId: Number(df.spec_id ?? m.specId),
          partition: (df.partition as Json) ?? {},
        };
        if (content === 0) {
          if (format !== 'PARQUET') throw where(`data file ${file.path} is ${format}; only Parquet is read`);
          dataFiles.push(file);
        } else if (format === 'PUFFIN' || (df.referenced_data_file && df.content_offset != null)) {
          const referenced = String(df.referenced_data_file ?? '');
          if (!referenced || df.content_offset == null || df.content_size_in_bytes == null) {
            throw where(`deletion vector ${file.path} lacks referenced_data_file, content_offset or content_size_in_bytes`);
          }
          let buf: Buffer;
          try {
            buf = readFileSync(file.path);
          } catch (err) {
            throw where(`cannot read deletion vector ${file.path}`, err);
          }
          const dv = readDeletionVector(
            {
              path: file.path,
              referencedDataFile: referenced,
              contentOffset: Number(df.content_offset),
              contentSizeInBytes: Number(df.content_size_in_bytes),
              recordCount: Number(file.recordCount),
            },
            buf,
          );
          if (dv.warning) warnings.push(dv.warning);
          deleteFiles.push({
            ...file,
            kind: 'deletion-vector',
            equalityIds: [],
            referencedDataFile: { writtenPath: referenced, path: resolvePath(referenced) },
            deletedRanges: dv.ranges,
          });
        } else {
          deleteFiles.push({
            ...file,
            kind: content === 1 ? 'position' : 'equality',
            equalityIds: ((df.equality_ids as number[] | null) ?? []).map(Number),
          });
        }
      }
    }
  }
  const deletedRanges = deleteFiles.reduce((n, d) => n + (d.deletedRanges?.length ?? 0), 0);
  if (deletedRanges > MAX_DELETED_RANGES) {
    throw where(
      `deletion vectors hold ${deletedRanges} ranges of deleted rows, more than the ${MAX_DELETED_RANGES} this reader inlines into its scan; not read so deleted rows are not counted`,
    );
  }
  const plan = { tableDir, metadataPath, formatVersion, snapshotId, columns, dataFiles, deleteFiles, warnings, sql: '' };
  let fileColumns: Map<string, ParquetColumns>;
  try {
    fileColumns = await parquetColumns(dataFiles.map((f) => f.path));
  } catch (err) {
    throw where('cannot read the Parquet data files', err);
  }
  plan.sql = icebergScanSql(plan, identityPartitions(meta), fileColumns, nameMapping(meta));
  return plan;
}

function schemaMap(columns: IcebergField[]): string {
  const entries = columns.map((c) => `${c.id}: {name: ${sqlString(c.name)}, type: ${sqlString(duckdbType(c.type))}, default_value: NULL}`);
  return `MAP {${entries.join(', ')}}`;
}

/** Field ids and column names a Parquet file carries, from its footer. */
export interface ParquetColumns {
  fieldIds: Set<number>;
  names: Set<string>;
}

/** `ParquetColumns` of each file, read from the file footers in one query. */
async function parquetColumns(paths: string[]): Promise<Map<string, ParquetColumns>> {
  const out = new Map<string, ParquetColumns>(paths.map((p) => [p, { fieldIds: new Set<number>(), names: new Set<string>() }]));
  if (!paths.length) return out;
  const list = paths.map(sqlString).join(', ');
  await withDuckDB(async (con) => {
    const rows = (await con.runAndReadAll(`SELECT file_name, field_id, name FROM parquet_schema([${list}])`)).getRows();
    for (const [file, id, name] of rows) {
      const cols = out.get(String(file));
      if (!cols) continue;
      if (id !== null) cols.fieldIds.add(Number(id));
      cols.names.add(String(name));
    }
  });
  return out;
}

/** Field id -> names from the `schema.name-mapping.default` property (for files written without field ids). */
function nameMapping(meta: Json): Map<number, string[]> {
  const out = new Map<number, string[]>();
  const raw = (meta.properties as Json | undefined)?.['schema.name-mapping.default'];
  if (typeof raw !== 'string') return out;
  try {
    for (const m of JSON.parse(raw) as Json[]) if (m['field-id'] != null) out.set(Number(m['field-id']), (m.names as string[]) ?? []);
  } catch {
    // an unreadable mapping: fall back to column names
  }
  return out;
}

/** Whether an equality delete file applies to a data file: same partition, or an unpartitioned delete. */
function samePartition(d: IcebergDataFile, f: IcebergDataFile): boolean {
  const keys = Object.keys(d.partition);
  if (keys.length === 0) return true;
  if (d.specId !== f.specId) return false;
  const text = (v: unknown) => (Buffer.isBuffer(v) ? v.toString('hex') : String(v));
  return keys.every((k) => text(d.partition[k]) === text(f.partition[k]));
}

/**
 * The DuckDB subquery giving the live rows of a plan: one `read_parquet` per data file
 * (columns matched by field id; a column the file lacks is its identity partition value,
 * its initial default, or NULL), minus deletion vectors, position and equality deletes. Exposed for SQL
 * builders (fusion) that need an Iceberg table.
 */
export function icebergScanSql(
  plan: Omit<IcebergScanPlan, 'sql' | 'warnings'>,
  identity: Map<number, Map<number, string>>,
  fileColumns: Map<string, ParquetColumns>,
  mapping: Map<number, string[]> = new Map(),
): string {
  if (plan.dataFiles.length === 0) {
    const empty = plan.columns.map((c) => `NULL::${duckdbType(c.type)} AS ${sqlIdent(c.name)}`).join(', ');
    return `(SELECT ${empty} WHERE false)`;
  }
  const byId = new Map(plan.columns.map((c) => [c.id, c]));
  const parts = plan.dataFiles.map((f) => {
    const cols = fileColumns.get(f.path) ?? { fieldIds: new Set<number>(), names: new Set<string>() };
    // Files without field ids (imported Parquet) are matched by name: the name mapping, then the column name.
    const byName = cols.fieldIds.size === 0;
    const fileName = new Map<number, string>();
    if (byName) {
      for (const c of plan.columns) {
        const name = [...(mapping.get(c.id) ?? []), c.name].find((n) => cols.names.has(n));
        if (name !== undefined) fileName.set(c.id, name);
      }
    }
    const present = byName ? new Set(fileName.keys()) : cols.fieldIds;
    const partitionValue = new Map<number, string>();
    for (const [sourceId, partName] of identity.get(f.specId) ?? []) {
      const col = byId.get(sourceId);
      if (col && partName in f.partition) partitionValue.set(sourceId, icebergLiteral(col.type, f.partition[partName]));
    }
    const projection = plan.columns.map((c) => {
      if (byName && present.has(c.id)) return `${sqlIdent(fileName.get(c.id)!)}::${duckdbType(c.type)} AS ${sqlIdent(c.name)}`;
      if (present.has(c.id)) return sqlIdent(c.name);
      const literal =
        partitionValue.get(c.id) ?? (c.initialDefault !== undefined ? icebergLiteral(c.type, c.initialDefault) : `NULL::${duckdbType(c.type)}`);
      return `${literal} AS ${sqlIdent(c.name)}`;
    });
    const read = plan.columns.filter((c) => present.has(c.id));
    const conditions: string[] = [];
    const vectors = plan.deleteFiles.filter(
      (d) =>
        d.kind === 'deletion-vector' &&
        d.sequenceNumber >= f.sequenceNumber &&
        (d.referencedDataFile?.writtenPath === f.writtenPath || d.referencedDataFile?.path === f.path),
    );
    for (const d of vectors) if (d.deletedRanges?.length) conditions.push(notDeletedSql(d.deletedRanges));
    // A deletion vector holds all position deletes of its data file: position delete files are then ignored.
    const positional = vectors.length ? [] : plan.deleteFiles.filter((d) => d.kind === 'position' && d.sequenceNumber >= f.sequenceNumber);
    if (positional.length) {
      const list = positional.map((d) => sqlString(d.path)).join(', ');
      conditions.push(`file_row_number NOT IN (SELECT pos FROM read_parquet([${list}]) WHERE file_path = ${sqlString(f.writtenPath)})`);
    }
    for (const d of plan.deleteFiles.filter((x) => x.kind === 'equality' && x.sequenceNumber > f.sequenceNumber && samePartition(x, f))) {
      const eqCols = d.equalityIds.map((id) => byId.get(id)).filter((c): c is IcebergField => !!c);
      if (!eqCols.length) continue;
      const value = (c: IcebergField) =>
        present.has(c.id) ? `t.${sqlIdent(fileName.get(c.id) ?? c.name)}` : (partitionValue.get(c.id) ?? 'NULL');
      const match = eqCols.map((c) => `d.${sqlIdent(c.name)} IS NOT DISTINCT FROM ${value(c)}`).join(' AND ');
      conditions.push(`NOT EXISTS (SELECT 1 FROM read_parquet(${sqlString(d.path)}, schema=${schemaMap(eqCols)}) d WHERE ${match})`);
    }
    const options = [read.length && !byName ? `schema=${schemaMap(read)}` : '', positional.length || vectors.length ? 'file_row_number=true' : ''].filter(Boolean);
    const source = `read_parquet(${[sqlString(f.path), ...options].join(', ')})`;
    return `SELECT ${projection.join(', ')} FROM ${source} t${conditions.length ? ` WHERE ${conditions.join(' AND ')}` : ''}`;
  });
  return `(${parts.join('\nUNION ALL BY NAME\n')})`;
}

/** The table folder of an Iceberg input (a table folder, its metadata/ folder, or a metadata.json). */
export function icebergTableDir(input: string): string {
  const abs = resolve(input);
  const dir = existsSync(abs) && statSync(abs).isFile() ? dirname(abs) : abs;
  return basename(dir) === 'metadata' ? dirname(dir) : dir;
}

/**
 * Identity of the table's current state without reading manifests:
 * `iceberg:<table-uuid>@<current snapshot id>` (`none` for a table without snapshots).
 * Ingest compares it to skip tables whose snapshot did not change.
 */
export function icebergFingerprint(input: string): string {
  const path = findMetadataFile(input);
  const meta = readMetadata(path);
  const snapshot = toBigInt(meta['current-snapshot-id']);
  return `iceberg:${String(meta['table-uuid'] ?? icebergTableDir(path))}@${snapshot === null || snapshot === -1n ? 'none' : snapshot.toString()}`;
}
