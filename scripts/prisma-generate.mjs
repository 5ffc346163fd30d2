#!/usr/bin/env node
// Generates the Prisma client into src/generated/prisma (git-ignored) at install time.
// Prisma 7's `generate` wants a schema-engine binary it would otherwise download; generation
// itself never calls it, so any executable satisfies the check offline. Migrations are applied
// by the app (src/catalog/migrate.ts), never by the engine.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const env = { ...process.env };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY) {
  const candidates = ['/bin/true', '/usr/bin/true', process.execPath];
  env.PRISMA_SCHEMA_ENGINE_BINARY = candidates.find((p) => existsSync(p));
}
const r = spawnSync('npx', ['--no-install', 'prisma', 'generate'], { stdio: 'inherit', env });
process.exit(r.status ?? 1);
