import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ACTIVE_RUN_STATUSES, FINISHED_RUN_STATUSES, type RunStatus as WireRunStatus } from '@h/contracts';
import { PrismaService } from '../prisma.service';
import { Prisma, RunStatus } from '../generated/client';
import { QuotaExceededError } from '../quota';
import { columns, sql } from '../sql';
import { splitUsage, UsageTotals, usageSelect, ZERO_USAGE } from '../usage';
import { EventEnvelope, EventRepository } from './event.repository';

export type RunStatusName = `${RunStatus}`;
// The database enum and the contract's statuses are one set: a drift is a compile error here.
const _sameStatuses: [RunStatusName, WireRunStatus] extends [WireRunStatus, RunStatusName] ? true : never = true;
export { ACTIVE_RUN_STATUSES, FINISHED_RUN_STATUSES };
/**
 * What TEAM_MAX_ACTIVE_RUNS counts: runs waiting for a worker or working. A run waiting for a
 * person's approval holds no worker and may wait for days, so it does not block the team's others.
 */
export const QUOTA_RUN_STATUSES: RunStatus[] = ['queued', 'running'];

export interface RunRecord {
  id: string;
  sessionId: string;
  teamId: string;
  userId: string;
  status: RunStatusName;
  clientMessageId: string | null;
  attempts: number;
  error: { code: string; message: string } | null;
  usage: UsageTotals;
  cancelRequestedAt: Date | null;
  /** A sub-agent run: the run that delegated it and the tool call it answers; null for a person's run. */
  parentRunId: string | null;
  parentToolCallId: string | null;
  /** The sub-agent's profile (libs/contracts agent-profiles.ts); null for a person's run. */
  profile: string | null;
  queuedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  createdAt: Date;
}

const runSelect = {
  id: true,
  sessionId: true,
  teamId: true,
  userId: true,
  status: true,
  clientMessageId: true,
  attempts: true,
  error: true,
  ...usageSelect,
  cancelRequestedAt: true,
  parentRunId: true,
  parentToolCallId: true,
  profile: true,
  queuedAt: true,
  startedAt: true,
  finishedAt: true,
  createdAt: true,
} as const;

type Row = Prisma.RunGetPayload<{ select: typeof runSelect }>;
const RUN_COLUMNS = columns(runSelect);
const RUN_COLUMNS_R = columns(runSelect, 'r');

function toRecord(r: Row): RunRecord {
  const [usage, { error, ...rest }] = splitUsage(r);
  return { ...rest, error: (error as RunRecord['error']) ?? null, usage };
}

export interface ConcurrencyLimits {
  perTeam: number;
  perUser: number;
  /** Runs at once per workspace (h2c's `maxConcurrent`): one sandbox shares its CPU and memory among them. */
  perWorkspace: number;
}

