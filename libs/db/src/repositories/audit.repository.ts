import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service';

export interface AuditEntryInput {
  action: string;
  teamId?: string | null;
  actorUserId?: string | null;
  actorTokenId?: string | null;
  targetType?: string | null;
  targetId?: string | null;
  ip?: string | null;
  metadata?: Record<string, unknown>;
}

export interface AuditEntry {
  id: string;
  action: string;
  teamId: string | null;
  actorUserId: string | null;
  actorTokenId: string | null;
  targetType: string | null;
  targetId: string | null;
  ip: string | null;
  metadata: unknown;
  createdAt: Date;
}

@Injectable()
export class AuditRepository {
  constructor(private readonly prisma: PrismaService) {}

  async record(entry: AuditEntryInput): Promise<void> {
    await this.prisma.auditLog.create({
      data: { ...entry, metadata: (entry.metadata ?? {}) as object },
    });
  }

  async listForTeam(teamId: string, options: { before?: bigint; limit: number }): Promise<AuditEntry[]> {
    const rows = await this.prisma.auditLog.findMany({
      where: { teamId, ...(options.before ? { id: { lt: options.before } } : {}) },
      orderBy: { id: 'desc' },
      take: options.limit,
    });
    return rows.map((r) => ({ ...r, id: r.id.toString() }));
  }

  async listForUser(actorUserId: string, limit: number): Promise<AuditEntry[]> {
    const rows = await this.prisma.auditLog.findMany({ where: { actorUserId }, orderBy: { id: 'desc' }, take: limit });
    return rows.map((r) => ({ ...r, id: r.id.toString() }));
  }
}
