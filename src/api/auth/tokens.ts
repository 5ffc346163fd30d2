import { createHash, randomBytes } from 'node:crypto';
import type { CatalogDatabase } from '../../catalog/database.js';
import { BadInputError } from '../../util/errors.js';
import { validateGrant } from './grants.js';
import type { Principal } from './principal.js';

/**
 * API tokens. The secret (`graft_` + 32 random bytes, base64url) is returned once, by
 * `createApiToken`; the catalog keeps only its sha256, so a leaked database leaks no secret.
 * A short prefix of the secret is kept for display.
 */

const SECRET_PREFIX = 'graft_';
const DISPLAY_PREFIX_LENGTH = SECRET_PREFIX.length + 6;
/** last_used_at is written at most this often per token (a write per request would be waste). */
const LAST_USED_RESOLUTION_MS = 60_000;

export interface ApiTokenInfo {
  id: string;
  name: string;
  prefix: string;
  grants: string[];
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export interface CreatedApiToken extends ApiTokenInfo {
  /** The bearer secret. Shown once: it cannot be recovered later. */
  secret: string;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export async function createApiToken(db: CatalogDatabase, input: { name: string; grants: string[] }): Promise<CreatedApiToken> {
  const name = input.name.trim();
  if (!name) throw new BadInputError('a token needs a name (--name)');
  if (name.length > 100) throw new BadInputError('a token name is at most 100 characters');
  if (input.grants.length === 0) throw new BadInputError("a token needs at least one grant (--grant 'sales.*')");
  const grants = [...new Set(input.grants.map(validateGrant))];
  const secret = SECRET_PREFIX + randomBytes(32).toString('base64url');
  const row = await db.prisma.apiToken.create({
    data: { name, grants, tokenHash: hashSecret(secret), prefix: secret.slice(0, DISPLAY_PREFIX_LENGTH) },
  });
  return { ...toInfo(row), secret };
}

export async function listApiTokens(db: CatalogDatabase): Promise<ApiTokenInfo[]> {
  const rows = await db.prisma.apiToken.findMany({ orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  return rows.map(toInfo);
}

/** Revokes a token by id (or by its display prefix). False when none matched or it was already revoked. */
export async function revokeApiToken(db: CatalogDatabase, ref: string): Promise<boolean> {
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(ref);
  const r = await db.prisma.apiToken.updateMany({
    where: { ...(isUuid ? { id: ref } : { prefix: ref }), revokedAt: null },
    data: { revokedAt: new Date() },
  });
  return r.count > 0;
}

/** Whether a bearer value could be one of our secrets at all (else it is refused unread). */
function isSecretShaped(secret: string): boolean {
  return secret.startsWith(SECRET_PREFIX) && secret.length <= 200;
}

/** The principal a bearer secret stands for, or null when it is unknown or revoked. */
export async function authenticateSecret(db: CatalogDatabase, secret: string): Promise<Principal | null> {
  if (!isSecretShaped(secret)) return null;
  const row = await db.prisma.apiToken.findUnique({
    where: { tokenHash: hashSecret(secret) },
    select: { id: true, name: true, grants: true, revokedAt: true, lastUsedAt: true },
  });
  if (!row || row.revokedAt) return null;
  const now = Date.now();
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await db.prisma.apiToken.update({ where: { id: row.id }, data: { lastUsedAt: new Date(now) } }).catch(() => {});
  }
  return { kind: 'token', tokenId: row.id, name: row.name, grants: row.grants };
}

/** Most secrets held at once; past it the memory starts over (a flood of made-up secrets cannot grow it). */
const MAX_REMEMBERED_SECRETS = 10_000;

/**
 * `authenticateSecret` with a short memory: what a secret stood for is reused for `maxAgeMs`
 * (0: never), so a busy client costs one token read per interval instead of one per request.
 * A revocation, by this process or any other sharing the catalog, is honoured within maxAgeMs.
 * Keyed by the secret's hash, like the catalog: no secret is kept in memory.
 */
export class TokenAuthenticator {
  private remembered = new Map<string, { principal: Principal | null; until: number }>();

  constructor(
    private readonly db: CatalogDatabase,
    readonly maxAgeMs: number,
  ) {}

  async authenticate(secret: string): Promise<Principal | null> {
    if (this.maxAgeMs <= 0 || !isSecretShaped(secret)) return authenticateSecret(this.db, secret);
    const key = hashSecret(secret);
    const now = Date.now();
    const held = this.remembered.get(key);
    if (held && held.until > now) return held.principal;
    const principal = await authenticateSecret(this.db, secret);
    if (this.remembered.size >= MAX_REMEMBERED_SECRETS) this.remembered = new Map();
    this.remembered.set(key, { principal, until: now + this.maxAgeMs });
    return principal;
  }
}

function toInfo(r: { id: string; name: string; prefix: string; grants: string[]; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null }): ApiTokenInfo {
  return { id: r.id, name: r.name, prefix: r.prefix, grants: r.grants, createdAt: r.createdAt, lastUsedAt: r.lastUsedAt, revokedAt: r.revokedAt };
}
