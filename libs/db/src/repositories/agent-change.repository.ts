import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ACTIVE_RUN_STATUSES, type AgentChange, type AgentChangeKind, type AgentChangeSide, type AgentChangeStatus, type AgentChangeSummary } from '@h/contracts';
import { PrismaService } from '../prisma.service';
import { columns, sql, type SqlRunner } from '../sql';
import { Prisma, RunStatus } from '../generated/client';

/** A change as the API shows it (the contract's shape). */
export type AgentChangeRecord = AgentChange<Date>;

export interface NewAgentChange {
  kind: AgentChangeKind;
  path: string;
  fromPath: string | null;
  before: AgentChangeSide;
  after: AgentChangeSide;
  added: number;
  removed: number;
}

const select = {
  id: true,
  sessionId: true,
  runId: true,
  toolCallId: true,
  kind: true,
  path: true,
  fromPath: true,
  before: true,
  after: true,
  added: true,
  removed: true,
  status: true,
  decidedById: true,
  decidedAt: true,
  createdAt: true,
} as const;

type Row = Prisma.AgentChangeGetPayload<{ select: typeof select }>;
const COLUMNS = columns(select);

function toRecord(r: Row): AgentChangeRecord {
  const before = r.before as unknown as AgentChangeSide;
  const after = r.after as unknown as AgentChangeSide;
  return {
    ...r,
    kind: r.kind as AgentChangeKind,
    status: r.status as AgentChangeStatus,
    before,
    after,
    binary: before.binary || after.binary,
    tooLarge: before.tooLarge || after.tooLarge,
  };
}

export function toChangeSummary(r: AgentChangeRecord): AgentChangeSummary {
  const { id, runId, toolCallId, kind, path, fromPath, added, removed, binary, tooLarge } = r;
  return { id, runId, toolCallId, kind, path, fromPath, added, removed, binary, tooLarge };
}

/** The agent's recorded file changes (review, reject, revert) and the runs' workspace checkpoints. */
@Injectable()
export class AgentChangeRepository {
  constructor(private readonly prisma: PrismaService) {}

  async createMany(scope: { sessionId: string; runId: string; toolCallId: string }, changes: NewAgentChange[]): Promise<AgentChangeRecord[]> {
    // Direct SQL (sql.ts): the record of every edit the agent makes, before its result returns.
    // One statement per change, in order (a call changes one file, or two for a rename, which
    // share a transaction).
    const insert = (run: SqlRunner, c: NewAgentChange) =>
      run.rows<Row>(sql`
        INSERT INTO "AgentChange" ("id", "sessionId", "runId", "toolCallId", "kind", "path", "fromPath", "before", "after", "added", "removed", "createdAt")
        VALUES (${randomUUID()}::uuid, ${scope.sessionId}::uuid, ${scope.runId}::uuid, ${scope.toolCallId}, ${c.kind}, ${c.path}, ${c.fromPath},
          ${c.before}::jsonb, ${c.after}::jsonb, ${c.added}::int, ${c.removed}::int, ${new Date()}::timestamp(3))
        RETURNING ${COLUMNS}`).then(([row]) => toRecord(row));
    if (changes.length === 1) return [await insert(this.prisma.sql, changes[0])];
    return this.prisma.sql.transaction(async (tx) => {
      const out: AgentChangeRecord[] = [];
      for (const c of changes) out.push(await insert(tx, c));
      return out;
    });
  }

  async findById(id: string): Promise<AgentChangeRecord | null> {
    const row = await this.prisma.agentChange.findUnique({ where: { id }, select });
    return row ? toRecord(row) : null;
  }

  findOwner(id: string): Promise<{ teamId: string; workspaceId: string; sessionId: string } | null> {
    return this.prisma.agentChange
      .findUnique({ where: { id }, select: { sessionId: true, session: { select: { teamId: true, workspaceId: true } } } })
      .then((r) => (r ? { ...r.session, sessionId: r.sessionId } : null));
  }

  async listByRun(runId: string): Promise<AgentChangeRecord[]> {
    const rows = await this.prisma.agentChange.findMany({ where: { runId }, orderBy: { createdAt: 'asc' }, select, take: 1000 });
    return rows.map(toRecord);
  }

  async listBySession(sessionId: string, limit = 500): Promise<AgentChangeRecord[]> {
    const rows = await this.prisma.agentChange.findMany({ where: { sessionId }, orderBy: { createdAt: 'asc' }, select, take: limit });
    return rows.map(toRecord);
  }

  /**
   * Marks changes decided, but only those still in one of `from` (two people rejecting at once:
   * one wins). Answers the ids it marked.
   */
  async markDecided(ids: string[], status: Exclude<AgentChangeStatus, 'applied'>, from: AgentChangeStatus[], userId: string): Promise<string[]> {
    return this.prisma.$transaction(async (tx) => {
      const rows = await tx.agentChange.findMany({ where: { id: { in: ids }, status: { in: from } }, select: { id: true } });
      const marked = rows.map((r) => r.id);
      if (marked.length) await tx.agentChange.updateMany({ where: { id: { in: marked } }, data: { status, decidedById: userId, decidedAt: new Date() } });
      return marked;
    });
  }

  /** Gives back changes a failed undo had claimed: applied again, undecided. */
  async release(ids: string[], claimedAs: AgentChangeStatus): Promise<void> {
    if (!ids.length) return;
    await this.prisma.agentChange.updateMany({ where: { id: { in: ids }, status: claimedAs }, data: { status: 'applied', decidedById: null, decidedAt: null } });
  }

  /** Records the run's checkpoint once: the first one taken is what the workspace was before it. */
  async setRunCheckpoint(runId: string, checkpointId: string): Promise<void> {
    // Direct SQL (sql.ts): on the path of a run's first change.
    await this.prisma.sql.count(sql`UPDATE "Run" SET "checkpointId" = ${checkpointId}, "updatedAt" = ${new Date()}::timestamp(3) WHERE "id" = ${runId}::uuid AND "checkpointId" IS NULL`);
  }

  /** The checkpoints of these runs, by run id (runs without one are left out). */
  async runCheckpoints(runIds: string[]): Promise<Map<string, string>> {
    const rows = await this.prisma.run.findMany({ where: { id: { in: runIds }, checkpointId: { not: null } }, select: { id: true, checkpointId: true } });
    return new Map(rows.map((r) => [r.id, r.checkpointId as string]));
  }

  /** Whether any session of the workspace has a run queued, running or waiting. */
  async workspaceHasActiveRun(workspaceId: string): Promise<boolean> {
    const n = await this.prisma.run.count({ where: { session: { workspaceId }, status: { in: ACTIVE_RUN_STATUSES as RunStatus[] } } });
    return n > 0;
  }
}
