import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service';
import { Prisma } from '../generated/client';

/** The envelope every part shares: `{ sessionId, seq, runId, ts, type, data }`. */
export interface EventEnvelope {
  sessionId: string;
  seq: number;
  runId: string | null;
  ts: string;
  type: string;
  data: unknown;
}

export interface NewEvent {
  type: string;
  data: unknown;
}

/** Thrown when a worker appends for a run whose lease another worker has taken over. */
export class LeaseLostError extends Error {
  constructor(runId: string) {
    super(`run ${runId} is now owned by another worker`);
    this.name = 'LeaseLostError';
  }
}

type Tx = Prisma.TransactionClient;

@Injectable()
export class EventRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Appends events with gapless seqs. Incrementing the session's lastSeq takes its row lock until
   * commit, so concurrent appenders to one session serialize and no seq is skipped or reused.
   * With a `leaseId`, the append fails unless that lease still owns the run.
   */
  async append(sessionId: string, events: NewEvent[], options: { runId?: string | null; leaseId?: string; tx?: Tx } = {}): Promise<EventEnvelope[]> {
    if (!events.length) return [];
    const work = async (tx: Tx) => {
      if (options.leaseId && options.runId) {
        const owned = await tx.run.updateMany({ where: { id: options.runId, leaseId: options.leaseId }, data: { updatedAt: new Date() } });
        if (owned.count === 0) throw new LeaseLostError(options.runId);
      }
      const { lastSeq } = await tx.agentSession.update({
        where: { id: sessionId },
        data: { lastSeq: { increment: events.length } },
        select: { lastSeq: true },
      });
      const first = lastSeq - events.length + 1;
      const ts = new Date();
      const rows = events.map((e, i) => ({
        sessionId,
        seq: first + i,
        runId: options.runId ?? null,
        type: e.type,
        data: (e.data ?? {}) as Prisma.InputJsonValue,
        ts,
      }));
      await tx.event.createMany({ data: rows });
      return rows.map((r) => ({ sessionId, seq: r.seq, runId: r.runId, ts: ts.toISOString(), type: r.type, data: r.data as unknown }));
    };
    return options.tx ? work(options.tx) : this.prisma.$transaction(work);
  }

  async list(sessionId: string, options: { after?: number; limit?: number; runId?: string } = {}): Promise<EventEnvelope[]> {
    const rows = await this.prisma.event.findMany({
      where: { sessionId, seq: { gt: options.after ?? 0 }, ...(options.runId ? { runId: options.runId } : {}) },
      orderBy: { seq: 'asc' },
      take: options.limit ?? 1000,
      select: { sessionId: true, seq: true, runId: true, ts: true, type: true, data: true },
    });
    return rows.map((r) => ({ ...r, ts: r.ts.toISOString() }));
  }

  /** Every event of a session, in order, for rebuilding the model conversation. */
  async listAll(sessionId: string): Promise<EventEnvelope[]> {
    const out: EventEnvelope[] = [];
    for (;;) {
      const page = await this.list(sessionId, { after: out.at(-1)?.seq ?? 0, limit: 5000 });
      out.push(...page);
      if (page.length < 5000) return out;
    }
  }

  async lastSeq(sessionId: string): Promise<number> {
    const s = await this.prisma.agentSession.findUnique({ where: { id: sessionId }, select: { lastSeq: true } });
    return s?.lastSeq ?? 0;
  }
}
