import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { InstanceAdmin } from '@h/identity';
import { AdminSandboxListDto, AdminTeamListDto, InstanceQuotasDto } from './admin.dto';
import { AdminService } from './admin.service';

@ApiTags('admin')
@Controller('v1/admin')
export class AdminController {
  constructor(private readonly admin: AdminService) {}

  @Get('teams')
  @InstanceAdmin()
  @ApiOkResponse({ type: AdminTeamListDto, description: "Every team of the instance: members, workspaces, this month's runs and cost, budget, running sandboxes, active runs" })
  listInstanceTeams(): Promise<AdminTeamListDto> {
    return this.admin.teams();
  }

  @Get('sandboxes')
  @InstanceAdmin()
  @ApiOkResponse({ type: AdminSandboxListDto, description: 'The sandboxes running now, longest running first' })
  listRunningSandboxes(): Promise<AdminSandboxListDto> {
    return this.admin.runningSandboxes();
  }

  @Get('quotas')
  @InstanceAdmin()
  @ApiOkResponse({ type: InstanceQuotasDto, description: "The per-team quotas the instance sets (TEAM_MAX_*)" })
  getInstanceQuotas(): InstanceQuotasDto {
    return this.admin.quotas();
  }
}
