import { Body, Controller, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ErrorResponseDto } from '@h/http';
import { Access, AccessGrant, ClientIp, CurrentAccess, CurrentPrincipal, Principal } from '@h/identity';
import { CreateSessionDto, SessionDto, SessionListDto, SessionStateDto, UpdateSessionDto } from './session.dto';
import { SessionService } from './session.service';

@ApiTags('sessions')
@ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Invalid input' })
@Controller('v1')
export class SessionController {
  constructor(private readonly sessions: SessionService) {}

  @Get('workspaces/:id/sessions')
  @Access('workspace', 'id', 'viewer')
  @ApiOkResponse({ type: SessionListDto, description: 'Most recently active first' })
  listSessions(@Param('id') workspaceId: string): Promise<SessionListDto> {
    return this.sessions.list(workspaceId);
  }

  @Post('workspaces/:id/sessions')
  @Access('workspace', 'id', 'member', { scope: 'run' })
  @ApiCreatedResponse({ type: SessionDto })
  createSession(
    @CurrentPrincipal() principal: Principal,
    @CurrentAccess() access: AccessGrant,
    @Param('id') workspaceId: string,
    @Body() body: CreateSessionDto,
    @ClientIp() ip: string | null,
  ): Promise<SessionDto> {
    return this.sessions.create(principal, access, workspaceId, body, ip);
  }

  @Get('sessions/:id')
  @Access('session', 'id', 'viewer')
  @ApiOkResponse({ type: SessionDto })
  getSession(@Param('id') id: string): Promise<SessionDto> {
    return this.sessions.get(id);
  }

  @Patch('sessions/:id')
  @Access('session', 'id', 'member')
  @ApiOkResponse({ type: SessionDto })
  updateSession(
    @CurrentPrincipal() principal: Principal,
    @CurrentAccess() access: AccessGrant,
    @Param('id') id: string,
    @Body() body: UpdateSessionDto,
    @ClientIp() ip: string | null,
  ): Promise<SessionDto> {
    return this.sessions.update(principal, access, id, body, ip);
  }

  @Get('sessions/:id/state')
  @Access('session', 'id', 'viewer')
  @ApiOkResponse({ type: SessionStateDto, description: 'Todos, summary, usage and the active run' })
  getSessionState(@Param('id') id: string): Promise<SessionStateDto> {
    return this.sessions.state(id);
  }
}
