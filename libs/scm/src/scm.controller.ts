import { applyDecorators, Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { ErrorResponseDto } from '@h/http';
import { Access, CurrentPrincipal, type Principal } from '@h/identity';
import {
  GitBranchListDto,
  GitCheckoutDto,
  GitCommitDto,
  GitCommitResultDto,
  GitCreateBranchDto,
  GitDiffDto,
  GitDiffQueryDto,
  GitLogDto,
  GitLogQueryDto,
  GitPathsDto,
  GitStatusDto,
} from './scm.dto';
import { GitDiffService } from './git-diff.service';
import { ScmService } from './scm.service';

/** What every git route may answer besides its success: git's refusals, always 4xx. */
const GitErrors = () =>
  applyDecorators(
    ApiConflictResponse({ type: ErrorResponseDto, description: "NOT_A_REPOSITORY (POST …/git/init first), GIT_CONFLICT or GIT_REFUSED: git's own message, with what to do" }),
    ApiUnprocessableEntityResponse({ type: ErrorResponseDto, description: 'GIT_TIMEOUT: git ran longer than SCM_COMMAND_TIMEOUT_MS' }),
    ApiResponse({ status: 503, type: ErrorResponseDto, description: 'SANDBOX_UNAVAILABLE: the sandbox could not be started or reached' }),
  );
const PathErrors = () => ApiBadRequestResponse({ type: ErrorResponseDto, description: 'PATH_OUTSIDE_WORKSPACE or VALIDATION_FAILED: a path leaves the workspace or breaks a rule' });

// Thin: the rules live in ScmService / GitDiffService. Fetch, pull and push are not here: they
// run host-side with the stored credential (libs/git-remote), under the same git/ prefix.
@ApiTags('git')
@Controller('v1/workspaces/:id/git')
export class ScmController {
  constructor(
    private readonly scm: ScmService,
    private readonly diffs: GitDiffService,
  ) {}

  @Get('status')
  @Access('workspace', 'id', 'viewer')
  @ApiOperation({ summary: 'Branch, upstream, ahead/behind and the changed files (staged, unstaged, untracked, conflicted); { initialized: false } without a repository' })
  @ApiOkResponse({ type: GitStatusDto })
  @GitErrors()
  gitStatus(@Param('id') id: string): Promise<GitStatusDto> {
    return this.scm.status(id);
  }

  @Post('init')
  @HttpCode(200)
  @Access('workspace', 'id', 'member')
  @ApiOperation({ summary: 'git init at the workspace root (branch main); on an existing repository it changes nothing' })
  @ApiOkResponse({ type: GitStatusDto })
  @GitErrors()
  gitInit(@Param('id') id: string): Promise<GitStatusDto> {
    return this.scm.init(id);
  }

  @Get('diff')
  @Access('workspace', 'id', 'viewer')
  @ApiOperation({ summary: "One file's two versions (text for a diff editor) and its unified patch; sides over SCM_DIFF_MAX_BYTES or binary are left out" })
  @ApiOkResponse({ type: GitDiffDto })
  @PathErrors()
  @GitErrors()
  gitDiff(@Param('id') id: string, @Query() query: GitDiffQueryDto): Promise<GitDiffDto> {
    return this.diffs.diff(id, query.path, query.staged === 'true', query.originalPath);
  }

  @Post('stage')
  @HttpCode(200)
  @Access('workspace', 'id', 'member')
  @ApiOperation({ summary: 'git add: the named files (deletions too), or all: true for every change; answers the new status' })
  @ApiOkResponse({ type: GitStatusDto })
  @PathErrors()
  @GitErrors()
  gitStage(@Param('id') id: string, @Body() body: GitPathsDto): Promise<GitStatusDto> {
    return this.scm.stage(id, body);
  }

  @Post('unstage')
  @HttpCode(200)
  @Access('workspace', 'id', 'member')
  @ApiOperation({ summary: 'Take the named files (or all: true) out of the index; the working tree keeps them; answers the new status' })
  @ApiOkResponse({ type: GitStatusDto })
  @PathErrors()
  @GitErrors()
  gitUnstage(@Param('id') id: string, @Body() body: GitPathsDto): Promise<GitStatusDto> {
    return this.scm.unstage(id, body);
  }

  @Post('discard')
  @HttpCode(200)
  @Access('workspace', 'id', 'member')
  @ApiOperation({ summary: 'Throw away working-tree changes of the named files: tracked ones go back to the index version, untracked ones are deleted. Cannot be undone.' })
  @ApiOkResponse({ type: GitStatusDto })
  @PathErrors()
  @GitErrors()
  gitDiscard(@Param('id') id: string, @Body() body: GitPathsDto): Promise<GitStatusDto> {
    return this.scm.discard(id, body);
  }

  @Post('commit')
  @Access('workspace', 'id', 'member')
  @ApiOperation({ summary: "Commit the index; author and committer are you (your account's name and email)" })
  @ApiCreatedResponse({ type: GitCommitResultDto })
  @GitErrors()
  gitCommit(@Param('id') id: string, @Body() body: GitCommitDto, @CurrentPrincipal() principal: Principal): Promise<GitCommitResultDto> {
    return this.scm.commit(id, principal.userId, body.message, body.amend ?? false);
  }

  @Get('branches')
  @Access('workspace', 'id', 'viewer')
  @ApiOperation({ summary: 'Local and remote-tracking branches, and the current one' })
  @ApiOkResponse({ type: GitBranchListDto })
  @GitErrors()
  gitBranches(@Param('id') id: string): Promise<GitBranchListDto> {
    return this.scm.branches(id);
  }

  @Post('branches')
  @Access('workspace', 'id', 'member')
  @ApiOperation({ summary: 'Create a branch from HEAD or `from`, and switch to it unless checkout: false' })
  @ApiCreatedResponse({ type: GitBranchListDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'INVALID_REF_NAME: the name breaks a git ref rule (the message says which)' })
  @ApiResponse({ status: 404, type: ErrorResponseDto, description: 'GIT_REF_NOT_FOUND: no such start point (or not a member of the team: NOT_FOUND)' })
  @GitErrors()
  gitCreateBranch(@Param('id') id: string, @Body() body: GitCreateBranchDto): Promise<GitBranchListDto> {
    return this.scm.createBranch(id, body);
  }

  @Post('checkout')
  @HttpCode(200)
  @Access('workspace', 'id', 'member')
  @ApiOperation({ summary: 'Switch to a branch; local changes the switch would overwrite are 409 GIT_CONFLICT with git\'s list of files' })
  @ApiOkResponse({ type: GitStatusDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'INVALID_REF_NAME' })
  @ApiResponse({ status: 404, type: ErrorResponseDto, description: 'GIT_REF_NOT_FOUND: no such branch (or not a member of the team: NOT_FOUND)' })
  @GitErrors()
  gitCheckout(@Param('id') id: string, @Body() body: GitCheckoutDto): Promise<GitStatusDto> {
    return this.scm.checkout(id, body.branch);
  }

  @Get('log')
  @Access('workspace', 'id', 'viewer')
  @ApiOperation({ summary: "The current branch's commits, newest first, a page at a time" })
  @ApiOkResponse({ type: GitLogDto })
  @GitErrors()
  gitLog(@Param('id') id: string, @Query() query: GitLogQueryDto): Promise<GitLogDto> {
    return this.scm.log(id, query.limit ?? 50, query.skip ?? 0);
  }
}
