import { Injectable } from '@nestjs/common';
import { Prisma } from '../generated/client';
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

export interface AuditFilter {
  action?: string;
  actorUserId?: string;
  from?: Date;
  to?: Date;
}

export interface AuditEntryWithActor extends AuditEntry {
  actorName: string | null;
  actorEmail: string | null;
}

@Injectable()
export class AuditRepository {
  constructor(private readonly prisma: PrismaService) {}

  async record(entry: AuditEntryInput): Promise<void> {
    await this.prisma.auditLog.create({
      data: { ...entry, metadata: (entry.metadata ?? {}) as object },
    });
  }

  /**
   * A team's entries, newest first, filtered: `action` matches the action itself or, as a prefix,
   * every action under it (`token` → token.create, token.revoke); `from` inclusive, `to` exclusive.
   * Joined with the actor's name and email (null once the account is gone).
   */
  async listForTeam(teamId: string, options: AuditFilter & { before?: bigint; limit: number }): Promise<AuditEntryWithActor[]> {
    const where: Prisma.AuditLogWhereInput = {
      teamId,
      ...(options.before ? { id: { lt: options.before } } : {}),
      ...(options.action ? { OR: [{ action: options.action }, { action: { startsWith: `${options.action}.` } }] } : {}),
      ...(options.actorUserId ? { actorUserId: options.actorUserId } : {}),
      ...(options.from || options.to ? { createdAt: { ...(options.from ? { gte: options.from } : {}), ...(options.to ? { lt: options.to } : {}) } } : {}),
    };
    const rows = await this.prisma.auditLog.findMany({ where, orderBy: { id: 'desc' }, take: options.limit });
    const actorIds = [...new Set(rows.map((r) => r.actorUserId).filter((id): id is string => !!id))];
    const actors = actorIds.length ? await this.prisma.user.findMany({ where: { id: { in: actorIds } }, select: { id: true, name: true, email: true } }) : [];
    const byId = new Map(actors.map((a) => [a.id, a]));
    return rows.map((r) => {
      const actor = r.actorUserId ? byId.get(r.actorUserId) : undefined;
      return { ...r, id: r.id.toString(), actorName: actor?.name ?? null, actorEmail: actor?.email ?? null };
    });
  }

  async listForUser(actorUserId: string, limit: number): Promise<AuditEntry[]> {
    const rows = await this.prisma.auditLog.findMany({ where: { actorUserId }, orderBy: { id: 'desc' }, take: limit });
    return rows.map((r) => ({ ...r, id: r.id.toString() }));
  }
}
