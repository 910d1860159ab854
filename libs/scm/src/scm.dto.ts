import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import {
  GIT_BRANCH_NAME_MAX_LENGTH,
  GIT_CHANGE_KINDS,
  GIT_COMMIT_MESSAGE_MAX_LENGTH,
  GIT_LOG_MAX_LIMIT,
  GIT_PATHS_MAX,
  type GitBranch,
  type GitBranchList,
  type GitChangeKind,
  type GitCheckoutRequest,
  type GitCommitRequest,
  type GitCommitResult,
  type GitCommitSummary,
  type GitCreateBranchRequest,
  type GitDiff,
  type GitDiffSide,
  type GitFileChange,
  type GitLog,
  type GitPathsRequest,
} from '@h/contracts';
import { FILE_PATH_MAX_LENGTH } from '@h/files';

const PATH_RULES = 'Relative to the workspace root, "/"-separated; no leading "/", no ".." segment, no NUL (400 PATH_OUTSIDE_WORKSPACE)';
const BRANCH_RULES = `git check-ref-format --branch rules: no spaces, control characters, ~ ^ : ? * [ \\, "..", "@{", leading "-", a part starting with "." or ending with ".lock"; at most ${GIT_BRANCH_NAME_MAX_LENGTH} characters (400 INVALID_REF_NAME)`;

export class GitDiffQueryDto {
  @ApiProperty({ maxLength: FILE_PATH_MAX_LENGTH, description: PATH_RULES, example: 'src/app.ts' })
  @IsString()
  @MaxLength(FILE_PATH_MAX_LENGTH)
  path: string;

  @ApiPropertyOptional({ enum: ['true', 'false'], default: 'false', description: 'true: HEAD → index (a staged change); false: index → working tree' })
  @IsOptional()
  @IsIn(['true', 'false'])
  staged?: 'true' | 'false';

  @ApiPropertyOptional({ maxLength: FILE_PATH_MAX_LENGTH, description: `A staged rename's or copy's original path (status gives it): the original side is read from there. ${PATH_RULES}`, example: 'src/old-app.ts' })
  @IsOptional()
  @IsString()
  @MaxLength(FILE_PATH_MAX_LENGTH)
  originalPath?: string;
}

export class GitLogQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: GIT_LOG_MAX_LIMIT, default: 50, description: 'Commits per page' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(GIT_LOG_MAX_LIMIT)
  limit?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 1_000_000, default: 0, description: 'Commits to skip from the newest (the next page: skip + commits.length)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  skip?: number;
}

export class GitPathsDto implements GitPathsRequest {
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', maxLength: FILE_PATH_MAX_LENGTH },
    maxItems: GIT_PATHS_MAX,
    example: ['src/app.ts', 'README.md'],
    description: `The files, as GET …/git/status names them (${PATH_RULES}). Leave out and send all: true to stage or unstage everything.`,
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(GIT_PATHS_MAX)
  @IsString({ each: true })
  @MaxLength(FILE_PATH_MAX_LENGTH, { each: true })
  paths?: string[];

  @ApiPropertyOptional({ description: 'Every change (stage, unstage); discard refuses it (name the files)', example: false })
  @IsOptional()
  @IsBoolean()
  all?: boolean;
}

export class GitCommitDto implements GitCommitRequest {
  @ApiProperty({ minLength: 1, maxLength: GIT_COMMIT_MESSAGE_MAX_LENGTH, description: 'The commit message (first line: the subject)', example: 'Fix the login redirect\n\nThe next= path was dropped after sign-up.' })
  @IsString()
  @MinLength(1)
  @MaxLength(GIT_COMMIT_MESSAGE_MAX_LENGTH)
  message: string;

  @ApiPropertyOptional({ default: false, description: 'Replace the last commit with the index and this message (its author stays)' })
  @IsOptional()
  @IsBoolean()
  amend?: boolean;
}

export class GitCreateBranchDto implements GitCreateBranchRequest {
  @ApiProperty({ maxLength: GIT_BRANCH_NAME_MAX_LENGTH, description: BRANCH_RULES, example: 'feature/login' })
  @IsString()
  @MaxLength(GIT_BRANCH_NAME_MAX_LENGTH)
  name: string;

  @ApiPropertyOptional({ maxLength: GIT_BRANCH_NAME_MAX_LENGTH, description: 'Start point: a branch (`main`, `origin/main`), a tag or a commit hash; default HEAD', example: 'main' })
  @IsOptional()
  @IsString()
  @MaxLength(GIT_BRANCH_NAME_MAX_LENGTH)
  from?: string;

  @ApiPropertyOptional({ default: true, description: 'Switch to the new branch too' })
  @IsOptional()
  @IsBoolean()
  checkout?: boolean;
}

export class GitCheckoutDto implements GitCheckoutRequest {
  @ApiProperty({ maxLength: GIT_BRANCH_NAME_MAX_LENGTH, description: `A local branch, or a remote branch's short name to track it (\`feature\` for origin/feature). ${BRANCH_RULES}`, example: 'main' })
  @IsString()
  @MaxLength(GIT_BRANCH_NAME_MAX_LENGTH)
  branch: string;
}

