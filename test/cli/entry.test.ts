import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM module without types (the bin script's helper)
import { pickEntry, STAMP } from '../../bin/entry.mjs';

const run = promisify(execFile);
const repo = path.resolve(import.meta.dirname, '../..');

describe('the compiled CLI (scripts/build-cli.mjs, bin/entry.mjs)', () => {
  let tmp: string;
  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'graft-entry-'));
  });
  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  it('runs dist/ only while it is newer than every source', async () => {
    const root = path.join(tmp, 'pick');
    await mkdir(path.join(root, 'src/cli'), { recursive: true });
    await mkdir(path.join(root, 'scripts'), { recursive: true });
    await writeFile(path.join(root, 'src/cli/main.ts'), '');
    await writeFile(path.join(root, 'scripts/build-demo-lake.ts'), '');
    expect(pickEntry(root)).toBe('tsx'); // never built
    await mkdir(path.join(root, 'dist'));
    await writeFile(path.join(root, 'dist', STAMP), '');
    const t = Date.now() / 1000;
    await utimes(path.join(root, 'src/cli/main.ts'), t - 60, t - 60);
    await utimes(path.join(root, 'scripts/build-demo-lake.ts'), t - 60, t - 60);
    await utimes(path.join(root, 'dist', STAMP), t - 30, t - 30);
    expect(pickEntry(root)).toBe('dist');
    await utimes(path.join(root, 'src/cli/main.ts'), t, t); // edited after the build
    expect(pickEntry(root)).toBe('tsx');
  });

  it('builds a CLI that runs on plain node and finds the files beside the code', async () => {
    // A checkout of its own (sources linked), so the repository's dist/ is left alone.
    const root = path.join(tmp, 'checkout');
    await mkdir(root);
    for (const f of ['package.json', 'tsconfig.json']) await cp(path.join(repo, f), path.join(root, f));
    for (const d of ['src', 'scripts', 'migrations', 'schema', 'demo', 'node_modules']) await symlink(path.join(repo, d), path.join(root, d));
    const build = await run(process.execPath, [path.join(repo, 'scripts/build-cli.mjs'), '--root', root]);
    expect(build.stdout).toMatch(/compiled \d+ files to dist/);
    expect(pickEntry(root)).toBe('dist');

    const env = { ...process.env, GRAFT_HOME: path.join(tmp, 'home'), GRAFT_DB_DIR: '', DATABASE_URL: '' };
    const main = path.join(root, 'dist/src/cli/main.js');
    const help = await run(process.execPath, [main, '--help'], { env });
    expect(help.stdout).toContain('graft');
    expect(help.stdout).toContain('ingest');
    // doctor opens the embedded catalog: the migrations are found from dist/ and applied.
    const doctor = await run(process.execPath, [main, 'doctor'], { env });
    expect(doctor.stdout).toMatch(/migrations applied: [1-9]/);
    expect(doctor.stdout).toContain('0 tables');
  }, 120_000);
});
