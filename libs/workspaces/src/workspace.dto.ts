import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { WORKSPACE_STATUSES, type ListResponse, type WorkspaceResponse, type WorkspaceStatus } from '@h/contracts';

/** Entries of a workspace's egress allowlist at most. */
export const MAX_ALLOWED_HOSTS = 100;

export class CreateWorkspaceDto {
  @ApiProperty({ example: 'billing-service', minLength: 1, maxLength: 80 })
  @IsString()
  @MinLength(1)
  @MaxLength(80)
  @Matches(/\S/, { message: 'name must not be blank' })
  name: string;

  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;
}

export class UpdateWorkspaceDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 80 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(80)
  @Matches(/\S/, { message: 'name must not be blank' })
  name?: string;

  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;

  @ApiPropertyOptional({
    description: 'Let the sandbox reach allowedHosts through the egress proxy (role NETWORK_ENABLE_MIN_ROLE, default admin)',
  })
  @IsOptional()
  @IsBoolean()
  networkEnabled?: boolean;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', maxLength: 255 },
    maxItems: MAX_ALLOWED_HOSTS,
    example: ['registry.example.org', '*.git.example.com'],
    description: 'Host names the sandbox may reach when network access is on: exact names or `*.example.com`; no IP addresses',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_ALLOWED_HOSTS)
  @IsString({ each: true })
  @MaxLength(255, { each: true })
  allowedHosts?: string[];
}

export class WorkspaceDto implements WorkspaceResponse<Date> {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) teamId: string;
  @ApiProperty() name: string;
  @ApiProperty() description: string;
  @ApiProperty({ enum: WORKSPACE_STATUSES }) status: WorkspaceStatus;
  @ApiProperty({ nullable: true, type: String }) statusMessage: string | null;
  @ApiProperty() networkEnabled: boolean;
  @ApiProperty({ type: [String] }) allowedHosts: string[];
  @ApiProperty({ nullable: true, type: Date }) setupAt: Date | null;
  @ApiProperty() createdAt: Date;
  @ApiProperty() updatedAt: Date;
}

export class WorkspaceListDto implements ListResponse<WorkspaceDto> {
  @ApiProperty({ type: [WorkspaceDto] }) items: WorkspaceDto[];
}

export class EgressLogEntryDto {
  @ApiProperty({ enum: ['connect', 'http'] }) kind: string;
  @ApiProperty() host: string;
  @ApiProperty() port: number;
  @ApiProperty() allowed: boolean;
  @ApiProperty({ nullable: true, type: String, description: 'Why the proxy refused (e.g. NOT_ALLOWLISTED, PRIVATE_ADDRESS)' }) reason: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The address the name resolved to' }) address: string | null;
  @ApiProperty() bytesIn: number;
  @ApiProperty() bytesOut: number;
  @ApiProperty() durationMs: number;
  @ApiProperty() createdAt: Date;
}

export class EgressLogDto {
  @ApiProperty({ type: [EgressLogEntryDto], description: 'Newest first' }) items: EgressLogEntryDto[];
}
