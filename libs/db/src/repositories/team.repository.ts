import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service';
import { sql } from '../sql';
import { TeamRole } from '../generated/client';

export type TeamRoleName = `${TeamRole}`;

export interface TeamRecord {
  id: string;
  name: string;
  slug: string;
  createdAt: Date;
}

export interface TeamWithRole extends TeamRecord {
  role: TeamRoleName;
}

export interface MemberRecord {
  userId: string;
  email: string;
  name: string;
  role: TeamRoleName;
  createdAt: Date;
}

const teamSelect = { id: true, name: true, slug: true, createdAt: true } as const;
const memberSelect = {
  role: true,
  createdAt: true,
  user: { select: { id: true, email: true, name: true } },
} as const;

function toMember(m: { role: TeamRole; createdAt: Date; user: { id: string; email: string; name: string } }): MemberRecord {
  return { userId: m.user.id, email: m.user.email, name: m.user.name, role: m.role, createdAt: m.createdAt };
}

@Injectable()
export class TeamRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Creates the team and makes its creator the owner, atomically. */
  async createWithOwner(input: { name: string; slug: string; ownerId: string }): Promise<TeamWithRole> {
    const team = await this.prisma.team.create({
      data: { name: input.name, slug: input.slug, memberships: { create: { userId: input.ownerId, role: 'owner' } } },
      select: teamSelect,
    });
    return { ...team, role: 'owner' };
  }

  slugExists(slug: string): Promise<boolean> {
    return this.prisma.team.count({ where: { slug } }).then((n) => n > 0);
  }

  async listForUser(userId: string): Promise<TeamWithRole[]> {
    const rows = await this.prisma.membership.findMany({
      where: { userId },
      orderBy: { createdAt: 'asc' },
      select: { role: true, team: { select: teamSelect } },
    });
    return rows.map((r) => ({ ...r.team, role: r.role }));
  }

  findById(id: string): Promise<TeamRecord | null> {
    return this.prisma.team.findUnique({ where: { id }, select: teamSelect });
  }

  async findRole(teamId: string, userId: string): Promise<TeamRoleName | null> {
    // Direct SQL (sql.ts): every team-scoped request checks the caller's role.
    const [m] = await this.prisma.sql.rows<{ role: TeamRoleName }>(sql`SELECT "role" FROM "Membership" WHERE "teamId" = ${teamId}::uuid AND "userId" = ${userId}::uuid`);
    return m?.role ?? null;
  }

  async hasMemberWithEmail(teamId: string, email: string): Promise<boolean> {
    return (await this.prisma.membership.count({ where: { teamId, user: { email } } })) > 0;
  }

  async listMembers(teamId: string): Promise<MemberRecord[]> {
    const rows = await this.prisma.membership.findMany({
      where: { teamId },
      orderBy: { createdAt: 'asc' },
      select: memberSelect,
    });
    return rows.map(toMember);
  }

  /**
   * Changes a member's role or removes them, keeping at least one owner. The team's owner rows and
   * the target's row are locked first, so two owners demoting or removing each other in parallel
   * serialize and the second sees the first's change: a team never ends with no owner.
   * `authorize` sees the target's current role under the lock and throws to refuse. A removed
   * member's API tokens for the team are revoked in the same transaction.
   */
  changeMember(
    teamId: string,
    userId: string,
    change: { role: TeamRoleName } | { remove: true },
    authorize: (currentRole: TeamRoleName) => void,
  ): Promise<{ from: TeamRoleName; member: MemberRecord | null } | { refused: 'not_found' | 'last_owner' }> {
    return this.prisma.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<{ userId: string; role: TeamRoleName }[]>`
        SELECT "userId", role::text AS role FROM "Membership"
        WHERE "teamId" = ${teamId}::uuid AND (role = 'owner' OR "userId" = ${userId}::uuid)
        ORDER BY "userId" FOR UPDATE`;
      const target = rows.find((r) => r.userId === userId);
      if (!target) return { refused: 'not_found' as const };
      authorize(target.role);
      const staysOwner = 'role' in change && change.role === 'owner';
      const owners = rows.filter((r) => r.role === 'owner').length;
      if (target.role === 'owner' && !staysOwner && owners <= 1) return { refused: 'last_owner' as const };
      const where = { teamId_userId: { teamId, userId } };
      if ('remove' in change) {
        await tx.membership.delete({ where, select: { id: true } });
        await tx.apiToken.updateMany({ where: { teamId, createdById: userId, revokedAt: null }, data: { revokedAt: new Date() } });
        return { from: target.role, member: null };
      }
      const m = await tx.membership.update({ where, data: { role: change.role }, select: memberSelect });
      return { from: target.role, member: toMember(m) };
    });
  }
}
