import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '../../src/api/index.js';
import { CatalogInUseError, LOCK_FILE } from '../../src/catalog/catalogLock.js';
import { openCatalog } from '../../src/catalog/index.js';
import { startTestServer } from '../api/support/fixture.js';
import { TestEngine } from '../api/support/testEngine.js';
import { createTestDatabase } from '../support/catalogs.js';

/**
 * One process at a time on the embedded catalog: a second process gets an error naming the
 * holder instead of silently writing to a second backend over the same files; a lock left by a
 * dead process is taken over. On a real PostgreSQL, several servers share the catalog and a
 * revocation made by another process is refused by all of them at once.
 */

interface Exit {
  code: number | null;
  out: string;
  err: string;
}

function graft(args: string[], env: NodeJS.ProcessEnv): Promise<Exit> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out, err })));
}

async function status(url: string, token: string): Promise<number> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: '{ __typename }' }),
  });
  await res.arrayBuffer();
  return res.status;
}

describe('the embedded catalog lock', () => {
  let home: string;
  beforeAll(async () => {
    home = await mkdtemp(path.join(os.tmpdir(), 'graft-lock-'));
  });
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('refuses a second open in this process, naming it, until the first is closed', async () => {
    const dataDir = path.join(home, 'same');
    const first = await openCatalog({ dataDir });
    const second = openCatalog({ dataDir });
    await expect(second).rejects.toBeInstanceOf(CatalogInUseError);
    await expect(second).rejects.toThrow(new RegExp(`in use by process ${process.pid} \\(this process`));
    await first.close();
    await expect(readFile(path.join(dataDir, LOCK_FILE))).rejects.toThrow(/ENOENT/);
    const again = await openCatalog({ dataDir });
    await again.close();
  });

  it('takes over a lock left by a process that is gone', async () => {
    const dataDir = path.join(home, 'stale');
    await (await openCatalog({ dataDir })).close();
    const dead = await new Promise<number>((resolve) => {
      const c = spawn(process.execPath, ['-e', '']);
      c.on('exit', () => resolve(c.pid!));
    });
    await writeFile(path.join(dataDir, LOCK_FILE), JSON.stringify({ pid: dead, host: hostname(), startedAt: Date.now() - 1000, command: 'graft serve' }));
    const db = await openCatalog({ dataDir });
    expect(JSON.parse(await readFile(path.join(dataDir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    await db.close();
  });

  it('with graft serve running, graft token revoke fails naming the server and changes nothing', { timeout: 180_000 }, async () => {
    const dataDir = path.join(home, 'served');
    const seed = await openCatalog({ dataDir });
    const token = await createApiToken(seed, { name: 'bi', grants: ['*'] });
    await seed.close();

    const env = { GRAFT_DB_DIR: dataDir, GRAFT_REQUIRE_AUTH: '1', GRAFT_VALUE_MODEL: 'off' };
    const serve = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0'], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<void>((resolve) => serve.on('exit', () => resolve()));
    try {
      let err = '';
      const url = await new Promise<string>((resolve, reject) => {
        serve.stderr.on('data', (d) => {
          err += d;
          const m = /graft serve: (http:\/\/\S+)\/graphql/.exec(err);
          if (m) resolve(m[1]);
        });
        serve.on('exit', (code) => reject(new Error(`graft serve exited ${code}: ${err}`)));
      });
      expect(await status(url, token.secret)).toBe(200);

      const revoke = await graft(['token', 'revoke', token.id], env);
      expect(revoke.code).toBe(4); // ExitCode.CATALOG_IN_USE
      expect(revoke.out).not.toContain('revoked');
      expect(revoke.err).toContain('CATALOG_IN_USE');
      expect(revoke.err).toContain(`in use by process ${serve.pid}`);
      expect(revoke.err).toMatch(/src\/cli\/main\.ts serve/);
      // Nothing was claimed, and nothing happened: the server still accepts the token.
      expect(await status(url, token.secret)).toBe(200);
    } finally {
      serve.kill('SIGKILL');
      await exited;
    }

    // The server died without releasing its lock: the next process takes it over.
    const revoke = await graft(['token', 'revoke', token.id], { GRAFT_DB_DIR: dataDir });
    expect(revoke).toMatchObject({ code: 0 });
    expect(revoke.out).toContain(`revoked ${token.id}`);
    const db = await openCatalog({ dataDir });
    expect((await db.prisma.apiToken.findUniqueOrThrow({ where: { id: token.id } })).revokedAt).not.toBeNull();
    await db.close();
  });
});

const realUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!realUrl)('several servers on one PostgreSQL', () => {
  let url: string;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ url, drop } = await createTestDatabase());
  });
  afterAll(async () => {
    await drop?.();
  });

  it('a token revoked by another process is refused by every server within seconds', { timeout: 120_000 }, async () => {
    const dbs = [await openCatalog({ databaseUrl: url }), await openCatalog({ databaseUrl: url })];
    const servers = await Promise.all(dbs.map((db) => startTestServer(db, new TestEngine(db), { allowAnonymous: false })));
    try {
      const token = await createApiToken(dbs[0], { name: 'bi', grants: ['*'] });
      for (const s of servers) expect(await status(s.url, token.secret)).toBe(200);

      const revoke = await graft(['token', 'revoke', token.id], { DATABASE_URL: url });
      expect(revoke).toMatchObject({ code: 0 });
      const revokedAt = Date.now();
      for (const s of servers) {
        while ((await status(s.url, token.secret)) !== 401) {
          expect(Date.now() - revokedAt).toBeLessThan(5_000);
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    } finally {
      for (const s of servers) await s.close();
      for (const db of dbs) await db.close();
    }
  });
});
