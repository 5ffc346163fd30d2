import { GrantScope } from './grants.js';

/** Who is asking: nobody in particular (when anonymous access is on) or the holder of a token. */
export type Principal =
  | { kind: 'anonymous' }
  | { kind: 'token'; tokenId: string; name: string; grants: string[] };

export function scopeOf(p: Principal): GrantScope {
  return p.kind === 'anonymous' ? GrantScope.all() : GrantScope.of(p.grants);
}

export function describePrincipal(p: Principal): string {
  return p.kind === 'anonymous' ? 'anonymous' : `token ${p.name} (${p.tokenId})`;
}
