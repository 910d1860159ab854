import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service';
import { sql } from '../sql';
import { EventEnvelope, EventRepository, LeaseLostError } from './event.repository';

export interface NewChildRun {
  profile: string;
  task: string;
  /** Earlier task/summary pairs of the profile (prefix cache), sent before the task. */
  prefix?: { task: string; summary: string }[];
  /** The parent's user-profile memory subset, when the session has memory. */
  memory?: string;
}

export interface ChildRunRow {
  id: string;
  profile: string;
  status: string;
  error: { code: string; message: string } | null;
  /** The child's own task message (what it was asked). */
  task: string;
}

/**
 * Sub-agent runs (issue 12): runs of their own in the parent's session, started by a parent run's
 * tool call. The parent parks (waiting_children, no worker, no lease) until the last child ends,
 * then goes back in line and resumes from the log like a run after an approval. Postgres is the
 * only judge of "all ended": a child's end and the parent's requeue are idempotent and the worker
 * sweep repeats them, so a worker killed between the two loses nothing.
 */
@Injectable()
export class SubAgentRunRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly events: EventRepository,
  ) {}

  /**
   * In one transaction, fenced by the parent's lease: the child runs (queued, each with its task
   * as `message.user`), the parent's `delegation.started`, and the parent parked. A repeat for the
   * same call (a resumed parent) creates nothing and answers the children there are.
   */
  async start(input: {
    parent: { id: string; sessionId: string; teamId: string; userId: string };
    leaseId: string;
    toolCallId: string;
    children: NewChildRun[];
  }): Promise<{ children: ChildRunRow[]; events: EventEnvelope[] }> {
    const { parent } = input;
    return this.prisma.$transaction(async (tx) => {
      const existing = await this.children(parent.id, input.toolCallId, tx);
      if (existing.length) {
        const parked = await tx.run.updateMany({ where: { id: parent.id, leaseId: input.leaseId }, data: { status: 'waiting_children', leaseId: null } });
        if (!parked.count) throw new LeaseLostError(parent.id);
        return { children: existing, events: [] };
      }
      const now = new Date();
      const rows = input.children.map((c) => ({ id: randomUUID(), ...c }));
      await tx.run.createMany({
        data: rows.map((c, i) => ({
          id: c.id,
          sessionId: parent.sessionId,
          teamId: parent.teamId,
          userId: parent.userId,
          parentRunId: parent.id,
          parentToolCallId: input.toolCallId,
          profile: c.profile,
          // In the order the model listed them: admission takes the oldest first.
          queuedAt: new Date(now.getTime() + i),
        })),
      });
      const appended: EventEnvelope[] = [];
      appended.push(
        ...(await this.events.append(
          parent.sessionId,
          [{ type: 'delegation.started', data: { toolCallId: input.toolCallId, children: rows.map((c) => ({ runId: c.id, profile: c.profile, task: c.task })) } }],
          { runId: parent.id, leaseId: input.leaseId, tx },
        )),
      );
      for (const c of rows) {
        const data = { content: c.task, userId: parent.userId, ...(c.prefix?.length ? { prefix: c.prefix } : {}), ...(c.memory ? { memory: c.memory } : {}) };
        appended.push(...(await this.events.append(parent.sessionId, [{ type: 'message.user', data }], { runId: c.id, tx })));
      }
      const parked = await tx.run.updateMany({ where: { id: parent.id, leaseId: input.leaseId }, data: { status: 'waiting_children', leaseId: null } });
      if (!parked.count) throw new LeaseLostError(parent.id);
      return { children: rows.map((c) => ({ id: c.id, profile: c.profile, status: 'queued', error: null, task: c.task })), events: appended };
    });
  }

  /** The children a call started, in the order they were asked for. */
  async children(parentRunId: string, toolCallId: string, tx: Pick<PrismaService, 'run' | 'event'> = this.prisma): Promise<ChildRunRow[]> {
    const rows = await tx.run.findMany({
      where: { parentRunId, parentToolCallId: toolCallId },
      orderBy: [{ queuedAt: 'asc' }, { id: 'asc' }],
      select: { id: true, profile: true, status: true, error: true },
    });
    if (!rows.length) return [];
    const tasks = await tx.event.findMany({
      where: { runId: { in: rows.map((r) => r.id) }, type: 'message.user' },
      orderBy: { seq: 'asc' },
      select: { runId: true, data: true },
    });
    const taskOf = new Map<string, string>();
    for (const t of tasks) if (t.runId && !taskOf.has(t.runId)) taskOf.set(t.runId, String((t.data as { content?: string }).content ?? ''));
    return rows.map((r) => ({
      id: r.id,
      profile: r.profile ?? '',
      status: r.status,
      error: (r.error as ChildRunRow['error']) ?? null,
      task: taskOf.get(r.id) ?? '',
    }));
  }

  /** Ids of every sub-agent run of a session: the parent's rebuild leaves their events out. */
  async childRunIds(sessionId: string): Promise<Set<string>> {
    // Direct SQL (sql.ts): every run's start reads this.
    const rows = await this.prisma.sql.rows<{ id: string }>(sql`SELECT "id" FROM "Run" WHERE "sessionId" = ${sessionId}::uuid AND "parentRunId" IS NOT NULL`);
    return new Set(rows.map((r) => r.id));
  }

  /** Children of a run still active (queued, running, parked): cancelling the parent stops them. */
  async activeChildren(parentRunId: string): Promise<Array<{ id: string; status: string; sessionId: string }>> {
    return this.prisma.run.findMany({
      where: { parentRunId, status: { in: ['queued', 'running', 'waiting_permission', 'waiting_children'] } },
      select: { id: true, status: true, sessionId: true },
    });
  }

  /**
   * Puts the parent back in line once none of its children is active (idempotent: only a parent
   * still parked moves). True when this call moved it.
   */
  async resumeParentIfDone(parentRunId: string): Promise<boolean> {
    const moved = await this.prisma.$executeRaw`
      UPDATE "Run" p SET "status" = 'queued', "updatedAt" = now() AT TIME ZONE 'UTC'
      WHERE p."id" = ${parentRunId}::uuid AND p."status" = 'waiting_children'
        AND NOT EXISTS (
          SELECT 1 FROM "Run" c WHERE c."parentRunId" = p."id"
            AND c."status" IN ('queued', 'running', 'waiting_permission', 'waiting_children')
        )`;
    return moved > 0;
  }

  /** Parked parents whose children all ended (a worker died between the two): the sweep resumes them. */
  async parentsReadyToResume(limit = 100): Promise<Array<{ id: string; teamId: string }>> {
    return this.prisma.$queryRaw<Array<{ id: string; teamId: string }>>`
      SELECT p."id"::text AS id, p."teamId"::text AS "teamId" FROM "Run" p
      WHERE p."status" = 'waiting_children'
        AND NOT EXISTS (
          SELECT 1 FROM "Run" c WHERE c."parentRunId" = p."id"
            AND c."status" IN ('queued', 'running', 'waiting_permission', 'waiting_children')
        )
      LIMIT ${limit}`;
  }
}
