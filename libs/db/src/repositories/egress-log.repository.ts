import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service';

export interface EgressLogInput {
  workspaceId: string;
  kind: string;
  host: string;
  port: number;
  allowed: boolean;
  reason: string | null;
  address?: string;
  bytesIn: number;
  bytesOut: number;
  durationMs: number;
}

export interface EgressLogRecord extends Omit<EgressLogInput, 'address'> {
  address: string | null;
  createdAt: Date;
}

@Injectable()
export class EgressLogRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Batched by the caller; rows of workspaces deleted meanwhile are skipped, not an error. */
  async insertMany(rows: EgressLogInput[]): Promise<void> {
    if (!rows.length) return;
    const ids = [...new Set(rows.map((r) => r.workspaceId))];
    const existing = new Set((await this.prisma.workspace.findMany({ where: { id: { in: ids } }, select: { id: true } })).map((w) => w.id));
    const data = rows
      .filter((r) => existing.has(r.workspaceId))
      .map((r) => ({ ...r, address: r.address ?? null, bytesIn: BigInt(r.bytesIn), bytesOut: BigInt(r.bytesOut), durationMs: Math.min(r.durationMs, 2_147_483_647) }));
    if (data.length) await this.prisma.egressLog.createMany({ data });
  }

  async listRecent(workspaceId: string, limit: number): Promise<EgressLogRecord[]> {
    const rows = await this.prisma.egressLog.findMany({
      where: { workspaceId },
      orderBy: { id: 'desc' },
      take: limit,
      select: { workspaceId: true, kind: true, host: true, port: true, allowed: true, reason: true, address: true, bytesIn: true, bytesOut: true, durationMs: true, createdAt: true },
    });
    return rows.map((r) => ({ ...r, bytesIn: Number(r.bytesIn), bytesOut: Number(r.bytesOut) }));
  }

  async pruneBefore(before: Date): Promise<number> {
    return (await this.prisma.egressLog.deleteMany({ where: { createdAt: { lt: before } } })).count;
  }
}