@Injectable()
export class RunRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly events: EventRepository,
  ) {}

  /**
   * Creates a queued run and appends its `message.user` event in one transaction. A repeated
   * `clientMessageId` returns the first run instead (idempotent retries from flaky clients); null
   * when the session does not exist (deleted meanwhile).
   * `title` names a session that has no title yet, in the same transaction (no commit of its own).
   * A team with `maxActive` runs queued or running gets a QuotaExceededError; the count is taken
   * under a per-team lock, so parallel posts cannot overshoot it.
   */
  async createWithMessage(input: {
    sessionId: string;
    teamId: string;
    userId: string;
    content: string;
    clientMessageId?: string;
    title?: string;
    maxActive: number;
    /** Step-by-step mode for this run; absent: the session's option (AgentSession.stepMode). */
    stepMode?: boolean;
  }): Promise<{ run: RunRecord; created: boolean; events: EventEnvelope[] } | null> {
    if (input.clientMessageId) {
      const existing = await this.findByClientMessageId(input.sessionId, input.clientMessageId);
      if (existing) return { run: existing, created: false, events: [] };
    }
    // The quota count needs the lock first (a statement sees only what committed before it
    // began); the rest is one statement: the count, and only under the limit the run, its message
    // event and the session's first title. The lock is held for that one round trip and the
    // commit (a burst of 50 messages to one team queues on it, bench/runs; it used to be five
    // round trips and a second commit). A raced clientMessageId inserts nothing (ON CONFLICT).
    const id = randomUUID();
    const ts = new Date();
    const at = ts.toISOString();
    const data = { content: input.content, userId: input.userId };
    const statuses = QUOTA_RUN_STATUSES.map(String);
    // Direct SQL (sql.ts): every posted message goes through here.
    const [result] = await this.prisma.sql.transaction(
      async (tx) => {
        await tx.rows(sql`SELECT pg_advisory_xact_lock(hashtext(${'h-run-quota:' + input.teamId}))`);
        // The run's step mode is the message's choice or the session's option, decided in this
        // statement (no read of the session first) and kept on its message.user event.
        return tx.rows<{ used: number; seq: number | null; stepMode: boolean | null }>(sql`
          WITH used AS (
            SELECT COUNT(*)::int AS n FROM "Run" WHERE "teamId" = ${input.teamId}::uuid AND "status"::text = ANY(${statuses}::text[])
          ), run AS (
            INSERT INTO "Run" ("id", "sessionId", "teamId", "userId", "clientMessageId", "queuedAt", "createdAt", "updatedAt")
            SELECT ${id}::uuid, ${input.sessionId}::uuid, ${input.teamId}::uuid, ${input.userId}::uuid, ${input.clientMessageId ?? null}::text,
              ${at}::timestamp(3), ${at}::timestamp(3), ${at}::timestamp(3)
            FROM used JOIN "AgentSession" s ON s."id" = ${input.sessionId}::uuid WHERE used.n < ${input.maxActive}::int
            ON CONFLICT ("sessionId", "clientMessageId") DO NOTHING
            RETURNING "id"
          ), bumped AS (
            UPDATE "AgentSession" SET "lastSeq" = "lastSeq" + 1, "updatedAt" = ${at}::timestamp(3),
              "title" = CASE WHEN "title" = '' AND ${input.title ?? null}::text IS NOT NULL THEN ${input.title ?? null}::text ELSE "title" END
            WHERE "id" = ${input.sessionId}::uuid AND EXISTS (SELECT 1 FROM run)
            RETURNING "lastSeq", "workspaceId", COALESCE(${input.stepMode ?? null}::boolean, "stepMode") AS "stepMode"
          ), event AS (
            INSERT INTO "Event" ("sessionId", "workspaceId", "seq", "runId", "type", "data", "ts")
            SELECT ${input.sessionId}::uuid, b."workspaceId", b."lastSeq", ${id}::uuid, 'message.user',
              ${JSON.stringify(data)}::jsonb || CASE WHEN b."stepMode" THEN '{"stepMode":true}'::jsonb ELSE '{}'::jsonb END, ${at}::timestamp(3)
            FROM bumped b
            RETURNING "seq"
          )
          SELECT used.n AS used, (SELECT "seq" FROM event) AS seq, (SELECT "stepMode" FROM bumped) AS "stepMode" FROM used`);
      },
    );
    if (result.used >= input.maxActive) throw new QuotaExceededError('activeRuns', result.used, input.maxActive);
    const rows = result.seq === null ? [] : [{ seq: result.seq }];
    if (!rows.length) {
      // Two requests with the same clientMessageId raced; the loser answers with the winner's run.
      const existing = input.clientMessageId ? await this.findByClientMessageId(input.sessionId, input.clientMessageId) : null;
      if (existing) return { run: existing, created: false, events: [] };
      return null; // the session is gone
    }
    const run: RunRecord = {
      id,
      sessionId: input.sessionId,
      teamId: input.teamId,
      userId: input.userId,
      status: 'queued',
      clientMessageId: input.clientMessageId ?? null,
      attempts: 0,
      error: null,
      usage: { ...ZERO_USAGE },
      cancelRequestedAt: null,
      parentRunId: null,
      parentToolCallId: null,
      profile: null,
      queuedAt: ts,
      startedAt: null,
      finishedAt: null,
      createdAt: ts,
    };
    const eventData = result.stepMode ? { ...data, stepMode: true } : data;
    const events: EventEnvelope[] = [{ sessionId: input.sessionId, seq: Number(rows[0].seq), runId: id, ts: at, type: 'message.user', data: eventData }];
    return { run, created: true, events };
  }

  private async findByClientMessageId(sessionId: string, clientMessageId: string): Promise<RunRecord | null> {
    const [row] = await this.prisma.sql.rows<Row>(sql`SELECT ${RUN_COLUMNS} FROM "Run" WHERE "sessionId" = ${sessionId}::uuid AND "clientMessageId" = ${clientMessageId}`);
    return row ? toRecord(row) : null;
  }

  async findById(id: string): Promise<RunRecord | null> {
    const [row] = await this.prisma.sql.rows<Row>(sql`SELECT ${RUN_COLUMNS} FROM "Run" WHERE "id" = ${id}::uuid`);
    return row ? toRecord(row) : null;
  }

  async findOwner(id: string): Promise<{ teamId: string; workspaceId: string; sessionId: string } | null> {
    // Direct SQL (sql.ts): every run route's access check, one statement instead of two.
    const [row] = await this.prisma.sql.rows<{ teamId: string; workspaceId: string; sessionId: string }>(sql`
      SELECT r."teamId", r."sessionId", s."workspaceId" FROM "Run" r JOIN "AgentSession" s ON s."id" = r."sessionId" WHERE r."id" = ${id}::uuid`);
    return row ?? null;
  }

  async listBySession(sessionId: string, limit = 50): Promise<RunRecord[]> {
    const rows = await this.prisma.run.findMany({ where: { sessionId }, orderBy: { createdAt: 'desc' }, take: limit, select: runSelect });
    return rows.map(toRecord);
  }

  /** A workspace's runs, newest first, each with its session's title (bots' `h runs`). */
  async listByWorkspace(workspaceId: string, options: { statuses?: RunStatusName[]; limit: number }): Promise<Array<RunRecord & { title: string }>> {
    const rows = await this.prisma.run.findMany({
      where: { session: { workspaceId }, ...(options.statuses ? { status: { in: options.statuses } } : {}) },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: options.limit,
      select: { ...runSelect, session: { select: { title: true } } },
    });
    return rows.map(({ session, ...r }) => ({ ...toRecord(r), title: session.title }));
  }

  /** The newest run of each session, in one query (for session lists). */
  async latestForSessions(sessionIds: string[]): Promise<Map<string, { id: string; status: RunStatusName }>> {
    if (!sessionIds.length) return new Map();
    const rows = await this.prisma.run.findMany({
      where: { sessionId: { in: sessionIds } },
      orderBy: [{ sessionId: 'asc' }, { createdAt: 'desc' }],
      distinct: ['sessionId'],
      select: { id: true, sessionId: true, status: true },
    });
    return new Map(rows.map((r) => [r.sessionId, { id: r.id, status: r.status }]));
  }

  countForQuota(teamId: string): Promise<number> {
    return this.prisma.run.count({ where: { teamId, status: { in: QUOTA_RUN_STATUSES } } });
  }

  /** 1-based position among the team's queued runs (what a user waits behind), or null. */
  async queuePosition(run: RunRecord): Promise<number | null> {
    if (run.status !== 'queued') return null;
    const ahead = await this.prisma.run.count({ where: { teamId: run.teamId, status: 'queued', queuedAt: { lt: run.queuedAt } } });
    return ahead + 1;
  }

  /**
   * Picks the team's queued runs that may start now and marks them running: runs of one session go
   * one at a time in order, and at most `limits` run per team, per user and per workspace. A transaction-scoped
   * advisory lock per team makes concurrent admissions (api and workers) agree.
   */
  async admit(teamId: string, limits: ConcurrencyLimits): Promise<RunRecord[]> {
    // Direct SQL (sql.ts), four round trips: every posted message and every ended run admits, and
    // through Prisma this was eight statements (two of them relation loads).
    return this.prisma.sql.transaction(async (tx) => {
      await tx.rows(sql`SELECT pg_advisory_xact_lock(hashtext(${'h-admit:' + teamId}))`);
      const rows = await tx.rows<Row & { workspaceId: string }>(sql`
        SELECT ${RUN_COLUMNS_R}, s."workspaceId" FROM "Run" r JOIN "AgentSession" s ON s."id" = r."sessionId"
        WHERE r."teamId" = ${teamId}::uuid AND r."status" IN ('queued', 'running', 'waiting_permission', 'waiting_children')
        ORDER BY r."queuedAt" ASC, r."createdAt" ASC`);
      const active = rows.filter((r) => r.status !== 'queued');
      const queued = rows.filter((r) => r.status === 'queued');
      const running = active.filter((r) => r.status === 'running');
      const busySessions = new Set(active.map((r) => r.sessionId));
      let teamCount = running.length;
      const perUser = new Map<string, number>();
      const perWorkspace = new Map<string, number>();
      for (const r of running) {
        perUser.set(r.userId, (perUser.get(r.userId) ?? 0) + 1);
        perWorkspace.set(r.workspaceId, (perWorkspace.get(r.workspaceId) ?? 0) + 1);
      }
      const admitted: Row[] = [];
      const seenSessions = new Set<string>();
      for (const run of queued) {
        if (teamCount >= limits.perTeam) break;
        // Sub-agents of a parked parent run in its session side by side (that is the point of
        // delegate_parallel); they count against the team, user and workspace limits like any run.
        if (!run.parentRunId) {
          // Only the oldest queued run of a session is a candidate; later ones wait behind it.
          if (seenSessions.has(run.sessionId)) continue;
          seenSessions.add(run.sessionId);
          if (busySessions.has(run.sessionId)) continue;
        }
        if ((perUser.get(run.userId) ?? 0) >= limits.perUser) continue;
        const { workspaceId, ...row } = run;
        if ((perWorkspace.get(workspaceId) ?? 0) >= limits.perWorkspace) continue;
        admitted.push(row);
        teamCount++;
        perUser.set(run.userId, (perUser.get(run.userId) ?? 0) + 1);
        perWorkspace.set(workspaceId, (perWorkspace.get(workspaceId) ?? 0) + 1);
      }
      if (admitted.length) {
        await tx.count(sql`
          UPDATE "Run" SET "status" = 'running', "updatedAt" = ${new Date()}::timestamp(3)
          WHERE "id" = ANY(${admitted.map((r) => r.id)}::uuid[]) AND "status" = 'queued'`);
      }
      return admitted.map((r) => toRecord({ ...r, status: 'running' }));
    });
  }

  /** Teams with queued runs, for the periodic admission sweep. */
  async teamsWithQueuedRuns(): Promise<string[]> {
    const rows = await this.prisma.run.findMany({ where: { status: 'queued' }, distinct: ['teamId'], select: { teamId: true } });
    return rows.map((r) => r.teamId);
  }

  /** Runs marked running that no job may hold (e.g. Redis lost its queue); the sweep re-enqueues them. */
  async listRunning(olderThan: Date): Promise<RunRecord[]> {
    const rows = await this.prisma.run.findMany({ where: { status: 'running', updatedAt: { lt: olderThan } }, select: runSelect, take: 100 });
    return rows.map(toRecord);
  }

  /**
   * A worker takes the run: a new lease fences off any earlier worker that may still be alive.
   * One statement: it returns the row and sets startedAt on the first claim only (a resumed run
   * keeps it), which the enqueue → start latency is measured against (bench/runs). Also returns the
   * workspace checkpoint an earlier segment of the run took (null: none yet), which the run's start
   * would otherwise read on its own.
   */
  async claim(id: string): Promise<{ run: RunRecord; leaseId: string; checkpointId: string | null } | null> {
    const leaseId = randomUUID();
    const now = new Date();
    // Direct SQL (sql.ts): on the path of every run's start.
    const [row] = await this.prisma.sql.rows<Row & { checkpointId: string | null }>(sql`
      UPDATE "Run" SET "leaseId" = ${leaseId}, "attempts" = "attempts" + 1, "updatedAt" = ${now}::timestamp(3),
        "startedAt" = COALESCE("startedAt", ${now}::timestamp(3))
      WHERE "id" = ${id}::uuid AND "status" = 'running'
      RETURNING ${RUN_COLUMNS}, "checkpointId"`);
    if (!row) return null;
    const { checkpointId, ...rest } = row;
    return { run: toRecord(rest), leaseId, checkpointId };
  }

  /**
   * Ends the run. With a lease only that worker can end it; without one (the api cancelling a
   * queued or waiting run) only an active run ends. `finalEvent` is appended in the same transaction.
   */
  async finish(
    id: string,
    leaseId: string | null,
    outcome: { status: 'completed' | 'failed' | 'cancelled'; error?: { code: string; message: string } | null },
    finalEvent?: { sessionId: string; type: string; data: unknown },
  ): Promise<EventEnvelope[]> {
    return this.prisma.$transaction(async (tx) => {
      const where = leaseId ? { id, leaseId } : { id, status: { in: ACTIVE_RUN_STATUSES as RunStatus[] } };
      const { count } = await tx.run.updateMany({
        where,
        data: {
          status: outcome.status,
          error: outcome.error ? (outcome.error as Prisma.InputJsonValue) : Prisma.DbNull,
          finishedAt: new Date(),
          leaseId: null,
        },
      });
      if (!count) return [];
      return finalEvent ? this.events.append(finalEvent.sessionId, [finalEvent], { runId: id, tx }) : [];
    });
  }

  /** The run waits for a person: it leaves the running set, so it holds no concurrency slot. */
  async markWaiting(id: string, leaseId: string): Promise<boolean> {
    const { count } = await this.prisma.run.updateMany({ where: { id, leaseId }, data: { status: 'waiting_permission', leaseId: null } });
    return count > 0;
  }

  /**
   * Ends a run that never reached a worker or is parked (queued, waiting for a decision or for its
   * sub-agents), e.g. a sub-agent whose parent was cancelled: only such a run ends, with the event.
   */
  async finishIdle(id: string, sessionId: string, status: 'cancelled' | 'failed', error: { code: string; message: string } | null, finalEvent: { type: string; data: unknown }): Promise<EventEnvelope[]> {
    return this.prisma.$transaction(async (tx) => {
      const { count } = await tx.run.updateMany({
        where: { id, status: { in: ['queued', 'waiting_permission', 'waiting_children'] } },
        data: { status, error: error ? (error as Prisma.InputJsonValue) : Prisma.DbNull, finishedAt: new Date(), leaseId: null },
      });
      if (!count) return [];
      return this.events.append(sessionId, [finalEvent], { runId: id, tx });
    });
  }

  /** A decision arrived: the run goes back in line, ahead of later runs (it keeps its queuedAt). */
  async requeue(id: string): Promise<boolean> {
    const { count } = await this.prisma.run.updateMany({ where: { id, status: 'waiting_permission' }, data: { status: 'queued' } });
    return count > 0;
  }

  async requestCancel(id: string): Promise<RunRecord | null> {
    await this.prisma.run.updateMany({ where: { id, cancelRequestedAt: null }, data: { cancelRequestedAt: new Date() } });
    return this.findById(id);
  }

  async teamUsage(teamId: string, from: Date, to: Date): Promise<UsageTotals & { runs: number }> {
    const agg = await this.prisma.run.aggregate({
      where: { teamId, createdAt: { gte: from, lt: to } },
      _count: { _all: true },
      _sum: usageSelect,
    });
    const s = agg._sum;
    const [usage] = splitUsage({
      requests: s.requests ?? 0,
      promptTokens: s.promptTokens ?? 0,
      completionTokens: s.completionTokens ?? 0,
      cacheHitTokens: s.cacheHitTokens ?? 0,
      cacheMissTokens: s.cacheMissTokens ?? 0,
      reasoningTokens: s.reasoningTokens ?? 0,
      costUsd: s.costUsd ?? 0,
    });
    return { runs: agg._count._all, ...usage };
  }
}
