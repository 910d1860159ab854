import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service';

export interface H2cTaskRecord {
  id: string;
  teamId: string;
  workspaceId: string;
  sessionId: string;
  runId: string;
  createdAt: Date;
}

const taskSelect = { id: true, teamId: true, workspaceId: true, sessionId: true, runId: true, createdAt: true } as const;

// The h2c task id a client holds, mapped to the H session and run the task is. The run's own row
// carries everything else (status, result, usage), so a task is as durable as the run.
@Injectable()
export class H2cTaskRepository {
  constructor(private readonly prisma: PrismaService) {}

  create(task: Omit<H2cTaskRecord, 'createdAt'>): Promise<H2cTaskRecord> {
    return this.prisma.h2cTask.create({ data: task, select: taskSelect });
  }

  /** The task when it belongs to the team; null for an unknown id and for another team's task alike. */
  findInTeam(id: string, teamId: string): Promise<H2cTaskRecord | null> {
    return this.prisma.h2cTask.findFirst({ where: { id, teamId }, select: taskSelect });
  }
}
