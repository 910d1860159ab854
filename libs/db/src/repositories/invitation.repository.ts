import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service';
import { Prisma } from '../generated/client';
import type { TeamRoleName } from './team.repository';

export interface InvitationRecord {
  id: string;
  teamId: string;
  role: TeamRoleName;
  email: string | null;
  maxUses: number;
  uses: number;
  expiresAt: Date;
  revokedAt: Date | null;
  createdAt: Date;
  createdBy: { id: string; name: string };
}

/** What someone holding the link may see before accepting it. */
export interface InvitationPreview extends InvitationRecord {
  teamName: string;
}

export type InvitationRefusal = 'invalid' | 'email_mismatch' | 'already_member';

const invitationSelect = {
  id: true,
  teamId: true,
  role: true,
  email: true,
  maxUses: true,
  uses: true,
  expiresAt: true,
  revokedAt: true,
  createdAt: true,
  createdBy: { select: { id: true, name: true } },
} as const;

export function invitationUsable(i: Pick<InvitationRecord, 'revokedAt' | 'expiresAt' | 'uses' | 'maxUses'>, now = new Date()): boolean {
  return !i.revokedAt && i.expiresAt > now && i.uses < i.maxUses;
}

/**
 * Inside a transaction: locks the invitation row, checks it may still be used by this account and
 * counts the use, then adds the membership. Two people racing for the last use of a link serialize
 * on the row lock, so a single-use link admits exactly one.
 */
export async function takeInvitation(
  tx: Prisma.TransactionClient,
  tokenHash: string,
  user: { id: string; email: string },
): Promise<{ ok: { teamId: string; role: TeamRoleName; invitationId: string } } | { refused: InvitationRefusal }> {
  const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "Invitation" WHERE "tokenHash" = ${tokenHash} FOR UPDATE`;
  if (!locked.length) return { refused: 'invalid' };
  const inv = await tx.invitation.findUniqueOrThrow({ where: { id: locked[0].id }, select: invitationSelect });
  if (!invitationUsable(inv)) return { refused: 'invalid' };
  if (inv.email && inv.email !== user.email) return { refused: 'email_mismatch' };
  const member = await tx.membership.findUnique({ where: { teamId_userId: { teamId: inv.teamId, userId: user.id } }, select: { id: true } });
  if (member) return { refused: 'already_member' };
  await tx.invitation.update({ where: { id: inv.id }, data: { uses: { increment: 1 } }, select: { id: true } });
  await tx.membership.create({ data: { teamId: inv.teamId, userId: user.id, role: inv.role }, select: { id: true } });
  return { ok: { teamId: inv.teamId, role: inv.role, invitationId: inv.id } };
}

@Injectable()
export class InvitationRepository {
  constructor(private readonly prisma: PrismaService) {}

  create(input: {
    teamId: string;
    createdById: string;
    role: TeamRoleName;
    tokenHash: string;
    email: string | null;
    maxUses: number;
    expiresAt: Date;
  }): Promise<InvitationRecord> {
    return this.prisma.invitation.create({ data: input, select: invitationSelect });
  }

  /** Invitations that can still be used, newest first. */
  listPending(teamId: string, now = new Date()): Promise<InvitationRecord[]> {
    return this.prisma.invitation
      .findMany({ where: { teamId, revokedAt: null, expiresAt: { gt: now } }, orderBy: { createdAt: 'desc' }, select: invitationSelect })
      .then((rows) => rows.filter((r) => r.uses < r.maxUses));
  }

  findInTeam(teamId: string, id: string): Promise<InvitationRecord | null> {
    return this.prisma.invitation.findFirst({ where: { id, teamId }, select: invitationSelect });
  }

  async findByTokenHash(tokenHash: string): Promise<InvitationPreview | null> {
    const row = await this.prisma.invitation.findUnique({
      where: { tokenHash },
      select: { ...invitationSelect, team: { select: { name: true } } },
    });
    if (!row) return null;
    const { team, ...rest } = row;
    return { ...rest, teamName: team.name };
  }

  async revoke(id: string): Promise<void> {
    await this.prisma.invitation.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
  }

  /** A signed-in person accepts: joins the team with the invitation's role, or is told why not. */
  accept(tokenHash: string, user: { id: string; email: string }): ReturnType<typeof takeInvitation> {
    return this.prisma.$transaction((tx) => takeInvitation(tx, tokenHash, user));
  }
}
