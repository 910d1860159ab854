import { ApiProperty, ApiPropertyOptional, PartialType, PickType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsObject, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { WORKSPACE_STATUSES, type GitWorkspaceSource, type ListResponse, type WorkspaceResponse, type WorkspaceStatus } from '@h/contracts';

/** Entries of a workspace's egress allowlist at most. */
export const MAX_ALLOWED_HOSTS = 100;

/** A git branch name: no leading "-", no "..", "//" or "@{", no trailing "." or "/". */
export const GIT_BRANCH_PATTERN = '^(?!-)(?!.*\\.\\.)(?!.*//)(?!.*@\\{)[A-Za-z0-9._/-]{1,200}(?<![./])$';

/** The largest pasted deploy key (an RSA-4096 OpenSSH key is about 3.4 KB). */
export const MAX_PRIVATE_KEY_LENGTH = 16_384;

export class GitRemoteInputDto {
  @ApiProperty({ example: 'https://git.example.org/team/billing.git', maxLength: 2048, description: 'https://, http:// or ssh (ssh://… or git@host:path); no password or token in it' })
  @IsString()
  @MinLength(1)
  @MaxLength(2048)
  url: string;

  @ApiPropertyOptional({ example: 'main', maxLength: 200, pattern: GIT_BRANCH_PATTERN, description: "Branch to check out; default the remote's default branch" })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  @Matches(new RegExp(GIT_BRANCH_PATTERN), { message: 'branch must be a valid git branch name' })
  branch?: string;

  @ApiPropertyOptional({ example: 'glpat-xxxxxxxxxxxxxxxxxxxx', maxLength: 4096, description: 'HTTPS: an access token (or password), sent as Basic auth; stored encrypted, never returned' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(4096)
  @Matches(/^[\x21-\x7e]+$/, { message: 'token must be printable ASCII without spaces' })
  token?: string;

  @ApiPropertyOptional({ example: 'ci-bot', maxLength: 200, pattern: '^[A-Za-z0-9._@+-]{1,200}$', description: 'HTTPS: the user name for the token (default "git")' })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9._@+-]{1,200}$/, { message: 'username may contain letters, digits and . _ @ + -' })
  username?: string;

  @ApiPropertyOptional({
    example: '-----BEGIN OPENSSH PRIVATE KEY-----\n…\n-----END OPENSSH PRIVATE KEY-----',
    maxLength: MAX_PRIVATE_KEY_LENGTH,
    description: 'SSH: a deploy key (OpenSSH or PEM private key, no passphrase); stored encrypted, never returned',
  })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_PRIVATE_KEY_LENGTH)
  privateKey?: string;
}

export class WorkspaceSourceDto extends GitRemoteInputDto implements GitWorkspaceSource {
  @ApiProperty({ enum: ['git'], example: 'git', description: 'Clone a git repository (archives: POST /api/v1/teams/{teamId}/workspaces/import)' })
  @IsIn(['git'])
  kind: 'git';
}

export class CreateWorkspaceDto {
  @ApiProperty({ example: 'billing-service', minLength: 1, maxLength: 80 })
  @IsString()
  @MinLength(1)
  @MaxLength(80)
  @Matches(/\S/, { message: 'name must not be blank' })
  name: string;

  @ApiPropertyOptional({ maxLength: 500, example: 'Invoices and payment reminders' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;

  @ApiPropertyOptional({ type: WorkspaceSourceDto, description: 'Where the files come from; omitted: an empty workspace. The clone runs on the server, the credential never enters the sandbox.' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => WorkspaceSourceDto)
  source?: WorkspaceSourceDto;
}

// The name and description rules are CreateWorkspaceDto's, here optional (PartialType keeps the
// validators and adds @IsOptional); the archive import's query takes them too (libs/git-remote).
export class UpdateWorkspaceDto extends PartialType(PickType(CreateWorkspaceDto, ['name', 'description'] as const)) {
  @ApiPropertyOptional({
    example: false,
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
  @ApiProperty({ example: 'billing-service' }) name: string;
  @ApiProperty({ example: 'Invoices and payment reminders' }) description: string;
  @ApiProperty({ enum: WORKSPACE_STATUSES }) status: WorkspaceStatus;
  @ApiProperty({ nullable: true, type: String, description: 'Why setup failed, or what it is doing', example: null }) statusMessage: string | null;
  @ApiProperty({ example: false }) networkEnabled: boolean;
  @ApiProperty({ type: [String], example: ['registry.example.org'] }) allowedHosts: string[];
  @ApiProperty({ nullable: true, type: Date }) setupAt: Date | null;
  @ApiProperty() createdAt: Date;
  @ApiProperty() updatedAt: Date;
}

export class WorkspaceListDto implements ListResponse<WorkspaceDto> {
  @ApiProperty({ type: [WorkspaceDto] }) items: WorkspaceDto[];
}

export class EgressLogEntryDto {
  @ApiProperty({ enum: ['connect', 'http'] }) kind: string;
  @ApiProperty({ example: 'registry.example.org' }) host: string;
  @ApiProperty({ example: 443 }) port: number;
  @ApiProperty({ example: true }) allowed: boolean;
  @ApiProperty({ nullable: true, type: String, description: 'Why the proxy refused (e.g. NOT_ALLOWLISTED, PRIVATE_ADDRESS)', example: null }) reason: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The address the name resolved to', example: '198.51.100.23' }) address: string | null;
  @ApiProperty({ example: 48213 }) bytesIn: number;
  @ApiProperty({ example: 1290 }) bytesOut: number;
  @ApiProperty({ example: 312 }) durationMs: number;
  @ApiProperty() createdAt: Date;
}

export class EgressLogDto {
  @ApiProperty({ type: [EgressLogEntryDto], description: 'Newest first' }) items: EgressLogEntryDto[];
}
