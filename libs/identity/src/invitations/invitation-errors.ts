import type { InvitationRefusal } from '@h/db';
import { AppException } from '@h/http';

export function invitationRefused(reason: InvitationRefusal): AppException {
  switch (reason) {
    case 'email_mismatch':
      return AppException.forbidden(
        'This invitation is for another email address; use the account (or sign up with the address) it was made for.',
        'INVITATION_EMAIL_MISMATCH',
      );
    case 'already_member':
      return AppException.conflict('ALREADY_MEMBER', 'You are already a member of this team.');
    default:
      return new AppException(
        404,
        'INVITATION_INVALID',
        'This invitation link cannot be used: it expired, was used up or revoked, or is mistyped. Ask a team admin for a new one.',
      );
  }
}
