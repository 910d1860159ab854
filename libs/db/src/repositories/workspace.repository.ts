import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service';
import { columns, sql } from '../sql';
import { WorkspaceStatus } from '../generated/client';
import { QuotaExceededError } from '../quota';

export type WorkspaceStatusName = `${WorkspaceStatus}`;

export interface WorkspaceRecord {
  id: string;
  teamId: string;
  name: string;
  description: string;
  status: WorkspaceStatusName;
  statusMessage: string | null;
  networkEnabled: boolean;
  /** Host names the egress proxy lets the sandbox reach (exact or `*.example.com`). */
  allowedHosts: string[];
  setupAt: Date | null;
  createdById: string;
  createdAt: Date;
  updatedAt: Date;
}

const workspaceSelect = {
  id: true,
  teamId: true,
  name: true,
  description: true,
  status: true,
  statusMessage: true,
  networkEnabled: true,
  allowedHosts: true,
  setupAt: true,
  createdById: true,
  createdAt: true,
  updatedAt: true,
} as const;
const WORKSPACE_COLUMNS_W = columns(workspaceSelect, 'w');

@Injectable()
export class WorkspaceRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Creates the workspace unless the team already has `limit`; the team row is locked while
   * counting, so parallel creates cannot overshoot the quota.
   */
  create(input: { teamId: string; createdById: string; name: string; description?: string }, limit: number): Promise<WorkspaceRecord> {
    return this.prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM "Team" WHERE id = ${input.teamId}::uuid FOR UPDATE`;
      const used = await tx.workspace.count({ where: { teamId: input.teamId } });
      if (used >= limit) throw new QuotaExceededError('workspaces', used, limit);
      return tx.workspace.create({ data: input, select: workspaceSelect });
    });
  }

  countByTeam(teamId: string): Promise<number> {
    return this.prisma.workspace.count({ where: { teamId } });
  }

  listByTeam(teamId: string): Promise<WorkspaceRecord[]> {
    return this.prisma.workspace.findMany({ where: { teamId }, orderBy: { createdAt: 'asc' }, select: workspaceSelect });
  }

  findById(id: string): Promise<WorkspaceRecord | null> {
    return this.prisma.workspace.findUnique({ where: { id }, select: workspaceSelect });
  }

  /** The workspace of a session, in one read (a run's start reads it beside the session, not after). */
  async findBySession(sessionId: string): Promise<WorkspaceRecord | null> {
    // Direct SQL (sql.ts): on the path of every run's start.
    const [row] = await this.prisma.sql.rows<WorkspaceRecord>(sql`
      SELECT ${WORKSPACE_COLUMNS_W} FROM "Workspace" w JOIN "AgentSession" s ON s."workspaceId" = w."id" WHERE s."id" = ${sessionId}::uuid`);
    return row ?? null;
  }

  findTeamId(id: string): Promise<string | null> {
    return this.prisma.workspace.findUnique({ where: { id }, select: { teamId: true } }).then((w) => w?.teamId ?? null);
  }

  update(
    id: string,
    data: Partial<Pick<WorkspaceRecord, 'name' | 'description' | 'networkEnabled' | 'allowedHosts'>>,
  ): Promise<WorkspaceRecord> {
    return this.prisma.workspace.update({ where: { id }, data, select: workspaceSelect });
  }

  /** Written by the worker's setup job. */
  markSetUp(id: string, status: WorkspaceStatusName, statusMessage: string | null): Promise<WorkspaceRecord> {
    return this.prisma.workspace.update({
      where: { id },
      data: { status, statusMessage, setupAt: status === 'ready' ? new Date() : null },
      select: workspaceSelect,
    });
  }

  /** Progress of a running setup ("Cloning… 45%"); only while it is still provisioning. */
  async setStatusMessage(id: string, statusMessage: string): Promise<void> {
    await this.prisma.workspace.updateMany({ where: { id, status: 'provisioning' }, data: { statusMessage } });
  }

  async remove(id: string): Promise<void> {
    await this.prisma.workspace.deleteMany({ where: { id } });
  }
}
