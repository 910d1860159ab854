import { Controller, Get, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ErrorResponseDto } from '@h/http';
import { Access, AccessGrant, CurrentAccess } from '@h/identity';
import { TeamUsageDto, UsageQueryDto } from './run.dto';
import { UsageService } from './usage.service';

@ApiTags('permissions')
@ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Invalid input' })
@Controller('v1')
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  @Get('teams/:teamId/usage')
  @Access('team', 'teamId', 'viewer')
  @ApiOkResponse({ type: TeamUsageDto, description: "Tokens and cost of the team's runs in one month" })
  getTeamUsage(@CurrentAccess() access: AccessGrant, @Query() query: UsageQueryDto): Promise<TeamUsageDto> {
    return this.usage.teamMonth(access.teamId, query.month);
  }
}
