import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ErrorResponseDto } from '@h/http';
import { Access, AccessGrant, ClientIp, CurrentAccess, CurrentPrincipal, Principal } from '@h/identity';
import { CreateWorkspaceDto, EgressLogDto, UpdateWorkspaceDto, WorkspaceDto, WorkspaceListDto } from './workspace.dto';
import { WorkspaceService } from './workspace.service';

@ApiTags('workspaces')
@ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Invalid input' })
@Controller('v1')
export class WorkspaceController {
  constructor(private readonly workspaces: WorkspaceService) {}

  @Get('teams/:teamId/workspaces')
  @Access('team', 'teamId', 'viewer')
  @ApiOkResponse({ type: WorkspaceListDto })
  listWorkspaces(@CurrentAccess() access: AccessGrant): Promise<WorkspaceListDto> {
    return this.workspaces.list(access);
  }

  @Post('teams/:teamId/workspaces')
  @Access('team', 'teamId', 'member')
  @ApiCreatedResponse({ type: WorkspaceDto, description: 'Created in status "provisioning"; a worker sets it up' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'QUOTA_EXCEEDED: the team has TEAM_MAX_WORKSPACES workspaces' })
  createWorkspace(
    @CurrentPrincipal() principal: Principal,
    @CurrentAccess() access: AccessGrant,
    @Body() body: CreateWorkspaceDto,
    @ClientIp() ip: string | null,
  ): Promise<WorkspaceDto> {
    return this.workspaces.create(principal, access, body, ip);
  }

  @Get('workspaces/:id')
  @Access('workspace', 'id', 'viewer')
  @ApiOkResponse({ type: WorkspaceDto })
  getWorkspace(@CurrentAccess() access: AccessGrant, @Param('id') id: string): Promise<WorkspaceDto> {
    return this.workspaces.get(access, id);
  }

  @Patch('workspaces/:id')
  @Access('workspace', 'id', 'member')
  @ApiOkResponse({ type: WorkspaceDto })
  updateWorkspace(
    @CurrentPrincipal() principal: Principal,
    @CurrentAccess() access: AccessGrant,
    @Param('id') id: string,
    @Body() body: UpdateWorkspaceDto,
    @ClientIp() ip: string | null,
  ): Promise<WorkspaceDto> {
    return this.workspaces.update(principal, access, id, body, ip);
  }

  @Post('workspaces/:id/setup/retry')
  @HttpCode(200)
  @Access('workspace', 'id', 'member')
  @ApiOkResponse({ type: WorkspaceDto, description: 'Back in "provisioning"; a worker sets it up again (clone, unpack, sandbox)' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'CONFLICT: the workspace is not in status "error"' })
  retryWorkspaceSetup(
    @CurrentPrincipal() principal: Principal,
    @CurrentAccess() access: AccessGrant,
    @Param('id') id: string,
    @ClientIp() ip: string | null,
  ): Promise<WorkspaceDto> {
    return this.workspaces.retrySetup(principal, access, id, ip);
  }

  @Get('workspaces/:id/egress-log')
  @Access('workspace', 'id', 'admin')
  @ApiOkResponse({ type: EgressLogDto, description: "The sandbox's latest 100 connections through the egress proxy, allowed and refused" })
  listWorkspaceEgress(@CurrentAccess() access: AccessGrant, @Param('id') id: string): Promise<EgressLogDto> {
    return this.workspaces.listEgress(access, id);
  }

  @Delete('workspaces/:id')
  @HttpCode(204)
  @Access('workspace', 'id', 'admin')
  @ApiNoContentResponse({ description: 'Deleted with everything in it' })
  deleteWorkspace(
    @CurrentPrincipal() principal: Principal,
    @CurrentAccess() access: AccessGrant,
    @Param('id') id: string,
    @ClientIp() ip: string | null,
  ): Promise<void> {
    return this.workspaces.remove(principal, access, id, ip);
  }
}
