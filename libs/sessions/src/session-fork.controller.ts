import { Body, Controller, Param, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiCreatedResponse, ApiTags } from '@nestjs/swagger';
import { ErrorResponseDto } from '@h/http';
import { Access, AccessGrant, ClientIp, CurrentAccess, CurrentPrincipal, Principal } from '@h/identity';
import { ForkSessionDto, ForkSessionResultDto } from './session-fork.dto';
import { SessionForkService } from './session-fork.service';

@ApiTags('sessions')
@ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Invalid input, or atSeq is not a user message' })
@Controller('v1')
export class SessionForkController {
  constructor(private readonly forks: SessionForkService) {}

  @Post('sessions/:id/fork')
  @Access('session', 'id', 'member')
  @ApiCreatedResponse({ type: ForkSessionResultDto, description: 'A new session in the same workspace with the log before that message; the files restored for everyone in the workspace' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'RUN_ACTIVE (a run is going in the workspace) or CHECKPOINT_GONE' })
  forkSession(
    @CurrentPrincipal() principal: Principal,
    @CurrentAccess() access: AccessGrant,
    @Param('id') id: string,
    @Body() body: ForkSessionDto,
    @ClientIp() ip: string | null,
  ): Promise<ForkSessionResultDto> {
    return this.forks.fork(principal, access, id, body, ip);
  }
}
