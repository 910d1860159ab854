import { Body, Controller, Get, Put, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorResponseDto } from '@h/http';
import { Access, AccessGrant, ClientIp, CurrentAccess, CurrentPrincipal, Principal, UserOnly } from '@h/identity';
import { SetTeamBudgetDto, TeamBudgetStatusDto, TeamUsageReportDto } from './budget/budget.dto';
import { TeamBudgetService } from './budget/team-budget.service';
import { UsageQueryDto } from './run.dto';
import { UsageService } from './usage.service';

@ApiTags('usage')
@ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Invalid input' })
@Controller('v1')
export class UsageController {
  constructor(
    private readonly usage: UsageService,
    private readonly budget: TeamBudgetService,
  ) {}

  @Get('teams/:teamId/usage')
  @Access('team', 'teamId', 'viewer')
  @ApiOperation({ summary: "Tokens, cache hits and cost of the team's runs in one month: totals, the budget, and per user, workspace, model and day" })
  @ApiOkResponse({ type: TeamUsageReportDto })
  getTeamUsage(@CurrentAccess() access: AccessGrant, @Query() query: UsageQueryDto): Promise<TeamUsageReportDto> {
    return this.usage.teamMonth(access.teamId, query.month);
  }

  @Get('teams/:teamId/budget')
  @Access('team', 'teamId', 'viewer')
  @ApiOperation({ summary: "The team's monthly budget and this month's spend against it" })
  @ApiOkResponse({ type: TeamBudgetStatusDto })
  getBudget(@CurrentAccess() access: AccessGrant): Promise<TeamBudgetStatusDto> {
    return this.budget.status(access.teamId);
  }

  // People decide what the team may spend; a bot's token never raises its own ceiling.
  @Put('teams/:teamId/budget')
  @UserOnly()
  @Access('team', 'teamId', 'admin')
  @ApiOperation({ summary: 'Set or remove the monthly budget (owners and admins). Runs are refused (402 BUDGET_EXCEEDED) and stopped once the month\'s spend reaches it.' })
  @ApiOkResponse({ type: TeamBudgetStatusDto })
  setBudget(
    @CurrentPrincipal() principal: Principal,
    @CurrentAccess() access: AccessGrant,
    @Body() body: SetTeamBudgetDto,
    @ClientIp() ip: string | null,
  ): Promise<TeamBudgetStatusDto> {
    return this.usage.setBudget(principal, access.teamId, body.monthlyUsd, ip);
  }
}
