import { Injectable } from '@nestjs/common';
import { assertSessionEvent, type EventEnvelope } from '@h/contracts';
import { metrics } from '@h/telemetry';
import { PrismaService } from '../prisma.service';
import { Prisma } from '../generated/client';
import { UsageTotals, ZERO_USAGE } from '../usage';
import { sql } from '../sql';

// The envelope every part shares is defined once, in the contracts (zod schema and type).
export type { EventEnvelope };

export interface NewEvent {
  type: string;
  data: unknown;
}

/** Thrown when a worker appends for a run whose lease another worker has taken over. */
/** What a run's log says about its result (EventRepository.runOutcomes). */
export interface RunOutcome {
  summary: string | null;
  reply: string | null;
  /** The run's terminal event, once the log has it (the run row may follow a moment later). */
  end: { type: 'run.done' | 'run.failed' | 'run.cancelled'; ts: Date; data: { summary?: string | null; reply?: string | null; code?: string; message?: string; usage?: UsageTotals } } | null;
}

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
   *
   * One SQL statement (its own transaction, or part of the caller's `tx`): the fence, the seq
   * bump and the insert used to be an interactive transaction of five round trips holding a pooled
   * connection throughout, which with 50 concurrent runs made the pool the bottleneck of every
   * event's latency (bench/runs).
   *
   * What a worker's batch of events implies rides in the same statement, so each batch costs one
   * commit (one WAL flush, the dominant cost of an append): `usage` (needs the lease) is added to the
   * run's and the session's totals, so a killed worker neither loses a model request the log
   * records nor makes a resumed run count it again; `state` is merged into the session's derived
   * state (top-level keys replaced, like `{ ...state, ...patch }`).
   */
  async append(
    sessionId: string,
    events: NewEvent[],
    options: { runId?: string | null; leaseId?: string; tx?: Tx; usage?: UsageTotals; model?: string; state?: Record<string, unknown>; durable?: boolean } = {},
  ): Promise<EventEnvelope[]> {
    if (!events.length) return [];
    // The log is what every reader rebuilds from: a producer that writes a shape the contract does
    // not know fails here, loudly, instead of breaking a replay later.
    for (const e of events) assertSessionEvent({ type: e.type, data: e.data ?? {} });
    const runId = options.runId ?? null;
    const fenced = Boolean(options.leaseId && options.runId);
    if (options.usage && !fenced) throw new Error('usage is only added by the worker that holds the run\'s lease');
    const u = options.usage ?? ZERO_USAGE;
    const cost = String(u.costUsd);
    const state = JSON.stringify(options.state ?? {});
    const ts = new Date();
    const items = JSON.stringify(events.map((e) => ({ type: e.type, data: e.data ?? {} })));
    // `durable: false` commits without waiting for the WAL flush (synchronous_commit off for this
    // statement's own transaction only): 0.2 ms instead of 4–12 ms under load (bench/runs). The
    // events are committed and visible at once; what a Postgres crash (not a worker's) can lose is
    // the last few hundred milliseconds of them, until the next durable commit, which flushes the
    // WAL up to itself and so makes every earlier one durable too. Inside a caller's `tx` the
    // caller's commit decides.
    const fast = options.durable === false && !options.tx;
    const started = performance.now();
    const statement = sql`
      WITH owned AS (
        UPDATE "Run" SET "updatedAt" = now() AT TIME ZONE 'UTC',
          "requests" = "requests" + ${u.requests}::int, "promptTokens" = "promptTokens" + ${u.promptTokens}::int,
          "completionTokens" = "completionTokens" + ${u.completionTokens}::int, "cacheHitTokens" = "cacheHitTokens" + ${u.cacheHitTokens}::int,
          "cacheMissTokens" = "cacheMissTokens" + ${u.cacheMissTokens}::int, "reasoningTokens" = "reasoningTokens" + ${u.reasoningTokens}::int,
          "costUsd" = "costUsd" + ${cost}::numeric,
          -- The model of its first recorded usage: what usage reports group the run's cost under.
          "model" = COALESCE("model", CASE WHEN ${options.usage ? 1 : 0}::int = 1 THEN ${options.model ?? null}::text END)
        WHERE ${fenced}::boolean AND "id" = ${runId}::uuid AND "leaseId" = ${options.leaseId ?? null}::text
        RETURNING 1
      ), bumped AS (
        UPDATE "AgentSession" SET "lastSeq" = "lastSeq" + ${events.length}::int, "updatedAt" = now() AT TIME ZONE 'UTC',
          "requests" = "requests" + ${u.requests}::int, "promptTokens" = "promptTokens" + ${u.promptTokens}::int,
          "completionTokens" = "completionTokens" + ${u.completionTokens}::int, "cacheHitTokens" = "cacheHitTokens" + ${u.cacheHitTokens}::int,
          "cacheMissTokens" = "cacheMissTokens" + ${u.cacheMissTokens}::int, "reasoningTokens" = "reasoningTokens" + ${u.reasoningTokens}::int,
          "costUsd" = "costUsd" + ${cost}::numeric,
          "state" = "state" || ${state}::jsonb
        WHERE "id" = ${sessionId}::uuid AND (NOT ${fenced}::boolean OR EXISTS (SELECT 1 FROM owned))
        RETURNING "lastSeq", "workspaceId"
      )
      INSERT INTO "Event" ("sessionId", "workspaceId", "seq", "runId", "type", "data", "ts")
      SELECT ${sessionId}::uuid, b."workspaceId", (b."lastSeq" - ${events.length}::int + e.ord)::int, ${runId}::uuid, e.item->>'type', e.item->'data', ${ts.toISOString()}::timestamp(3)
      FROM bumped b, jsonb_array_elements(${items}::jsonb) WITH ORDINALITY AS e(item, ord)
      WHERE NOT ${fast}::boolean OR set_config('synchronous_commit', 'off', true) IS NOT NULL
      RETURNING "seq"`;
    // Inside a caller's Prisma transaction the statement runs there; alone, straight through pg.
    const rows = options.tx ? await options.tx.$queryRawUnsafe<Array<{ seq: number }>>(statement.text, ...statement.values) : await this.prisma.sql.rows<{ seq: number }>(statement);
    metrics.eventAppendDuration.observe({ durable: String(!fast) }, (performance.now() - started) / 1000);
    if (rows.length !== events.length) {
      if (fenced) throw new LeaseLostError(options.runId as string);
      throw new Error(`session ${sessionId} does not exist`);
    }
    const first = Math.min(...rows.map((r) => Number(r.seq)));
    return events.map((e, i) => ({ sessionId, seq: first + i, runId, ts: ts.toISOString(), type: e.type, data: (e.data ?? {}) as unknown }));
  }

  /** `types`: only events of these types (e.g. a run looking for decisions made while it works). */
  async list(sessionId: string, options: { after?: number; limit?: number; runId?: string; types?: string[] } = {}): Promise<EventEnvelope[]> {
    // Direct SQL (sql.ts): every run's start reads its session's log through here.
    const rows = await this.prisma.sql.rows<{ seq: number; runId: string | null; ts: Date; type: string; data: unknown }>(sql`
      SELECT "seq", "runId", "ts", "type", "data" FROM "Event"
      WHERE "sessionId" = ${sessionId}::uuid AND "seq" > ${options.after ?? 0}::int
        AND (${options.runId ?? null}::uuid IS NULL OR "runId" = ${options.runId ?? null}::uuid)
        AND (${options.types ?? null}::text[] IS NULL OR "type" = ANY(${options.types ?? null}::text[]))
      ORDER BY "seq" ASC LIMIT ${options.limit ?? 1000}::int`);
    return rows.map((r) => ({ sessionId, seq: r.seq, runId: r.runId, ts: r.ts.toISOString(), type: r.type, data: r.data }));
  }

  /**
   * One page of the log, capped in count and in bytes (of each event's JSON data): it stops before
   * the event that would pass `maxBytes`, but always holds at least one event, so a reader always
   * moves on. Sizes are summed in Postgres, so rows past the cap are never loaded.
   * `hasMore` says whether events after the page exist.
   */
  async page(sessionId: string, options: { after: number; limit: number; maxBytes: number }): Promise<{ items: EventEnvelope[]; hasMore: boolean }> {
    const rows = await this.prisma.$queryRaw<Array<{ seq: number; runId: string | null; ts: string; type: string; data: unknown; scanned: bigint }>>`
      WITH sized AS (
        SELECT "seq", SUM(octet_length("data"::text)) OVER (ORDER BY "seq") - octet_length("data"::text) AS "before"
        FROM "Event" WHERE "sessionId" = ${sessionId}::uuid AND "seq" > ${options.after}::int
        ORDER BY "seq" LIMIT ${options.limit + 1}::int
      )
      SELECT e."seq", e."runId", to_char(e."ts", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "ts", e."type", e."data", (SELECT COUNT(*) FROM sized) AS "scanned"
      FROM sized s JOIN "Event" e ON e."sessionId" = ${sessionId}::uuid AND e."seq" = s."seq"
      WHERE s."before" = 0 OR s."before" + octet_length(e."data"::text) <= ${options.maxBytes}::bigint
      ORDER BY e."seq"`;
    const items = rows.slice(0, options.limit).map((r) => ({ sessionId, seq: Number(r.seq), runId: r.runId, ts: r.ts, type: r.type, data: r.data }));
    const scanned = rows.length ? Number(rows[0].scanned) : 0;
    return { items, hasMore: scanned > items.length };
  }

  /**
   * What each run left for its reader: the newest `summary.written` of the run (or its `run.done`
   * summary), the `run.done` reply, and the terminal event (`run.done|failed|cancelled`) if the log
   * has one. One query for a whole list of runs.
   */
  async runOutcomes(runIds: string[]): Promise<Map<string, RunOutcome>> {
    const out = new Map<string, RunOutcome>();
    if (!runIds.length) return out;
    const rows = await this.prisma.event.findMany({
      where: { runId: { in: runIds }, type: { in: ['summary.written', 'run.done', 'run.failed', 'run.cancelled'] } },
      orderBy: { seq: 'asc' },
      select: { runId: true, type: true, data: true, ts: true },
    });
    for (const row of rows) {
      const data = (row.data ?? {}) as NonNullable<RunOutcome['end']>['data'];
      const seen = out.get(row.runId as string) ?? { summary: null, reply: null, end: null };
      if (typeof data.summary === 'string') seen.summary = data.summary;
      if (row.type === 'run.done' && typeof data.reply === 'string') seen.reply = data.reply;
      if (row.type !== 'summary.written') seen.end = { type: row.type as NonNullable<RunOutcome['end']>['type'], ts: row.ts, data };
      out.set(row.runId as string, seen);
    }
    return out;
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

  /** The newest event of `runId` whose type is one of `types` (e.g. a run's terminal event), or null. */
  async lastOfRun(sessionId: string, runId: string, types: string[]): Promise<EventEnvelope | null> {
    const row = await this.prisma.event.findFirst({
      where: { sessionId, runId, type: { in: types } },
      orderBy: { seq: 'desc' },
      select: { sessionId: true, seq: true, runId: true, ts: true, type: true, data: true },
    });
    return row ? { ...row, ts: row.ts.toISOString() } : null;
  }

  async lastSeq(sessionId: string): Promise<number> {
    const s = await this.prisma.agentSession.findUnique({ where: { id: sessionId }, select: { lastSeq: true } });
    return s?.lastSeq ?? 0;
  }
}
