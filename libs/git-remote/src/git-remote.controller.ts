import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiConsumes,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiProduces,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AppException, ErrorResponseDto } from '@h/http';
import { Access, AccessGrant, AuditService, ClientIp, CurrentAccess, CurrentPrincipal, Principal } from '@h/identity';
import { GitRemoteInputDto, WorkspaceDto } from '@h/workspaces';
import { GitCredentialStore } from './git-credential.store';
import { ArchiveQueryDto, GitPushDto, GitRemoteResultDto, GitRemoteStatusDto, ImportArchiveQueryDto } from './git-remote.dto';
import { GitRemoteService } from './git-remote.service';
import { WorkspaceArchiveService } from './workspace-archive.service';

// Thin: bringing a project in (archive upload), taking it out (download), and remote git for the
// SCM panel with the stored credential. The rules live in the services.
@ApiTags('workspaces')
@ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Invalid input' })
@Controller('v1')
export class GitRemoteController {
  constructor(
    private readonly archives: WorkspaceArchiveService,
    private readonly remote: GitRemoteService,
    private readonly credentials: GitCredentialStore,
    private readonly audit: AuditService,
  ) {}

  @Post('teams/:teamId/workspaces/import')
  @Access('team', 'teamId', 'member')
  @ApiOperation({ summary: 'Create a workspace from an archive: the raw body is a zip or tar.gz (at most WORKSPACE_ARCHIVE_MAX_BYTES); unpacked by a worker while the workspace is "provisioning"' })
  @ApiConsumes('application/zip', 'application/gzip', 'application/octet-stream')
  @ApiBody({ schema: { type: 'string', format: 'binary', description: 'The archive bytes (zip or tar.gz, told apart by content)' } })
  @ApiCreatedResponse({ type: WorkspaceDto, description: 'Created in status "provisioning"; statusMessage shows the unpacking' })
  @ApiPayloadTooLargeResponse({ type: ErrorResponseDto, description: 'ARCHIVE_TOO_LARGE: over WORKSPACE_ARCHIVE_MAX_BYTES' })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto, description: 'ARCHIVE_INVALID, ARCHIVE_UNSAFE_ENTRY (zip-slip, links out, devices), ARCHIVE_UNPACKED_TOO_LARGE' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'QUOTA_EXCEEDED: the team has TEAM_MAX_WORKSPACES workspaces' })
  importWorkspace(
    @CurrentPrincipal() principal: Principal,
    @CurrentAccess() access: AccessGrant,
    @Query() query: ImportArchiveQueryDto,
    @Req() req: Request,
    @ClientIp() ip: string | null,
  ): Promise<WorkspaceDto> {
    return this.archives.importArchive(principal, access, query, req, ip);
  }

  @Get('workspaces/:id/archive')
  @Access('workspace', 'id', 'viewer')
  @ApiOperation({ summary: "Download the workspace's files (with .git) as tar.gz or zip (`format`), streamed" })
  @ApiProduces('application/gzip', 'application/zip', 'application/octet-stream')
  @ApiOkResponse({ schema: { type: 'string', format: 'binary' }, description: 'Content-Disposition names the file after the workspace' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'WORKSPACE_NOT_READY' })
  async downloadWorkspace(@CurrentAccess() access: AccessGrant, @Param('id') id: string, @Query() query: ArchiveQueryDto, @Res() res: Response): Promise<void> {
    await this.archives.download(access, id, res, query.format);
  }

  @Get('workspaces/:id/git/remote')
  @Access('workspace', 'id', 'viewer')
  @ApiOkResponse({ type: GitRemoteStatusDto, description: 'The remote without its credential' })
  async getGitRemote(@CurrentAccess() access: AccessGrant, @Param('id') id: string): Promise<GitRemoteStatusDto> {
    const status = await this.credentials.status(id);
    if (!status) throw AppException.notFound('Git remote');
    return status;
  }

  @Put('workspaces/:id/git/remote')
  @Access('workspace', 'id', 'admin')
  @ApiOkResponse({ type: GitRemoteStatusDto, description: 'Stored (credential encrypted); used by the next fetch, pull, push or setup retry' })
  async setGitRemote(
    @CurrentPrincipal() principal: Principal,
    @CurrentAccess() access: AccessGrant,
    @Param('id') id: string,
    @Body() body: GitRemoteInputDto,
    @ClientIp() ip: string | null,
  ): Promise<GitRemoteStatusDto> {
    const status = await this.credentials.store(id, await this.credentials.check(body), true);
    await this.audit.byPrincipal(principal, { action: 'workspace.git-remote.set', teamId: access.teamId, targetType: 'workspace', targetId: id, ip, metadata: { authKind: status.authKind } });
    return status;
  }

  @Delete('workspaces/:id/git/remote/credential')
  @HttpCode(204)
  @Access('workspace', 'id', 'admin')
  @ApiNoContentResponse({ description: 'The token or deploy key is deleted; the URL stays' })
  async deleteGitCredential(@CurrentPrincipal() principal: Principal, @CurrentAccess() access: AccessGrant, @Param('id') id: string, @ClientIp() ip: string | null): Promise<void> {
    if (!(await this.credentials.clearCredential(id))) throw AppException.notFound('Git credential');
    await this.audit.byPrincipal(principal, { action: 'workspace.git-remote.credential.delete', teamId: access.teamId, targetType: 'workspace', targetId: id, ip });
  }

  @Post('workspaces/:id/git/fetch')
  @HttpCode(200)
  @Access('workspace', 'id', 'member')
  @ApiOperation({ summary: 'Fetch origin into refs/remotes/origin/* (host-side, with the stored credential)' })
  @ApiOkResponse({ type: GitRemoteResultDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'WORKSPACE_NOT_READY, GIT_NO_REMOTE' })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto, description: 'GIT_REMOTE_FAILED: authentication, host or repository; the message says what to check' })
  fetchWorkspaceGit(@CurrentAccess() access: AccessGrant, @Param('id') id: string): Promise<GitRemoteResultDto> {
    return this.remote.fetch(access, id);
  }

  @Post('workspaces/:id/git/pull')
  @HttpCode(200)
  @Access('workspace', 'id', 'member')
  @ApiOperation({ summary: 'Fetch, then merge origin/<current branch> into it (fast-forward when possible)' })
  @ApiOkResponse({ type: GitRemoteResultDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'GIT_MERGE_CONFLICT (resolve and commit, or abort), GIT_LOCAL_CHANGES (commit or stash), GIT_NO_REMOTE, WORKSPACE_NOT_READY' })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto, description: 'GIT_REMOTE_FAILED' })
  pullWorkspaceGit(@CurrentPrincipal() principal: Principal, @CurrentAccess() access: AccessGrant, @Param('id') id: string): Promise<GitRemoteResultDto> {
    return this.remote.pull(principal, access, id);
  }

  @Post('workspaces/:id/git/push')
  @HttpCode(200)
  @Access('workspace', 'id', 'member')
  @ApiOperation({ summary: 'Push a local branch to origin (never forced)' })
  @ApiOkResponse({ type: GitRemoteResultDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'GIT_PUSH_REJECTED (pull first), GIT_NO_REMOTE, WORKSPACE_NOT_READY' })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto, description: 'GIT_REMOTE_FAILED' })
  pushWorkspaceGit(@CurrentAccess() access: AccessGrant, @Param('id') id: string, @Body() body: GitPushDto): Promise<GitRemoteResultDto> {
    return this.remote.push(access, id, body);
  }
}
