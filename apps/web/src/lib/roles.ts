import type { TeamRole } from '@h/contracts';

// The api enforces roles; the UI only hides controls that would answer 403.
export function canWrite(role: TeamRole | undefined): boolean {
  return role === 'owner' || role === 'admin' || role === 'member';
}

export function canManage(role: TeamRole | undefined): boolean {
  return role === 'owner' || role === 'admin';
}

export const ROLE_LABELS: Record<TeamRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  member: 'Member',
  viewer: 'Viewer',
};
