import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service';
import { QUOTA_RUN_STATUSES } from './run.repository';

// The instance admin pages (libs/admin): every team at once, and the sandboxes running now. One
// query per page, so the page costs the same with 3 teams or 300.

export interface TeamOverviewRow {
  id: string;
  name: string;
  slug: string;
  createdAt: Date;
  monthlyBudgetUsd: number | null;
  members: number;
  workspaces: number;
  monthRuns: number;
  monthCostUsd: number;
  runningSandboxes: number;
  activeRuns: number;
}

export interface RunningSandboxRow {
  workspaceId: string;
  workspaceName: string;
  teamId: string;
  teamName: string;
  status: string;
  driver: string;
  updatedAt: Date;
  lastUsedAt: Date;
}

type RawTeamRow = Omit<TeamOverviewRow, 'monthlyBudgetUsd' | 'monthCostUsd'> & { monthlyBudgetUsd: unknown; monthCostUsd: unknown };

@Injectable()
export class InstanceRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Every team with its counts, and its runs created in [from, to); oldest team first. */
  async teamsOverview(from: Date, to: Date): Promise<TeamOverviewRow[]> {
    const active = QUOTA_RUN_STATUSES.map(String);
    const rows = await this.prisma.$queryRaw<RawTeamRow[]>`
      SELECT t."id", t."name", t."slug", t."createdAt", t."monthlyBudgetUsd",
        (SELECT count(*)::int FROM "Membership" m WHERE m."teamId" = t."id") AS "members",
        (SELECT count(*)::int FROM "Workspace" w WHERE w."teamId" = t."id") AS "workspaces",
        (SELECT count(*)::int FROM "Run" r WHERE r."teamId" = t."id" AND r."createdAt" >= ${from}::timestamp(3) AND r."createdAt" < ${to}::timestamp(3)) AS "monthRuns",
        (SELECT COALESCE(sum(r."costUsd"), 0) FROM "Run" r WHERE r."teamId" = t."id" AND r."createdAt" >= ${from}::timestamp(3) AND r."createdAt" < ${to}::timestamp(3)) AS "monthCostUsd",
        (SELECT count(*)::int FROM "Sandbox" s JOIN "Workspace" w ON w."id" = s."workspaceId" WHERE w."teamId" = t."id" AND s."status" = 'running') AS "runningSandboxes",
        (SELECT count(*)::int FROM "Run" r WHERE r."teamId" = t."id" AND r."status"::text = ANY(${active}::text[])) AS "activeRuns"
      FROM "Team" t ORDER BY t."createdAt", t."id"`;
    return rows.map((r) => ({
      ...r,
      monthlyBudgetUsd: r.monthlyBudgetUsd === null ? null : Number(r.monthlyBudgetUsd),
      monthCostUsd: Number(r.monthCostUsd),
    }));
  }

  /** Sandboxes marked running, longest running first. */
  async runningSandboxes(): Promise<RunningSandboxRow[]> {
    const rows = await this.prisma.sandbox.findMany({
      where: { status: 'running' },
      orderBy: { updatedAt: 'asc' },
      select: { workspaceId: true, status: true, driver: true, updatedAt: true, lastUsedAt: true, workspace: { select: { name: true, team: { select: { id: true, name: true } } } } },
    });
    return rows.map((r) => ({
      workspaceId: r.workspaceId,
      workspaceName: r.workspace.name,
      teamId: r.workspace.team.id,
      teamName: r.workspace.team.name,
      status: r.status,
      driver: r.driver,
      updatedAt: r.updatedAt,
      lastUsedAt: r.lastUsedAt,
    }));
  }
}
