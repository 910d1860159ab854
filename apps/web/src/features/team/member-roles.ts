import type { TeamRole } from '@h/contracts';

export const ROLE_HINTS: Record<TeamRole, string> = {
  owner: 'everything, including owners',
  admin: 'manages members, tokens and keys',
  member: 'works in workspaces and runs the agent',
  viewer: 'read-only',
};

// Mirrors the api's rule: only owners grant or change the owner role; admins manage the rest.
export function grantableRoles(myRole: TeamRole): TeamRole[] {
  return myRole === 'owner' ? ['owner', 'admin', 'member', 'viewer'] : ['admin', 'member', 'viewer'];
}
