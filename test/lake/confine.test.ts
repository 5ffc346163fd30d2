import { cp, mkdir, mkdtemp, readdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confineEntry, confineLakeRead } from '../../src/lake/index.js';
import { ErrorCode } from '../../src/util/errors.js';

/** Read-time confinement (issue 11/3): real files and real symlinks in a temp folder. */
describe('confineLakeRead', () => {
  let base: string;
  let lake: string;
  let outside: string;
  beforeAll(async () => {
    base = await mkdtemp(path.join(os.tmpdir(), 'graft-confine-'));
    lake = path.join(base, 'lake');
    outside = path.join(base, 'outside');
    await mkdir(path.join(lake, 'sub'), { recursive: true });
    await mkdir(outside);
    await writeFile(path.join(lake, 'sub', 'a.csv'), 'id\n1\n');
    await writeFile(path.join(outside, 'secret.csv'), 'secret\nS3CRET\n');
    await symlink(path.join(outside, 'secret.csv'), path.join(lake, 'leak.csv'));
    await symlink(outside, path.join(lake, 'outdir'));
    await symlink(path.join(lake, 'sub', 'a.csv'), path.join(lake, 'alias.csv'));
  });
  afterAll(async () => rm(base, { recursive: true, force: true }));

  it('refuses a file symlink leading out, naming the file relative to its root', async () => {
    const err = await confineLakeRead(path.join(lake, 'leak.csv'), [lake]).catch((e) => e);
    expect(err.code).toBe(ErrorCode.FORBIDDEN);
    expect(err.message).toMatch(/^leak\.csv: resolves .*outside the lake roots/);
  });

  it('refuses a folder symlink leading out, and a folder holding one', async () => {
    const viaDir = await confineLakeRead(path.join(lake, 'outdir', 'secret.csv'), [lake]).catch((e) => e);
    expect(viaDir.code).toBe(ErrorCode.FORBIDDEN);
    expect(viaDir.message).toContain(path.join('outdir', 'secret.csv'));
    const folder = await confineLakeRead(lake, [lake]).catch((e) => e);
    expect(folder.code).toBe(ErrorCode.FORBIDDEN);
    expect(folder.message).toMatch(/symlink pointing outside/);
  });

  it('resolves a symlink that stays inside to its real target', async () => {
    expect(await confineLakeRead(path.join(lake, 'alias.csv'), [lake])).toBe(path.join(lake, 'sub', 'a.csv'));
    expect(await confineLakeRead(path.join(lake, 'sub'), [lake])).toBe(path.join(lake, 'sub'));
  });
});

/**
 * An Iceberg table's manifests name its files by path: the scan resolves a file the table folder
 * lacks against the writer's relative location, up through the folder's ancestors, which can lie
 * outside the roots. Third-party table (duckdb-iceberg fixtures, written by pyiceberg/Spark).
 */
describe('confineEntry on an Iceberg table', () => {
  const FIXTURE = path.resolve('../shared/lakehouse/duckdb-iceberg/data/persistent/equality_deletes/warehouse/mydb/mytable');
  // The location its metadata was written with, relative to the writer's working folder.
  const WRITTEN = 'data/persistent/equality_deletes/warehouse/mydb/mytable';
  let base: string;
  let lake: string;
  beforeAll(async () => {
    base = await mkdtemp(path.join(os.tmpdir(), 'graft-confine-ice-'));
    lake = path.join(base, 'lake');
    await cp(FIXTURE, path.join(lake, 'intact'), { recursive: true });
    await cp(FIXTURE, path.join(lake, 'moved'), { recursive: true });
  });
  afterAll(async () => rm(base, { recursive: true, force: true }));

  it('reads a table whose files all lie in the lake', async () => {
    const table = path.join(lake, 'intact');
    expect((await confineEntry({ path: table, format: 'iceberg' }, [lake])).path).toBe(table);
  });

  it('refuses a table whose data file resolves outside the roots', async () => {
    const table = path.join(lake, 'moved');
    // Move one data file out of the table to where the written relative path meets an ancestor
    // of the lake (the base folder, outside the root): the scan would read it from there.
    const dataFile = (await readdir(path.join(table, 'data'))).find((f) => f.endsWith('.parquet') && !f.startsWith('delete-') && !f.startsWith('.'))!;
    const outsideCopy = path.join(base, WRITTEN, 'data', dataFile);
    await mkdir(path.dirname(outsideCopy), { recursive: true });
    await rename(path.join(table, 'data', dataFile), outsideCopy);
    const err = await confineEntry({ path: table, format: 'iceberg' }, [lake]).catch((e) => e);
    expect(err.code).toBe(ErrorCode.FORBIDDEN);
    expect(err.message).toContain(dataFile);
  });
});
