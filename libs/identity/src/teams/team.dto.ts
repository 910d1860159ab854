import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';

import { TEAM_ROLES, type ListResponse, type Member, type Quota, type Team, type TeamQuotas, type TeamRole } from '@h/contracts';

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
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 200, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  limit?: number;

  @ApiPropertyOptional({ pattern: '^\\d{1,18}$', description: 'Return entries older than this id (pagination)' })
  @IsOptional()
  @Matches(/^\d{1,18}$/, { message: 'before must be an entry id' })
  before?: string;
}

export class AuditEntryDto {
  @ApiProperty({ example: '1042' }) id: string;
  @ApiProperty({ example: 'token.create' }) action: string;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) actorUserId: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid', description: 'The API token the actor used, if any' }) actorTokenId: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'api_token' }) targetType: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) targetId: string | null;
  @ApiProperty({ nullable: true, type: String, example: '203.0.113.7' }) ip: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, example: { prefix: 'k3m9x2p7q4wz', scopes: ['run'], workspaceId: null } }) metadata: unknown;
  @ApiProperty() createdAt: Date;
}

export class AuditListDto {
  @ApiProperty({ type: [AuditEntryDto] }) items: AuditEntryDto[];
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
