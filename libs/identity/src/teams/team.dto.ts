import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsOptional, IsString, IsUUID, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';

import { AUDIT_PAGE, TEAM_ROLES, type AuditEntry, type AuditPage, type ListResponse, type Member, type Quota, type Team, type TeamQuotas, type TeamRole } from '@h/contracts';

export const ROLES = TEAM_ROLES;
export const ASSIGNABLE_ROLES = ['owner', 'admin', 'member', 'viewer'] as const;

export class CreateTeamDto {
  @ApiProperty({ example: 'Platform', minLength: 1, maxLength: 80 })
  @IsString()
  @MinLength(1)
  @MaxLength(80)
  @Matches(/\S/, { message: 'name must not be blank' })
  name: string;
}

export class TeamDto implements Team<Date> {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'Platform' }) name: string;
  @ApiProperty({ example: 'platform' }) slug: string;
  @ApiProperty({ enum: ROLES, description: "The caller's role" }) role: TeamRole;
  @ApiProperty() createdAt: Date;
}

export class TeamListDto implements ListResponse<TeamDto> {
  @ApiProperty({ type: [TeamDto] }) items: TeamDto[];
}

export class UpdateMemberDto {
  @ApiProperty({ enum: ASSIGNABLE_ROLES })
  @IsIn(ASSIGNABLE_ROLES)
  role: (typeof ASSIGNABLE_ROLES)[number];
}

export class MemberDto implements Member<Date> {
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty({ example: 'grace@example.com' }) email: string;
  @ApiProperty({ example: 'Grace Hopper' }) name: string;
  @ApiProperty({ enum: ROLES }) role: TeamRole;
  @ApiProperty() createdAt: Date;
}

export class MemberListDto implements ListResponse<MemberDto> {
  @ApiProperty({ type: [MemberDto] }) items: MemberDto[];
}

export class AuditQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: AUDIT_PAGE.max, default: AUDIT_PAGE.default, description: `Entries per page (at most ${AUDIT_PAGE.max})` })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(AUDIT_PAGE.max)
  limit?: number;

  @ApiPropertyOptional({ pattern: '^\\d{1,18}$', example: '1042', description: "Return entries older than this id: the previous page's nextCursor" })
  @IsOptional()
  @Matches(/^\d{1,18}$/, { message: 'before must be an entry id' })
  before?: string;

  @ApiPropertyOptional({ example: 'token', maxLength: 100, description: 'An action (token.create), or a prefix naming all actions under it (token: token.create, token.revoke, ...)' })
  @IsOptional()
  @Matches(/^[a-z0-9_]+(\.[a-z0-9_]+)*$/, { message: 'action must be an action name such as token.create, or a prefix such as token' })
  @MaxLength(100)
  action?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only what this person did' })
  @IsOptional()
  @IsUUID()
  actorUserId?: string;

  @ApiPropertyOptional({ format: 'date-time', maxLength: 40, example: '2026-12-01T00:00:00.000Z', description: 'Entries at or after this time' })
  @IsOptional()
  @MaxLength(40)
  @IsISO8601({ strict: true })
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', maxLength: 40, example: '2026-12-08T00:00:00.000Z', description: 'Entries before this time' })
  @IsOptional()
  @MaxLength(40)
  @IsISO8601({ strict: true })
  to?: string;
}

export class AuditEntryDto implements AuditEntry<Date> {
  @ApiProperty({ example: '1042' }) id: string;
  @ApiProperty({ example: 'token.create' }) action: string;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) actorUserId: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'Grace Hopper', description: "The actor's name (null once the account is gone)" }) actorName: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'grace@example.com' }) actorEmail: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid', description: 'The API token the actor used, if any' }) actorTokenId: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'api_token' }) targetType: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) targetId: string | null;
  @ApiProperty({ nullable: true, type: String, example: '203.0.113.7' }) ip: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, example: { prefix: 'k3m9x2p7q4wz', scopes: ['run'], workspaceId: null } }) metadata: unknown;
  @ApiProperty() createdAt: Date;
}

export class AuditListDto implements AuditPage<Date> {
  @ApiProperty({ type: [AuditEntryDto] }) items: AuditEntryDto[];
  @ApiProperty({ nullable: true, type: String, example: '1001', description: 'Pass as before for the next (older) page; null on the last page' }) nextCursor: string | null;
}

export class QuotaDto implements Quota {
  @ApiProperty({ description: 'In use now', example: 2 }) used: number;
  @ApiProperty({ description: 'The most allowed (instance setting)', example: 10 }) limit: number;
  @ApiProperty({ description: 'The instance setting that sets the limit', example: 'TEAM_MAX_WORKSPACES' }) setting: string;
}

export class TeamQuotasDto implements TeamQuotas {
  @ApiProperty({ type: QuotaDto }) workspaces: QuotaDto;
  @ApiProperty({ type: QuotaDto, description: 'Sandboxes running at once' }) runningSandboxes: QuotaDto;
  @ApiProperty({ type: QuotaDto, description: 'Agent runs queued or running at once (runs waiting for an approval do not count)' })
  activeRuns: QuotaDto;
}
