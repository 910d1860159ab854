import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service';
import { PermissionMode, Prisma } from '../generated/client';
import { splitUsage, UsageTotals, usageSelect } from '../usage';

export type PermissionModeName = `${PermissionMode}`;

export interface AgentSessionRecord {
  id: string;
  teamId: string;
  workspaceId: string;
  createdById: string;
  title: string;
  model: string;
  thinking: boolean;
  permissionMode: PermissionModeName;
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
  model: true,
  thinking: true,
  permissionMode: true,
  maxSteps: true,
  lastSeq: true,
  state: true,
  ...usageSelect,
  createdAt: true,
  updatedAt: true,
} as const;

type Row = Prisma.AgentSessionGetPayload<{ select: typeof sessionSelect }>;

function toRecord(r: Row): AgentSessionRecord {
  const [usage, { state, ...rest }] = splitUsage(r);
  return { ...rest, state: (state ?? {}) as Record<string, unknown>, usage };
}

@Injectable()
export class AgentSessionRepository {
  constructor(private readonly prisma: PrismaService) {}

  async create(
    input: Pick<AgentSessionRecord, 'teamId' | 'workspaceId' | 'createdById' | 'title' | 'model' | 'thinking' | 'permissionMode'> &
      Partial<Pick<AgentSessionRecord, 'maxSteps'>>,
  ): Promise<AgentSessionRecord> {
    return toRecord(await this.prisma.agentSession.create({ data: input, select: sessionSelect }));
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
    const row = await this.prisma.agentSession.findUnique({ where: { id }, select: sessionSelect });
    return row ? toRecord(row) : null;
  }

  findOwner(id: string): Promise<{ teamId: string; workspaceId: string } | null> {
    return this.prisma.agentSession.findUnique({ where: { id }, select: { teamId: true, workspaceId: true } });
  }

  async update(
    id: string,
    data: Partial<Pick<AgentSessionRecord, 'title' | 'model' | 'thinking' | 'permissionMode' | 'maxSteps'>>,
  ): Promise<AgentSessionRecord> {
    return toRecord(await this.prisma.agentSession.update({ where: { id }, data, select: sessionSelect }));
  }

  /** Merges derived state (top-level keys replaced), in one statement. The worker's batches merge theirs in EventRepository.append. */
  async mergeState(id: string, patch: Record<string, unknown>): Promise<void> {
    await this.prisma.$executeRaw`UPDATE "AgentSession" SET "state" = "state" || ${JSON.stringify(patch)}::jsonb WHERE "id" = ${id}::uuid`;
  }
}
