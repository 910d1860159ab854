import { scopeIncludes, TOKEN_SCOPES, type TokenScope } from '@h/contracts';
import { AppException } from '@h/http';
import type { TeamRoleName } from '@h/db';

export const ROLE_RANK: Record<TeamRoleName, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };

export function roleAtLeast(role: TeamRoleName, min: TeamRoleName): boolean {
  return ROLE_RANK[role] >= ROLE_RANK[min];
}

export function lowerRole(a: TeamRoleName, b: TeamRoleName): TeamRoleName {
  return ROLE_RANK[a] <= ROLE_RANK[b] ? a : b;
}

export { TOKEN_SCOPES, scopeIncludes, type TokenScope };

export const isTokenScope = (s: string): s is TokenScope => (TOKEN_SCOPES as readonly string[]).includes(s);

/**
 * The highest role a token's scopes allow; the creator's own role caps it further. Routes check
 * the scope itself (`requireScope`); this cap keeps the role-based rules inside services (who may
 * enable networking, revoke others' tokens, ...) from seeing more than the token was given.
 */
export function scopeCeiling(scopes: readonly string[]): TeamRoleName {
  if (scopeIncludes(scopes, 'admin')) return 'admin';
  if (scopeIncludes(scopes, 'run')) return 'member';
  return 'viewer';
}

/**
 * The scope a route needs when it does not name one: what its minimum role usually does. Routes
 * that only drive the agent (messages, cancels, approvals) say `run` instead.
 */
export function defaultScopeFor(minRole: TeamRoleName): TokenScope {
  if (roleAtLeast(minRole, 'admin')) return 'admin';
  return minRole === 'member' ? 'write' : 'read';
}

/**
 * Refuses a token without `scope` (403 INSUFFICIENT_SCOPE). Browser sessions are limited by
 * their role alone.
 */
export function requireScope(principal: Principal, scope: TokenScope): void {
  if (principal.kind !== 'token' || scopeIncludes(principal.scopes, scope)) return;
  const has = principal.scopes.length ? principal.scopes.join(', ') : 'none';
  throw AppException.forbidden(
    `This needs an API token with the ${scope} scope (or one that includes it); this token has ${has}.`,
    'INSUFFICIENT_SCOPE',
  );
}

export interface UserPrincipal {
  kind: 'user';
  userId: string;
  sessionId: string;
  csrfToken: string;
}

export interface TokenPrincipal {
  kind: 'token';
  /** The user who created the token; the token acts on their behalf, within its scopes. */
  userId: string;
  tokenId: string;
  teamId: string;
  workspaceId: string | null;
  scopes: string[];
}

export type Principal = UserPrincipal | TokenPrincipal;

/** What the access guard established for a team-scoped route. */
export interface AccessGrant {
  teamId: string;
  workspaceId: string | null;
  role: TeamRoleName;
}
