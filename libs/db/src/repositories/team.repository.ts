import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service';
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
    const m = await this.prisma.membership.findUnique({
      where: { teamId_userId: { teamId, userId } },
      select: { role: true },
    });
    return m?.role ?? null;
  }

  async listMembers(teamId: string): Promise<MemberRecord[]> {
    const rows = await this.prisma.membership.findMany({
      where: { teamId },
      orderBy: { createdAt: 'asc' },
      select: memberSelect,
    });
    return rows.map(toMember);
  }

  async addMember(teamId: string, userId: string, role: TeamRoleName): Promise<MemberRecord> {
    const m = await this.prisma.membership.create({ data: { teamId, userId, role }, select: memberSelect });
    return toMember(m);
  }

  async updateMemberRole(teamId: string, userId: string, role: TeamRoleName): Promise<MemberRecord> {
    const m = await this.prisma.membership.update({
      where: { teamId_userId: { teamId, userId } },
      data: { role },
      select: memberSelect,
    });
    return toMember(m);
  }

  async removeMember(teamId: string, userId: string): Promise<void> {
    await this.prisma.membership.delete({ where: { teamId_userId: { teamId, userId } } });
  }

  countOwners(teamId: string): Promise<number> {
    return this.prisma.membership.count({ where: { teamId, role: 'owner' } });
  }
}
