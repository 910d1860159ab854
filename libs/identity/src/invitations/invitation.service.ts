import { Injectable } from '@nestjs/common';
import { AppConfig } from '@h/config';
import { InvitationRecord, InvitationRepository, invitationUsable, TeamRepository, UserRepository } from '@h/db';
import { AppException } from '@h/http';
import { AuditService } from '../audit/audit.service';
import type { AccessGrant, Principal } from '../access/principal';
import { randomSecret, sha256 } from '../auth/secrets';
import { assertCanGrant } from '../teams/member-rules';
import { invitationRefused } from './invitation-errors';
import type { CreatedInvitationDto, CreateInvitationDto, InvitationDto, InvitationListDto, InvitationPreviewDto, JoinedTeamDto } from './invitation.dto';

function toDto(i: InvitationRecord): InvitationDto {
  return {
    id: i.id,
    role: i.role,
    email: i.email,
    maxUses: i.maxUses,
    uses: i.uses,
    expiresAt: i.expiresAt,
    createdAt: i.createdAt,
    createdByName: i.createdBy.name,
  };
}

// People join teams through links an admin makes, never by an admin typing their email: whether an
// email has an account stays unknown to everyone but its owner.
@Injectable()
export class InvitationService {
  constructor(
    private readonly config: AppConfig,
    private readonly invitations: InvitationRepository,
    private readonly teams: TeamRepository,
    private readonly users: UserRepository,
    private readonly audit: AuditService,
  ) {}

  async create(principal: Principal, access: AccessGrant, body: CreateInvitationDto, ip: string | null): Promise<CreatedInvitationDto> {
    assertCanGrant(access, body.role);
    const email = body.email?.trim().toLowerCase() ?? null;
    // Members are listed to every member, so this says nothing the admin cannot see anyway.
    if (email && (await this.teams.hasMemberWithEmail(access.teamId, email))) {
      throw AppException.conflict('ALREADY_MEMBER', 'Someone with that email is already a member; change their role instead.');
    }
    const token = randomSecret(32);
    const days = body.expiresInDays ?? this.config.env.INVITATION_TTL_DAYS;
    const invitation = await this.invitations.create({
      teamId: access.teamId,
      createdById: principal.userId,
      role: body.role,
      tokenHash: sha256(token),
      email,
      maxUses: body.maxUses ?? 1,
      expiresAt: new Date(Date.now() + days * 86400_000),
    });
    await this.audit.byPrincipal(principal, {
      action: 'member.invite',
      teamId: access.teamId,
      targetType: 'invitation',
      targetId: invitation.id,
      ip,
      metadata: { role: body.role, restricted: email !== null, maxUses: invitation.maxUses },
    });
    return { invitation: toDto(invitation), token, url: `${this.config.publicUrl.replace(/\/$/, '')}/invite/${token}` };
  }

  async listPending(access: AccessGrant): Promise<InvitationListDto> {
    return { items: (await this.invitations.listPending(access.teamId)).map(toDto) };
  }

  async revoke(principal: Principal, access: AccessGrant, id: string, ip: string | null): Promise<void> {
    const invitation = await this.invitations.findInTeam(access.teamId, id);
    if (!invitation || invitation.revokedAt) throw AppException.notFound('Invitation');
    assertCanGrant(access, invitation.role);
    await this.invitations.revoke(id);
    await this.audit.byPrincipal(principal, { action: 'invitation.revoke', teamId: access.teamId, targetType: 'invitation', targetId: id, ip });
  }

  /** What the invite page shows before anyone signs in. */
  async preview(token: string): Promise<InvitationPreviewDto> {
    const i = await this.usable(sha256(token));
    return { teamName: i.teamName, role: i.role, email: i.email, invitedBy: i.createdBy.name, expiresAt: i.expiresAt };
  }

  async assertUsable(tokenHash: string): Promise<void> {
    await this.usable(tokenHash);
  }

  async acceptAs(principal: Principal, token: string, ip: string | null): Promise<JoinedTeamDto> {
    const user = await this.users.findById(principal.userId);
    if (!user) throw AppException.unauthorized();
    return this.accept(user, token, ip);
  }

  async accept(user: { id: string; email: string }, token: string, ip: string | null): Promise<JoinedTeamDto> {
    const taken = await this.invitations.accept(sha256(token), user);
    if ('refused' in taken) throw invitationRefused(taken.refused);
    await this.recordJoin(user.id, taken.ok, ip);
    return { teamId: taken.ok.teamId, role: taken.ok.role };
  }

  async recordJoin(userId: string, joined: { teamId: string; role: string; invitationId: string }, ip: string | null): Promise<void> {
    await this.audit.record({
      action: 'member.join',
      teamId: joined.teamId,
      actorUserId: userId,
      targetType: 'user',
      targetId: userId,
      ip,
      metadata: { role: joined.role, invitationId: joined.invitationId },
    });
  }

  private async usable(tokenHash: string) {
    const invitation = await this.invitations.findByTokenHash(tokenHash);
    if (!invitation || !invitationUsable(invitation)) throw invitationRefused('invalid');
    return invitation;
  }
}