export class GitFileChangeDto implements GitFileChange {
  @ApiProperty({ example: 'src/app.ts' }) path: string;
  @ApiProperty({ enum: GIT_CHANGE_KINDS, example: 'modified' }) kind: GitChangeKind;
  @ApiPropertyOptional({ description: 'Renames and copies: the path it came from', example: 'src/old-app.ts' }) originalPath?: string;
}

/** Both shapes of GitStatus in one schema: without a repository only `initialized: false` is there. */
export class GitStatusDto {
  @ApiProperty({ description: 'false: the workspace has no repository at its root (nothing else is in the answer); POST …/git/init makes one', example: true })
  initialized: boolean;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'The checked-out branch; null when HEAD is detached', example: 'main' }) branch?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: "HEAD's commit; null before the first commit", example: '3f2a9c1e0b7d4a5f8e6c2b1a0d9e8f7c6b5a4d3e' }) head?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'origin/main' }) upstream?: string | null;
  @ApiPropertyOptional({ example: 1 }) ahead?: number;
  @ApiPropertyOptional({ example: 0 }) behind?: number;
  @ApiPropertyOptional({ type: [GitFileChangeDto] }) staged?: GitFileChangeDto[];
  @ApiPropertyOptional({ type: [GitFileChangeDto] }) unstaged?: GitFileChangeDto[];
  @ApiPropertyOptional({ type: [GitFileChangeDto], example: [{ path: 'notes.md', kind: 'untracked' }] }) untracked?: GitFileChangeDto[];
  @ApiPropertyOptional({ type: [GitFileChangeDto] }) conflicted?: GitFileChangeDto[];
  @ApiPropertyOptional({ description: 'More files changed than listed (GIT_STATUS_MAX_FILES, 5,000, or SCM_OUTPUT_MAX_BYTES of git output)', example: false }) truncated?: boolean;
}

export class GitDiffSideDto implements GitDiffSide {
  @ApiProperty({ description: "The file's text; '' when it does not exist here, or is binary or too large", example: 'export const answer = 41;\n' }) text: string;
  @ApiProperty({ example: true }) exists: boolean;
  @ApiProperty({ example: false }) binary: boolean;
  @ApiProperty({ description: 'Over SCM_DIFF_MAX_BYTES: not shown', example: false }) tooLarge: boolean;
}

export class GitDiffDto implements GitDiff {
  @ApiProperty({ example: 'src/app.ts' }) path: string;
  @ApiProperty({ example: false }) staged: boolean;
  @ApiProperty({ type: GitDiffSideDto }) original: GitDiffSideDto;
  @ApiProperty({ type: GitDiffSideDto }) modified: GitDiffSideDto;
  @ApiProperty({ description: 'git diff of the file (unified)', example: '--- a/src/app.ts\n+++ b/src/app.ts\n@@ -1 +1 @@\n-export const answer = 41;\n+export const answer = 42;\n' }) patch: string;
  @ApiProperty({ description: 'The patch was cut at SCM_DIFF_MAX_BYTES', example: false }) patchTruncated: boolean;
}

export class GitCommitResultDto implements GitCommitResult {
  @ApiProperty({ example: '3f2a9c1e0b7d4a5f8e6c2b1a0d9e8f7c6b5a4d3e' }) hash: string;
  @ApiProperty({ example: 'Fix the login redirect' }) subject: string;
  @ApiProperty({ type: String, nullable: true, example: 'main' }) branch: string | null;
}

export class GitBranchDto implements GitBranch {
  @ApiProperty({ example: 'main' }) name: string;
  @ApiProperty({ description: 'A remote-tracking branch (origin/…)', example: false }) remote: boolean;
  @ApiProperty({ example: '3f2a9c1e0b7d4a5f8e6c2b1a0d9e8f7c6b5a4d3e' }) commit: string;
  @ApiProperty({ type: String, nullable: true, example: 'origin/main' }) upstream: string | null;
  @ApiProperty({ example: true }) current: boolean;
}

export class GitBranchListDto implements GitBranchList {
  @ApiProperty({ type: String, nullable: true, description: 'null when HEAD is detached', example: 'main' }) current: string | null;
  @ApiProperty({ type: [GitBranchDto] }) branches: GitBranchDto[];
}

export class GitCommitSummaryDto implements GitCommitSummary {
  @ApiProperty({ example: '3f2a9c1e0b7d4a5f8e6c2b1a0d9e8f7c6b5a4d3e' }) hash: string;
  @ApiProperty({ example: 'Ada Lovelace' }) author: string;
  @ApiProperty({ example: 'ada@example.org' }) email: string;
  @ApiProperty({ description: 'Author date, ISO 8601', example: '2026-12-01T12:00:00+00:00' }) date: string;
  @ApiProperty({ example: 'Fix the login redirect' }) subject: string;
}

export class GitLogDto implements GitLog {
  @ApiProperty({ type: [GitCommitSummaryDto] }) commits: GitCommitSummaryDto[];
  @ApiProperty({ description: 'More commits follow (ask with skip + commits.length)', example: false }) hasMore: boolean;
}
