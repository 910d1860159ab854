import { Injectable } from '@nestjs/common';
import { AuditRepository, TeamRepository, TeamRoleName, UserRepository } from '@h/db';
import { AppException } from '@h/http';
import { randomSecret } from '../auth/secrets';
import { AuditService } from '../audit/audit.service';
import { AccessGrant, Principal, roleAtLeast } from '../access/principal';
import type { AuditListDto, MemberDto, MemberListDto, TeamDto, TeamListDto } from './team.dto';

function slugify(name: string): string {
  const base = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return base || 'team';
}

@Injectable()
export class TeamService {
  constructor(
    private readonly teams: TeamRepository,
    private readonly users: UserRepository,
    private readonly auditLog: AuditRepository,
    private readonly audit: AuditService,
  ) {}

  async list(principal: Principal): Promise<TeamListDto> {
    const items = await this.teams.listForUser(principal.userId);
    return { items };
  }

  async create(principal: Principal, name: string, ip: string | null): Promise<TeamDto> {
    let slug = slugify(name);
    if (await this.teams.slugExists(slug)) slug = `${slug}-${randomSecret(4).toLowerCase().replace(/[^a-z0-9]/g, 'x')}`;
    const team = await this.teams.createWithOwner({ name: name.trim(), slug, ownerId: principal.userId });
    await this.audit.byPrincipal(principal, { action: 'team.create', teamId: team.id, targetType: 'team', targetId: team.id, ip });
    return team;
  }

  async get(access: AccessGrant): Promise<TeamDto> {
    const team = await this.teams.findById(access.teamId);
    if (!team) throw AppException.notFound('Team');
    return { ...team, role: access.role };
  }

  async members(access: AccessGrant): Promise<MemberListDto> {
    return { items: await this.teams.listMembers(access.teamId) };
  }

  async addMember(principal: Principal, access: AccessGrant, email: string, role: TeamRoleName, ip: string | null): Promise<MemberDto> {
    this.assertCanGrant(access, role);
    const user = await this.users.findByEmail(email.trim().toLowerCase());
    if (!user) {
      throw new AppException(404, 'USER_NOT_FOUND', 'No account uses that email; ask them to sign up first.');
    }
    if (await this.teams.findRole(access.teamId, user.id)) {
      throw AppException.conflict('ALREADY_MEMBER', 'That person is already a member; change their role instead.');
    }
    const member = await this.teams.addMember(access.teamId, user.id, role);
    await this.audit.byPrincipal(principal, {
      action: 'member.add',
      teamId: access.teamId,
      targetType: 'user',
      targetId: user.id,
      ip,
      metadata: { role },
    });
    return member;
  }

  async updateMember(principal: Principal, access: AccessGrant, userId: string, role: TeamRoleName, ip: string | null): Promise<MemberDto> {
    const current = await this.teams.findRole(access.teamId, userId);
    if (!current) throw AppException.notFound('Member');
    this.assertCanGrant(access, role);
    this.assertCanGrant(access, current);
    if (current === 'owner' && role !== 'owner') await this.assertNotLastOwner(access.teamId);
    const member = await this.teams.updateMemberRole(access.teamId, userId, role);
    await this.audit.byPrincipal(principal, {
      action: 'member.role_change',
      teamId: access.teamId,
      targetType: 'user',
      targetId: userId,
      ip,
      metadata: { from: current, to: role },
    });
    return member;
  }

  async removeMember(principal: Principal, access: AccessGrant, userId: string, ip: string | null): Promise<void> {
    const current = await this.teams.findRole(access.teamId, userId);
    if (!current) throw AppException.notFound('Member');
    // Anyone may leave a team; removing someone else is an admin's job.
    if (userId !== principal.userId) this.assertCanGrant(access, current);
    if (current === 'owner') await this.assertNotLastOwner(access.teamId);
    await this.teams.removeMember(access.teamId, userId);
    await this.audit.byPrincipal(principal, { action: 'member.remove', teamId: access.teamId, targetType: 'user', targetId: userId, ip });
  }

  async auditEntries(access: AccessGrant, limit = 50, before?: string): Promise<AuditListDto> {
    const rows = await this.auditLog.listForTeam(access.teamId, { limit, before: before ? BigInt(before) : undefined });
    return { items: rows.map(({ teamId: _t, ...rest }) => rest) };
  }

  // Only owners make or unmake owners; admins manage everyone below them.
  private assertCanGrant(access: AccessGrant, role: TeamRoleName): void {
    if (role === 'owner' && access.role !== 'owner') {
      throw AppException.forbidden('Only an owner can grant or change the owner role.');
    }
    if (!roleAtLeast(access.role, 'admin')) throw AppException.forbidden('Managing members needs the admin role.');
  }

  private async assertNotLastOwner(teamId: string): Promise<void> {
    if ((await this.teams.countOwners(teamId)) <= 1) {
      throw AppException.conflict('LAST_OWNER', 'A team needs at least one owner; make someone else owner first.');
    }
  }
}
