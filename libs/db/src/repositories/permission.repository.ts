import { Injectable } from '@nestjs/common';
import type { Permission } from '@h/contracts';
import { PrismaService } from '../prisma.service';
import { EventRepository, type EventEnvelope } from './event.repository';
import { PermissionStatus, Prisma } from '../generated/client';

export type PermissionStatusName = `${PermissionStatus}`;
// The database enum and the contract's statuses are one set: a drift is a compile error here.
const _sameStatuses: [PermissionStatusName, Permission['status']] extends [Permission['status'], PermissionStatusName] ? true : never = true;

/** The request as the API shows it (the contract's shape), plus the stored decision. */
export interface PermissionRecord extends Permission<Date> {
  decision: { updatedInput?: unknown; message?: string } | null;
}

const select = {
  id: true,
  sessionId: true,
  runId: true,
  toolCallId: true,
  toolName: true,
  input: true,
  status: true,
  decidedById: true,
  decision: true,
  createdAt: true,
  decidedAt: true,
} as const;

type Row = Prisma.PermissionRequestGetPayload<{ select: typeof select }>;
const toRecord = (r: Row): PermissionRecord => ({ ...r, decision: (r.decision as PermissionRecord['decision']) ?? null });

type AskInput = { sessionId: string; runId: string; toolCallId: string; toolName: string; input: unknown };

@Injectable()
export class PermissionRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly events: EventRepository,
  ) {}

  /**
   * A run asks (by the worker holding its lease): the request row and, while it is pending, its
   * `permission.requested` event in one transaction. Nobody then sees a pending request that the
   * log does not show yet: the bot API reports a running run with a pending request as
   * waiting_permission, and a client reading the log at that moment found no request in it.
   * Idempotent per (run, tool call): a resumed run asking again gets the same request back (pending
   * or decided), and a request still pending is announced again.
   */
  async ask(input: AskInput, preview: unknown, leaseId: string): Promise<{ request: PermissionRecord; appended: EventEnvelope[] }> {
    return this.prisma.$transaction(async (tx) => {
      const request = toRecord(await upsertRow(tx, input));
      if (request.status !== 'pending') return { request, appended: [] };
      const data = { permissionId: request.id, toolCallId: input.toolCallId, toolName: input.toolName, input: input.input, ...(preview ? { preview } : {}) };
      const appended = await this.events.append(input.sessionId, [{ type: 'permission.requested', data }], { runId: input.runId, leaseId, tx });
      return { request, appended };
    });
  }

  async findById(id: string): Promise<PermissionRecord | null> {
    const row = await this.prisma.permissionRequest.findUnique({ where: { id }, select });
    return row ? toRecord(row) : null;
  }

  findOwner(id: string): Promise<{ teamId: string; workspaceId: string } | null> {
    return this.prisma.permissionRequest
      .findUnique({ where: { id }, select: { session: { select: { teamId: true, workspaceId: true } } } })
      .then((r) => r?.session ?? null);
  }

  async listBySession(sessionId: string, status?: PermissionStatusName): Promise<PermissionRecord[]> {
    const rows = await this.prisma.permissionRequest.findMany({
      where: { sessionId, ...(status ? { status } : {}) },
      orderBy: { createdAt: 'asc' },
      take: 200,
      select,
    });
    return rows.map(toRecord);
  }

  /** Records a decision once; a second answer (another member, a retry) changes nothing. */
  async decide(
    id: string,
    decision: { status: 'allowed' | 'denied' | 'cancelled'; decidedById: string | null; updatedInput?: unknown; message?: string },
  ): Promise<boolean> {
    const { count } = await this.prisma.permissionRequest.updateMany({
      where: { id, status: 'pending' },
      data: {
        status: decision.status,
        decidedById: decision.decidedById,
        decidedAt: new Date(),
        decision: { updatedInput: decision.updatedInput, message: decision.message } as Prisma.InputJsonValue,
      },
    });
    return count > 0;
  }

  /** The request a run is parked on, if any (a run asks one at a time). */
  async findPendingForRun(runId: string): Promise<PermissionRecord | null> {
    const row = await this.prisma.permissionRequest.findFirst({ where: { runId, status: 'pending' }, orderBy: { createdAt: 'desc' }, select });
    return row ? toRecord(row) : null;
  }

  async cancelPendingForRun(runId: string): Promise<void> {
    await this.prisma.permissionRequest.updateMany({ where: { runId, status: 'pending' }, data: { status: 'cancelled', decidedAt: new Date() } });
  }
}

function upsertRow(client: Pick<Prisma.TransactionClient, 'permissionRequest'>, input: AskInput): Promise<Row> {
  return client.permissionRequest.upsert({
    where: { runId_toolCallId: { runId: input.runId, toolCallId: input.toolCallId } },
    create: { ...input, input: (input.input ?? {}) as Prisma.InputJsonValue },
    update: {},
    select,
  });
}
