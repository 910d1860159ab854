import { Injectable } from '@nestjs/common';
import { RunRepository } from '@h/db';
import type { TeamUsageDto } from './run.dto';

@Injectable()
export class UsageService {
  constructor(private readonly runs: RunRepository) {}

  /** Usage and cost of the team's runs created in one calendar month (UTC). */
  async teamMonth(teamId: string, month?: string): Promise<TeamUsageDto> {
    const now = new Date();
    const [year, mon] = month ? month.split('-').map(Number) : [now.getUTCFullYear(), now.getUTCMonth() + 1];
    const from = new Date(Date.UTC(year, mon - 1, 1));
    const to = new Date(Date.UTC(year, mon, 1));
    const usage = await this.runs.teamUsage(teamId, from, to);
    return { month: `${year}-${String(mon).padStart(2, '0')}`, ...usage };
  }
}
