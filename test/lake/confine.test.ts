import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confineLakeRead } from '../../src/lake/index.js';
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
