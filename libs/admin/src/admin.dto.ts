import { ApiProperty } from '@nestjs/swagger';
import type { AdminSandbox, AdminSandboxList, AdminTeam, AdminTeamList, InstanceQuota, InstanceQuotas, TeamBudgetStatus } from '@h/contracts';

export class AdminBudgetDto implements TeamBudgetStatus<Date> {
  @ApiProperty({ example: '2026-12' }) month: string;
  @ApiProperty({ nullable: true, type: Number, example: 200, description: 'Dollars per month; null: no budget' }) monthlyUsd: number | null;
  @ApiProperty({ example: 12.5 }) spentUsd: number;
  @ApiProperty({ nullable: true, type: Number, example: 187.5 }) remainingUsd: number | null;
  @ApiProperty({ example: false }) exceeded: boolean;
  @ApiProperty({ example: false }) warning: boolean;
  @ApiProperty({ example: '2027-01-01T00:00:00.000Z' }) resetsAt: Date;
}

export class AdminTeamDto implements AdminTeam<Date> {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'Platform' }) name: string;
  @ApiProperty({ example: 'platform' }) slug: string;
  @ApiProperty({ example: '2026-11-02T09:14:00.000Z' }) createdAt: Date;
  @ApiProperty({ example: 6 }) members: number;
  @ApiProperty({ example: 3 }) workspaces: number;
  @ApiProperty({ example: 41, description: 'Runs created this calendar month (UTC)' }) monthRuns: number;
  @ApiProperty({ example: 12.5, description: 'What those runs cost, in dollars' }) monthCostUsd: number;
  @ApiProperty({ type: AdminBudgetDto }) budget: AdminBudgetDto;
  @ApiProperty({ example: 1 }) runningSandboxes: number;
  @ApiProperty({ example: 2, description: 'Runs queued or running now' }) activeRuns: number;
}

export class AdminTeamListDto implements AdminTeamList<Date> {
  @ApiProperty({ example: '2026-12', description: 'The month monthRuns and monthCostUsd count' }) month: string;
  @ApiProperty({ type: [AdminTeamDto] }) items: AdminTeamDto[];
}

export class AdminSandboxDto implements AdminSandbox<Date> {
  @ApiProperty({ format: 'uuid' }) workspaceId: string;
  @ApiProperty({ example: 'billing-service' }) workspaceName: string;
  @ApiProperty({ format: 'uuid' }) teamId: string;
  @ApiProperty({ example: 'Platform' }) teamName: string;
  @ApiProperty({ example: 'running' }) state: string;
  @ApiProperty({ example: 'docker' }) driver: string;
  @ApiProperty({ example: '2026-12-03T07:40:00.000Z', description: 'When its record last changed: the start that made it running, or a later update' }) since: Date;
  @ApiProperty({ example: '2026-12-03T07:52:10.000Z' }) lastUsedAt: Date;
}

export class AdminSandboxListDto implements AdminSandboxList<Date> {
  @ApiProperty({ type: [AdminSandboxDto] }) items: AdminSandboxDto[];
}

export class InstanceQuotaDto implements InstanceQuota {
  @ApiProperty({ example: 'TEAM_MAX_WORKSPACES' }) setting: string;
  @ApiProperty({ example: 20 }) limit: number;
  @ApiProperty({ example: 'Workspaces a team may have' }) description: string;
}

export class InstanceQuotasDto implements InstanceQuotas {
  @ApiProperty({ type: InstanceQuotaDto }) workspaces: InstanceQuotaDto;
  @ApiProperty({ type: InstanceQuotaDto }) runningSandboxes: InstanceQuotaDto;
  @ApiProperty({ type: InstanceQuotaDto }) activeRuns: InstanceQuotaDto;
}
