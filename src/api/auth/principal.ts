import { GrantScope } from './grants.js';

/**
 * Who is asking: nobody in particular (when anonymous access is on), the holder of a token, or
 * a caller a host application authenticated itself (graft mounted with createGraftSchema).
 */
export type Principal =
  | { kind: 'anonymous' }
  | { kind: 'token'; tokenId: string; name: string; grants: string[] }
  | { kind: 'host'; name: string; grants: string[] };

export function scopeOf(p: Principal): GrantScope {
  return p.kind === 'anonymous' ? GrantScope.all() : GrantScope.of(p.grants);
}

export function describePrincipal(p: Principal): string {
  if (p.kind === 'anonymous') return 'anonymous';
  return p.kind === 'token' ? `token ${p.name} (${p.tokenId})` : `host caller ${p.name}`;
}
