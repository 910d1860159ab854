import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service';
import { columns, sql } from '../sql';
import { Prisma, SandboxStatus } from '../generated/client';

export type SandboxStatusName = `${SandboxStatus}`;

export interface StoredSandbox {
  workspaceId: string;
  driver: string;
  status: SandboxStatusName;
  /** The driver's record, opaque to the database layer. */
  record: Record<string, unknown>;
  lastUsedAt: Date;
}

const select = { workspaceId: true, driver: true, status: true, record: true, lastUsedAt: true } as const;
const SANDBOX_COLUMNS = columns(select);

@Injectable()
export class SandboxRepository {
  constructor(private readonly prisma: PrismaService) {}

  async find(workspaceId: string): Promise<StoredSandbox | null> {
    // Direct SQL (sql.ts): every posted message checks whether its sandbox already runs.
    const [row] = await this.prisma.sql.rows<StoredSandbox>(sql`SELECT ${SANDBOX_COLUMNS} FROM "Sandbox" WHERE "workspaceId" = ${workspaceId}::uuid`);
    return row ? { ...row, record: (row.record ?? {}) as Record<string, unknown> } : null;
  }

  async save(input: {
    workspaceId: string;
    driver: string;
    status: SandboxStatusName;
    record: Record<string, unknown>;
    containerId?: string | null;
    volumeName: string;
    image: string;
    /** The Docker host it was placed on (SANDBOX_DOCKER_HOSTS); default `local`. */
    host?: string;
  }): Promise<void> {
    const data = {
      driver: input.driver,
      host: input.host ?? 'local',
      status: input.status,
      record: input.record as Prisma.InputJsonValue,
      containerId: input.containerId ?? null,
      volumeName: input.volumeName,
      image: input.image,
      lastUsedAt: new Date(),
    };
    await this.prisma.sandbox.upsert({ where: { workspaceId: input.workspaceId }, create: { workspaceId: input.workspaceId, ...data }, update: data });
  }

  async setStatus(workspaceId: string, status: SandboxStatusName): Promise<void> {
    await this.prisma.sandbox.updateMany({ where: { workspaceId }, data: { status } });
  }

  /** Sandboxes of the team's workspaces marked running (optionally not counting one workspace's). */
  countRunning(teamId: string, exceptWorkspaceId?: string): Promise<number> {
    return this.prisma.sandbox.count({
      where: { status: 'running', workspace: { teamId }, ...(exceptWorkspaceId ? { workspaceId: { not: exceptWorkspaceId } } : {}) },
    });
  }

  /** Every record, for reconciling containers against what the database knows. */
  /** How many sandboxes are recorded in each state (every state listed, 0 when none). */
  async countByStatus(): Promise<Record<SandboxStatusName, number>> {
    const rows = await this.prisma.sandbox.groupBy({ by: ['status'], _count: { _all: true } });
    const out = Object.fromEntries(Object.values(SandboxStatus).map((s) => [s, 0])) as Record<SandboxStatusName, number>;
    for (const r of rows) out[r.status] = r._count._all;
    return out;
  }

  async listRecords(): Promise<Record<string, unknown>[]> {
    const rows = await this.prisma.sandbox.findMany({ where: { status: { not: 'removed' } }, select: { record: true } });
    return rows.map((r) => (r.record ?? {}) as Record<string, unknown>);
  }

  async remove(workspaceId: string): Promise<void> {
    await this.prisma.sandbox.deleteMany({ where: { workspaceId } });
  }
}
