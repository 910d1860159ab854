import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { GIT_AUTH_KINDS, type GitAuthKind, type GitPushRequest, type GitRefUpdate, type GitRemoteResult, type GitRemoteStatus } from '@h/contracts';
import { CreateWorkspaceDto, GIT_BRANCH_PATTERN } from '@h/workspaces';

export class GitRemoteStatusDto implements GitRemoteStatus<Date> {
  @ApiProperty({ example: 'https://git.example.org/team/billing.git', description: 'Without credentials' }) url: string;
  @ApiProperty({ nullable: true, type: String, example: 'main' }) branch: string | null;
  @ApiProperty({ enum: GIT_AUTH_KINDS, example: 'token' }) authKind: GitAuthKind;
  @ApiProperty({ nullable: true, type: String, example: 'ci-bot' }) username: string | null;
  @ApiProperty({ example: true, description: 'A token or deploy key is stored (it is never returned)' }) hasCredential: boolean;
  @ApiProperty() updatedAt: Date;
}

export class GitRefUpdateDto implements GitRefUpdate {
  @ApiProperty({ example: 'refs/remotes/origin/main' }) ref: string;
  @ApiProperty({ nullable: true, type: String, example: '4b825dc642cb6eb9a060e54bf8d69288fbee4904' }) from: string | null;
  @ApiProperty({ nullable: true, type: String, example: '9fceb02d0ae598e95dc970b74767f19372d61af8' }) to: string | null;
}

export class GitRemoteResultDto implements GitRemoteResult {
  @ApiProperty({ enum: ['fetch', 'pull', 'push'], example: 'push' }) operation: 'fetch' | 'pull' | 'push';
  @ApiProperty({ nullable: true, type: String, example: 'main' }) branch: string | null;
  @ApiProperty({ type: [GitRefUpdateDto] }) updated: GitRefUpdateDto[];
  @ApiProperty({ nullable: true, enum: ['fast-forward', 'merge', 'up-to-date'], example: null }) merge: 'fast-forward' | 'merge' | 'up-to-date' | null;
  @ApiProperty({ nullable: true, type: String, example: '9fceb02d0ae598e95dc970b74767f19372d61af8' }) head: string | null;
  @ApiProperty({ example: 'Pushed main to origin (9fceb02).' }) message: string;
}

export class GitPushDto implements GitPushRequest {
  @ApiPropertyOptional({ example: 'main', maxLength: 200, pattern: GIT_BRANCH_PATTERN, description: 'Local branch to push; default the checked-out one' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  @Matches(new RegExp(GIT_BRANCH_PATTERN), { message: 'branch must be a valid git branch name' })
  branch?: string;

  @ApiPropertyOptional({ example: true, description: 'Make origin/<branch> the upstream of the branch' })
  @IsOptional()
  @IsBoolean()
  setUpstream?: boolean;
}

/** The new workspace's name and description, under CreateWorkspaceDto's rules. */
export class ImportArchiveQueryDto extends PickType(CreateWorkspaceDto, ['name', 'description'] as const) {}

export class ArchiveQueryDto {
  @ApiPropertyOptional({ enum: ['tar.gz', 'zip'], default: 'tar.gz', description: 'Archive format: tar.gz, or zip (symlinks kept as unix links)' })
  @IsOptional()
  @IsIn(['tar.gz', 'zip'])
  format?: 'tar.gz' | 'zip';
}
