import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AUDIT_PAGE } from '@h/contracts';
import { ErrorResponseDto } from '@h/http';
import { Access, ClientIp, CurrentAccess, CurrentPrincipal, UserOnly } from '../access/access.decorators';
import type { AccessGrant, Principal } from '../access/principal';
import {
  AuditListDto,
  AuditQueryDto,
  CreateTeamDto,
  MemberDto,
  MemberListDto,
  TeamDto,
  TeamListDto,
  TeamQuotasDto,
  UpdateMemberDto,
} from './team.dto';
import { TeamQuotaService } from './team-quota.service';
import { TeamService } from './team.service';

@ApiTags('teams')
@ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Invalid input' })
@Controller('v1/teams')
export class TeamController {
  constructor(
    private readonly teams: TeamService,
    private readonly quotas: TeamQuotaService,
  ) {}

  @Get()
  @UserOnly()
  @ApiOkResponse({ type: TeamListDto })
  listTeams(@CurrentPrincipal() principal: Principal): Promise<TeamListDto> {
    return this.teams.list(principal);
  }

  @Post()
  @UserOnly()
  @ApiCreatedResponse({ type: TeamDto, description: 'Created; the caller is its owner' })
  createTeam(@CurrentPrincipal() principal: Principal, @Body() body: CreateTeamDto, @ClientIp() ip: string | null): Promise<TeamDto> {
    return this.teams.create(principal, body.name, ip);
  }

  @Get(':teamId')
  @Access('team', 'teamId', 'viewer')
  @ApiOkResponse({ type: TeamDto })
  getTeam(@CurrentAccess() access: AccessGrant): Promise<TeamDto> {
    return this.teams.get(access);
  }

  @Get(':teamId/quotas')
  @Access('team', 'teamId', 'viewer')
  @ApiOkResponse({ type: TeamQuotasDto, description: "The team's quotas and what it uses of them now" })
  getQuotas(@CurrentAccess() access: AccessGrant): Promise<TeamQuotasDto> {
    return this.quotas.describe(access.teamId);
  }

  @Get(':teamId/members')
  @Access('team', 'teamId', 'viewer')
  @ApiOkResponse({ type: MemberListDto })
  listMembers(@CurrentAccess() access: AccessGrant): Promise<MemberListDto> {
    return this.teams.members(access);
  }

  @Patch(':teamId/members/:userId')
  @UserOnly()
  @Access('team', 'teamId', 'admin')
  @ApiOkResponse({ type: MemberDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'LAST_OWNER' })
  updateMember(
    @CurrentPrincipal() principal: Principal,
    @CurrentAccess() access: AccessGrant,
    @Param('userId', new ParseUUIDPipe()) userId: string,
    @Body() body: UpdateMemberDto,
    @ClientIp() ip: string | null,
  ): Promise<MemberDto> {
    return this.teams.updateMember(principal, access, userId, body.role, ip);
  }

  @Delete(':teamId/members/:userId')
  @HttpCode(204)
  @UserOnly()
  @Access('team', 'teamId', 'viewer')
  @ApiNoContentResponse({
    description: "Removed from the team, and their API tokens for it revoked. Anyone may remove themselves (leave); removing others needs admin",
  })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'LAST_OWNER' })
  removeMember(
    @CurrentPrincipal() principal: Principal,
    @CurrentAccess() access: AccessGrant,
    @Param('userId', new ParseUUIDPipe()) userId: string,
    @ClientIp() ip: string | null,
  ): Promise<void> {
    return this.teams.removeMember(principal, access, userId, ip);
  }

  @Get(':teamId/audit')
  @Access('team', 'teamId', 'admin')
  @ApiOkResponse({ type: AuditListDto, description: `Newest first, at most ${AUDIT_PAGE.max} a page; filter by action, person and time, page with before = nextCursor` })
  listAudit(@CurrentAccess() access: AccessGrant, @Query() query: AuditQueryDto): Promise<AuditListDto> {
    return this.teams.auditEntries(access, query);
  }
}
