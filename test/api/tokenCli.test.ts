import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerTokenCommands } from '../../src/cli/commands/token.js';

/** `graft token create|list|revoke` against an on-disk PGlite catalog (GRAFT_DB_DIR). */
describe('graft token', () => {
  let dir: string;
  const saved = process.env.GRAFT_DB_DIR;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'graft-token-cli-'));
    process.env.GRAFT_DB_DIR = path.join(dir, 'db');
  });
  afterAll(async () => {
    if (saved === undefined) delete process.env.GRAFT_DB_DIR;
    else process.env.GRAFT_DB_DIR = saved;
    await rm(dir, { recursive: true, force: true });
  });

  async function run(...argv: string[]): Promise<{ out: string; err: string }> {
    const program = new Command().exitOverride();
    registerTokenCommands(program);
    let out = '';
    let err = '';
    const o = vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((out += String(s)), true));
    const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((err += String(s)), true));
    try {
      await program.parseAsync(['node', 'graft', ...argv]);
    } finally {
      o.mockRestore();
      e.mockRestore();
    }
    return { out, err };
  }

  it('creates (secret printed once), lists without secrets, revokes', async () => {
    const created = await run('token', 'create', '--name', 'analyst', '--grant', 'sales.*', '--grant', 'hr.employees');
    const secret = /\n {2}(graft_[A-Za-z0-9_-]+)\n/.exec(created.out)?.[1];
    expect(secret).toBeDefined();
    expect(created.out).toContain('cannot be shown again');
    const id = /token ([0-9a-f-]{36})/.exec(created.out)![1];

    const listed = await run('token', 'list', '--json');
    const tokens = JSON.parse(listed.out) as { id: string; grants: string[]; revokedAt: string | null }[];
    expect(tokens).toHaveLength(1);
    expect(tokens[0]).toMatchObject({ id, grants: ['sales.*', 'hr.employees'], revokedAt: null });
    expect(listed.out).not.toContain(secret!);

    expect((await run('token', 'revoke', id)).out).toContain(`revoked ${id}`);
    const after = JSON.parse((await run('token', 'list', '--json')).out) as { revokedAt: string | null }[];
    expect(after[0].revokedAt).not.toBeNull();
    process.exitCode = undefined;
    const again = await run('token', 'revoke', id);
    expect(again.err).toContain('no active token');
    expect(process.exitCode).toBe(1);
    process.exitCode = undefined;
  });

  it('refuses a token without grants or with a malformed grant', async () => {
    await expect(run('token', 'create', '--name', 'x')).rejects.toThrow(/at least one grant/);
    await expect(run('token', 'create', '--name', 'x', '--grant', 'nodot')).rejects.toThrow(/<source>\.<table>/);
  });
});
