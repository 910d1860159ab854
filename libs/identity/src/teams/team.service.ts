import { Injectable } from '@nestjs/common';
import { AUDIT_PAGE } from '@h/contracts';
import { AuditRepository, TeamRepository, TeamRoleName } from '@h/db';
import { AppException } from '@h/http';
import { randomSecret } from '../auth/secrets';
import { AuditService } from '../audit/audit.service';
import { AccessGrant, Principal } from '../access/principal';
import { assertCanGrant } from './member-rules';
import type { AuditListDto, AuditQueryDto, MemberDto, MemberListDto, TeamDto, TeamListDto } from './team.dto';

function slugify(name: string): string {
  // NFKD splits "É" into "E" + a combining accent; dropping the marks keeps the letter ("equipe",
  // not "e-quipe").
  const base = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return base || 'team';
}

@Injectable()
export class TeamService {
  constructor(
    private readonly teams: TeamRepository,
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

  async updateMember(principal: Principal, access: AccessGrant, userId: string, role: TeamRoleName, ip: string | null): Promise<MemberDto> {
    assertCanGrant(access, role);
    const result = await this.teams.changeMember(access.teamId, userId, { role }, (current) => assertCanGrant(access, current));
    if ('refused' in result) throw this.refusal(result.refused);
    await this.audit.byPrincipal(principal, {
      action: 'member.role_change',
      teamId: access.teamId,
      targetType: 'user',
      targetId: userId,
      ip,
      metadata: { from: result.from, to: role },
    });
    return result.member as MemberDto;
  }

  async removeMember(principal: Principal, access: AccessGrant, userId: string, ip: string | null): Promise<void> {
    // Anyone may leave a team; removing someone else is an admin's job.
    const authorize = (current: TeamRoleName) => {
      if (userId !== principal.userId) assertCanGrant(access, current);
    };
    const result = await this.teams.changeMember(access.teamId, userId, { remove: true }, authorize);
    if ('refused' in result) throw this.refusal(result.refused);
    await this.audit.byPrincipal(principal, { action: 'member.remove', teamId: access.teamId, targetType: 'user', targetId: userId, ip });
  }

  /** One page of the team's audit log, newest first; `nextCursor` is set while older entries may follow. */
  async auditEntries(access: AccessGrant, query: AuditQueryDto): Promise<AuditListDto> {
    const limit = query.limit ?? AUDIT_PAGE.default;
    // One more than asked says whether an older page exists, without a count.
    const rows = await this.auditLog.listForTeam(access.teamId, {
      limit: limit + 1,
      before: query.before ? BigInt(query.before) : undefined,
      action: query.action,
      actorUserId: query.actorUserId,
      from: query.from ? new Date(query.from) : undefined,
      to: query.to ? new Date(query.to) : undefined,
    });
    const page = rows.slice(0, limit);
    return { items: page.map(({ teamId: _t, ...rest }) => rest), nextCursor: rows.length > limit ? page[page.length - 1].id : null };
  }

  private refusal(reason: 'not_found' | 'last_owner'): AppException {
    return reason === 'last_owner'
      ? AppException.conflict('LAST_OWNER', 'A team needs at least one owner; make someone else owner first.')
      : AppException.notFound('Member');
  }
}
