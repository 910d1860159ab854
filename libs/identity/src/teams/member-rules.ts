import type { TeamRoleName } from '@h/db';
import { AppException } from '@h/http';
import { AccessGrant, roleAtLeast } from '../access/principal';

/** Only owners make or unmake owners; admins manage (and invite) everyone below them. */
export function assertCanGrant(access: AccessGrant, role: TeamRoleName): void {
  if (role === 'owner' && access.role !== 'owner') {
    throw AppException.forbidden('Only an owner can grant or change the owner role.');
  }
  if (!roleAtLeast(access.role, 'admin')) throw AppException.forbidden('Managing members needs the admin role.');
}
