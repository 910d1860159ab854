import { TOKEN_SCOPES, type TokenScope } from '@h/contracts';
import type { TeamRoleName } from '@h/db';

export const ROLE_RANK: Record<TeamRoleName, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };

export function roleAtLeast(role: TeamRoleName, min: TeamRoleName): boolean {
  return ROLE_RANK[role] >= ROLE_RANK[min];
}

export function lowerRole(a: TeamRoleName, b: TeamRoleName): TeamRoleName {
  return ROLE_RANK[a] <= ROLE_RANK[b] ? a : b;
}

export { TOKEN_SCOPES, type TokenScope };
/** The highest role a token's scopes allow; the creator's own role caps it further. */
export function scopeCeiling(scopes: string[]): TeamRoleName {
  if (scopes.includes('admin')) return 'admin';
  if (scopes.includes('write')) return 'member';
  return 'viewer';
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
