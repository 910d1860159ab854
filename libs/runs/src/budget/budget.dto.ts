import { ApiProperty } from '@nestjs/swagger';
import { IsNumber, Max, Min, ValidateIf } from 'class-validator';
import { BUDGET_LIMITS, type SetTeamBudget, type TeamBudgetStatus, type TeamUsageReport, type UsageBreakdownRow } from '@h/contracts';
import { UsageDto } from '../run.dto';

export class SetTeamBudgetDto implements SetTeamBudget {
  @ApiProperty({
    type: Number,
    nullable: true,
    minimum: 0,
    maximum: BUDGET_LIMITS.maxMonthlyUsd,
    example: 250,
    description: 'US dollars per calendar month (UTC), cache-aware as the model catalog prices requests; null removes the budget. 0 stops all runs.',
  })
  @ValidateIf((_o, v) => v !== null)
  @IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 6 })
  @Min(0)
  @Max(BUDGET_LIMITS.maxMonthlyUsd)
  monthlyUsd: number | null;
}

export class TeamBudgetStatusDto implements TeamBudgetStatus<Date> {
  @ApiProperty({ example: '2026-12' }) month: string;
  @ApiProperty({ type: Number, nullable: true, example: 250, description: 'null: no budget' }) monthlyUsd: number | null;
  @ApiProperty({ example: 212.4 }) spentUsd: number;
  @ApiProperty({ type: Number, nullable: true, example: 37.6 }) remainingUsd: number | null;
  @ApiProperty({ example: false, description: 'The spend reached the budget: new runs answer 402 BUDGET_EXCEEDED and running ones stop' }) exceeded: boolean;
  @ApiProperty({ example: true, description: `The spend reached ${BUDGET_LIMITS.warnShare * 100} % of the budget` }) warning: boolean;
  @ApiProperty({ description: 'When the month ends and the spend counts from 0 again' }) resetsAt: Date;
}

export class UsageBreakdownRowDto extends UsageDto implements UsageBreakdownRow {
  @ApiProperty({ example: 'deepseek-v4-flash', description: "The user's, workspace's or model's id, or the day (YYYY-MM-DD)" }) key: string;
  @ApiProperty({ example: 'deepseek-v4-flash' }) label: string;
  @ApiProperty({ example: 12 }) runs: number;
  @ApiProperty({ type: Number, nullable: true, example: 0.87, description: 'Cache hits over prompt tokens' }) cacheHitRatio: number | null;
}

export class TeamUsageReportDto extends UsageDto implements TeamUsageReport<Date> {
  @ApiProperty({ example: '2026-12' }) month: string;
  @ApiProperty({ example: 42 }) runs: number;
  @ApiProperty({ type: Number, nullable: true, example: 0.87 }) cacheHitRatio: number | null;
  @ApiProperty({ type: TeamBudgetStatusDto }) budget: TeamBudgetStatusDto;
  @ApiProperty({ type: [UsageBreakdownRowDto] }) byUser: UsageBreakdownRowDto[];
  @ApiProperty({ type: [UsageBreakdownRowDto] }) byWorkspace: UsageBreakdownRowDto[];
  @ApiProperty({ type: [UsageBreakdownRowDto], description: 'Runs from before model tracking report under "unknown"' }) byModel: UsageBreakdownRowDto[];
  @ApiProperty({ type: [UsageBreakdownRowDto], description: 'Every day of the month, days without runs included, oldest first' }) byDay: UsageBreakdownRowDto[];
}
