import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service';
import { sql } from '../sql';
import type { UsageTotals } from '../usage';

// A team's monthly budget and what its runs cost (issue 15): the one query the worker asks after
// each model request, and the grouped sums behind the team page's usage report. A month's spend is
// the cost of the runs created in it (Run (teamId, createdAt) index).

/** The budget (null: none) and the spend of runs created at or after `from`. */
export interface BudgetState {
  monthlyUsd: number | null;
  spentUsd: number;
}

export type UsageGroup = 'user' | 'workspace' | 'model' | 'day';

export interface UsageGroupRow extends UsageTotals {
  key: string;
  label: string;
  runs: number;
}

type RawRow = { key: string | null; label: string | null; runs: number; requests: number; promptTokens: number; completionTokens: number; cacheHitTokens: number; cacheMissTokens: number; reasoningTokens: number; costUsd: unknown };

@Injectable()
export class TeamBudgetRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * null when the team does not exist. `budgetedOnly`: a team without a budget gets `spentUsd` 0
   * without its month's runs being summed (the check before every posted message, bench/runs).
   */
  async state(teamId: string, from: Date, to: Date, options: { budgetedOnly?: boolean } = {}): Promise<BudgetState | null> {
    const rows = await this.prisma.$queryRaw<Array<{ monthlyUsd: unknown; spentUsd: unknown }>>`
      SELECT t."monthlyBudgetUsd" AS "monthlyUsd",
        CASE WHEN t."monthlyBudgetUsd" IS NULL AND ${options.budgetedOnly ?? false}::boolean THEN 0
        ELSE (SELECT COALESCE(sum(r."costUsd"), 0) FROM "Run" r
          WHERE r."teamId" = t."id" AND r."createdAt" >= ${from}::timestamp(3) AND r."createdAt" < ${to}::timestamp(3)) END AS "spentUsd"
      FROM "Team" t WHERE t."id" = ${teamId}::uuid`;
    const row = rows[0];
    if (!row) return null;
    return { monthlyUsd: row.monthlyUsd === null ? null : Number(row.monthlyUsd), spentUsd: Number(row.spentUsd) };
  }

  /** The team's monthly budget, or null (none, or no such team). */
  async monthly(teamId: string): Promise<number | null> {
    // Direct SQL (sql.ts): every run's start asks.
    const [row] = await this.prisma.sql.rows<{ monthlyBudgetUsd: string | null }>(sql`SELECT "monthlyBudgetUsd" FROM "Team" WHERE "id" = ${teamId}::uuid`);
    return row?.monthlyBudgetUsd == null ? null : Number(row.monthlyBudgetUsd);
  }

  async setMonthly(teamId: string, monthlyUsd: number | null): Promise<void> {
    await this.prisma.team.update({ where: { id: teamId }, data: { monthlyBudgetUsd: monthlyUsd === null ? null : monthlyUsd.toFixed(6) } });
  }

  /** The team's usage of runs created in [from, to), grouped one way; most expensive first (days: in order). */
  async grouped(teamId: string, from: Date, to: Date, by: UsageGroup): Promise<UsageGroupRow[]> {
    // Each grouping is a fixed SQL text (no identifiers from input); the sums are the same.
    const sums = `count(*)::int AS "runs", COALESCE(sum(r."requests"), 0)::int AS "requests", COALESCE(sum(r."promptTokens"), 0)::int AS "promptTokens",
      COALESCE(sum(r."completionTokens"), 0)::int AS "completionTokens", COALESCE(sum(r."cacheHitTokens"), 0)::int AS "cacheHitTokens",
      COALESCE(sum(r."cacheMissTokens"), 0)::int AS "cacheMissTokens", COALESCE(sum(r."reasoningTokens"), 0)::int AS "reasoningTokens",
      COALESCE(sum(r."costUsd"), 0) AS "costUsd"`;
    const where = `r."teamId" = $1::uuid AND r."createdAt" >= $2::timestamp(3) AND r."createdAt" < $3::timestamp(3)`;
    const sql: Record<UsageGroup, string> = {
      user: `SELECT r."userId"::text AS "key", max(u."name") AS "label", ${sums} FROM "Run" r JOIN "User" u ON u."id" = r."userId"
        WHERE ${where} GROUP BY r."userId" ORDER BY sum(r."costUsd") DESC, 1`,
      workspace: `SELECT s."workspaceId"::text AS "key", max(w."name") AS "label", ${sums} FROM "Run" r
        JOIN "AgentSession" s ON s."id" = r."sessionId" JOIN "Workspace" w ON w."id" = s."workspaceId"
        WHERE ${where} GROUP BY s."workspaceId" ORDER BY sum(r."costUsd") DESC, 1`,
      model: `SELECT COALESCE(r."model", 'unknown') AS "key", COALESCE(r."model", 'unknown') AS "label", ${sums} FROM "Run" r
        WHERE ${where} GROUP BY 1 ORDER BY sum(r."costUsd") DESC, 1`,
      day: `SELECT to_char(date_trunc('day', r."createdAt"), 'YYYY-MM-DD') AS "key", to_char(date_trunc('day', r."createdAt"), 'YYYY-MM-DD') AS "label", ${sums}
        FROM "Run" r WHERE ${where} GROUP BY 1 ORDER BY 1`,
    };
    const rows = await this.prisma.$queryRawUnsafe<RawRow[]>(sql[by], teamId, from, to);
    return rows.map((r) => ({
      key: r.key ?? 'unknown',
      label: r.label ?? 'unknown',
      runs: Number(r.runs),
      requests: Number(r.requests),
      promptTokens: Number(r.promptTokens),
      completionTokens: Number(r.completionTokens),
      cacheHitTokens: Number(r.cacheHitTokens),
      cacheMissTokens: Number(r.cacheMissTokens),
      reasoningTokens: Number(r.reasoningTokens),
      costUsd: Number(r.costUsd),
    }));
  }
}
