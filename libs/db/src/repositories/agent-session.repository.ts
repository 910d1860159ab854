import { Injectable } from '@nestjs/common';
import type { SessionEngine } from '@h/contracts';
import { PrismaService } from '../prisma.service';
import { columns, sql } from '../sql';
import { PermissionMode, Prisma } from '../generated/client';
import { splitUsage, UsageTotals, usageSelect } from '../usage';

export type PermissionModeName = `${PermissionMode}`;

export interface AgentSessionRecord {
  id: string;
  teamId: string;
  workspaceId: string;
  createdById: string;
  title: string;
  /** The team's custom provider of `model`; null: DeepSeek. */
  providerId: string | null;
  engine: SessionEngine;
  model: string;
  thinking: boolean;
  permissionMode: PermissionModeName;
  /** Runs go step by step unless their message says otherwise. */
  stepMode: boolean;
  /** Model requests per run; null: the instance default (AGENT_MAX_STEPS). */
  maxSteps: number | null;
  lastSeq: number;
  state: Record<string, unknown>;
  usage: UsageTotals;
  createdAt: Date;
  updatedAt: Date;
}

const sessionSelect = {
  id: true,
  teamId: true,
  workspaceId: true,
  createdById: true,
  title: true,
  providerId: true,
  engine: true,
  model: true,
  thinking: true,
  permissionMode: true,
  stepMode: true,
  maxSteps: true,
  lastSeq: true,
  state: true,
  ...usageSelect,
  createdAt: true,
  updatedAt: true,
} as const;

type Row = Prisma.AgentSessionGetPayload<{ select: typeof sessionSelect }>;
const SESSION_COLUMNS = columns(sessionSelect);

function toRecord(r: Row): AgentSessionRecord {
  const [usage, { state, ...rest }] = splitUsage(r);
  return { ...rest, engine: rest.engine as SessionEngine, state: (state ?? {}) as Record<string, unknown>, usage };
}

@Injectable()
export class AgentSessionRepository {
  constructor(private readonly prisma: PrismaService) {}

  async create(
    input: Pick<AgentSessionRecord, 'teamId' | 'workspaceId' | 'createdById' | 'title' | 'model' | 'thinking' | 'permissionMode'> &
      Partial<Pick<AgentSessionRecord, 'maxSteps' | 'providerId' | 'id' | 'engine' | 'stepMode'>> & { forkedFromId?: string },
  ): Promise<AgentSessionRecord> {
    return toRecord(await this.prisma.agentSession.create({ data: input, select: sessionSelect }));
  }

  /**
   * Creates the session with the caller's `id`, or returns the one already made with it (a retried
   * bot call derives the same id). Null when that id belongs to a session of another workspace.
   */
  async createOrFind(
    input: Parameters<AgentSessionRepository['create']>[0] & { id: string },
  ): Promise<{ session: AgentSessionRecord; created: boolean } | null> {
    try {
      return { session: await this.create(input), created: true };
    } catch (err) {
      if (!(err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002')) throw err;
      const existing = await this.findById(input.id);
      return existing && existing.workspaceId === input.workspaceId ? { session: existing, created: false } : null;
    }
  }

  async listByWorkspace(workspaceId: string, limit = 100): Promise<AgentSessionRecord[]> {
    const rows = await this.prisma.agentSession.findMany({
      where: { workspaceId },
      orderBy: { updatedAt: 'desc' },
      take: limit,
      select: sessionSelect,
    });
    return rows.map(toRecord);
  }

  async findById(id: string): Promise<AgentSessionRecord | null> {
    // Direct SQL (sql.ts): read by every run's start and by posts that need the session.
    const [row] = await this.prisma.sql.rows<Row>(sql`SELECT ${SESSION_COLUMNS} FROM "AgentSession" WHERE "id" = ${id}::uuid`);
    return row ? toRecord(row) : null;
  }

  async findOwner(id: string): Promise<{ teamId: string; workspaceId: string } | null> {
    // Direct SQL (sql.ts): every session route's access check.
    const [row] = await this.prisma.sql.rows<{ teamId: string; workspaceId: string }>(sql`SELECT "teamId", "workspaceId" FROM "AgentSession" WHERE "id" = ${id}::uuid`);
    return row ?? null;
  }

  async update(
    id: string,
    data: Partial<Pick<AgentSessionRecord, 'title' | 'providerId' | 'model' | 'thinking' | 'permissionMode' | 'stepMode' | 'maxSteps'>>,
  ): Promise<AgentSessionRecord> {
    return toRecord(await this.prisma.agentSession.update({ where: { id }, data, select: sessionSelect }));
  }

  /** Merges derived state (top-level keys replaced), in one statement. The worker's batches merge theirs in EventRepository.append. */
  /** Deletes a session that never got an event (e.g. its first message was refused by a quota). */
  async removeIfEmpty(id: string): Promise<void> {
    await this.prisma.agentSession.deleteMany({ where: { id, lastSeq: 0 } });
  }

  async mergeState(id: string, patch: Record<string, unknown>): Promise<void> {
    await this.prisma.$executeRaw`UPDATE "AgentSession" SET "state" = "state" || ${JSON.stringify(patch)}::jsonb WHERE "id" = ${id}::uuid`;
  }
}
