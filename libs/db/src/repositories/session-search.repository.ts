import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service';
import { Prisma } from '../generated/client';

// Postgres full-text search over the event log (migration 20261202120000_session_search: the
// generated `Event.search` tsvector, GIN-indexed, over `event_search_text(type, data)`). Every query
// takes the workspaces it may look in: the caller (libs/session-search) decides which those are.

/** One matching event, newest first within a page. */
export interface EventHit {
  eventId: bigint;
  sessionId: string;
  seq: number;
  runId: string | null;
  type: string;
  ts: Date;
  rank: number;
}

export interface SessionSummaryRow {
  id: string;
  workspaceId: string;
  teamId: string;
  title: string;
  createdAt: Date;
  updatedAt: Date;
  forkedFromId: string | null;
  lastSeq: number;
}

export interface LineageRunRow {
  id: string;
  status: string;
  parentRunId: string | null;
  parentToolCallId: string | null;
  profile: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

export interface StoredEventRow {
  sessionId: string;
  seq: number;
  runId: string | null;
  type: string;
  ts: Date;
  data: unknown;
}

/** Which events of a session a relation query looks for (session_event_trace). */
export interface EventRelationKeys {
  toolCallIds: string[];
  permissionIds: string[];
  runIds: string[];
}

/** Runs a query under a statement timeout, so one page never outlives the search's deadline. */
type Timed = { timeoutMs: number };

const RELATED_MAX = 200;
const RUN_EDGE_TYPES = ['run.started', 'run.done', 'run.failed', 'run.cancelled', 'delegation.started'];

@Injectable()
export class SessionSearchRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * One page of search over `workspaceIds`: the newest `limit` matching events (below `beforeId`,
   * never of `excludeSession` or of the sessions already found, `skipSessions`), reduced to the
   * best-ranked one per session. `next` is where the following page starts (null: no more). A page
   * reads a bounded number of events whatever the query matches, so a common word costs pages, not
   * one unbounded scan; and sessions, whose events sit together in the log, do not fill pages alone.
   */
  async searchSessionEvents(
    query: { tsquery: string; workspaceIds: string[]; excludeSession: string | null; skipSessions: string[]; beforeId: bigint | null; limit: number } & Timed,
  ): Promise<{ hits: EventHit[]; next: bigint | null }> {
    // One ordered scan per workspace (`=` lets Postgres walk ("workspaceId", "id") newest first, or
    // read the workspace's GIN entries for a rare word), merged and cut to the page.
    const rows = await this.timed(query.timeoutMs, (tx) => tx.$queryRaw<Array<EventHit & { oldest: bigint; matched: number }>>`
      WITH m AS MATERIALIZED (
        SELECT x.* FROM unnest(${query.workspaceIds}::uuid[]) w("id") CROSS JOIN LATERAL (
          SELECT e."id", e."sessionId", e."seq", e."runId", e."type", e."ts", e."search"
          FROM "Event" e
          WHERE e."workspaceId" = w."id"
            AND e."search" @@ to_tsquery('simple', ${query.tsquery})
            AND (${query.excludeSession}::uuid IS NULL OR e."sessionId" <> ${query.excludeSession}::uuid)
            AND NOT (e."sessionId" = ANY(${query.skipSessions}::uuid[]))
            AND (${query.beforeId}::bigint IS NULL OR e."id" < ${query.beforeId}::bigint)
          ORDER BY e."id" DESC
          LIMIT ${query.limit}::int
        ) x
        ORDER BY x."id" DESC
        LIMIT ${query.limit}::int
      ), bounds AS (SELECT min("id") AS "oldest", count(*)::int AS "matched" FROM m)
      SELECT DISTINCT ON (m."sessionId") m."id" AS "eventId", m."sessionId", m."seq", m."runId", m."type", m."ts",
        ts_rank(m."search", to_tsquery('simple', ${query.tsquery}))::float8 AS "rank", b."oldest", b."matched"
      FROM m, bounds b
      ORDER BY m."sessionId", "rank" DESC, m."id" DESC`);
    const full = rows.length > 0 && Number(rows[0].matched) >= query.limit;
    return {
      hits: rows.map(({ oldest: _o, matched: _m, ...hit }) => hit),
      next: full ? BigInt(rows[0].oldest) : null,
    };
  }

  /**
   * One page of matching events of one session, newest first: below `beforeSeq`, and never from
   * `excludeFromSeq` on (the calling step and what follows it) or of the call `excludeCallId`.
   */
  searchOneSession(
    query: { tsquery: string; sessionId: string; beforeSeq: number | null; excludeFromSeq: number | null; excludeCallId: string | null; limit: number } & Timed,
  ): Promise<EventHit[]> {
    return this.timed(query.timeoutMs, (tx) => tx.$queryRaw<EventHit[]>`
      SELECT e."id" AS "eventId", e."sessionId", e."seq", e."runId", e."type", e."ts", ts_rank(e."search", q)::float8 AS "rank"
      FROM "Event" e, to_tsquery('simple', ${query.tsquery}) q
      WHERE e."sessionId" = ${query.sessionId}::uuid
        AND e."search" @@ q
        AND (${query.beforeSeq}::int IS NULL OR e."seq" < ${query.beforeSeq}::int)
        AND (${query.excludeFromSeq}::int IS NULL OR e."seq" < ${query.excludeFromSeq}::int)
        AND (${query.excludeCallId}::text IS NULL OR coalesce(e."data"->>'toolCallId', '') <> ${query.excludeCallId}::text)
      ORDER BY e."seq" DESC
      LIMIT ${query.limit}::int`);
  }

  /** Snippets of the chosen events (ts_headline over the same text the index holds). */
  async headlines(eventIds: bigint[], tsquery: string, timeoutMs: number): Promise<Map<bigint, string>> {
    if (eventIds.length === 0) return new Map();
    const rows = await this.timed(timeoutMs, (tx) => tx.$queryRaw<Array<{ id: bigint; snippet: string }>>`
      SELECT e."id", ts_headline('simple', "event_search_text"(e."type", e."data"), to_tsquery('simple', ${tsquery}),
        'StartSel=«, StopSel=», MaxWords=24, MinWords=8, MaxFragments=2, FragmentDelimiter=" … "') AS "snippet"
      FROM "Event" e WHERE e."id" = ANY(${eventIds}::bigint[])`);
    return new Map(rows.map((r) => [BigInt(r.id), r.snippet]));
  }

  /** The step a tool call belongs to: the seq of the assistant message that made it, if logged yet. */
  async stepSeq(sessionId: string, callId: string): Promise<number | null> {
    const rows = await this.prisma.$queryRaw<Array<{ seq: number }>>`
      SELECT e."seq" FROM "Event" e
      WHERE e."sessionId" = ${sessionId}::uuid AND e."type" = 'message.assistant'
        AND e."data"->'toolCalls' @> ${JSON.stringify([{ id: callId }])}::jsonb
      ORDER BY e."seq" DESC LIMIT 1`;
    return rows[0] ? Number(rows[0].seq) : null;
  }

  async sessions(ids: string[]): Promise<SessionSummaryRow[]> {
    if (ids.length === 0) return [];
    return this.prisma.agentSession.findMany({
      where: { id: { in: ids } },
      select: { id: true, workspaceId: true, teamId: true, title: true, createdAt: true, updatedAt: true, forkedFromId: true, lastSeq: true },
    });
  }

  /** Sessions forked from `sessionId`, oldest first (at most `limit`). */
  forks(sessionId: string, limit: number): Promise<SessionSummaryRow[]> {
    return this.prisma.agentSession.findMany({
      where: { forkedFromId: sessionId },
      orderBy: { createdAt: 'asc' },
      take: limit,
      select: { id: true, workspaceId: true, teamId: true, title: true, createdAt: true, updatedAt: true, forkedFromId: true, lastSeq: true },
    });
  }

  runs(sessionId: string, limit: number): Promise<LineageRunRow[]> {
    return this.prisma.run.findMany({
      where: { sessionId },
      orderBy: { createdAt: 'asc' },
      take: limit,
      select: { id: true, status: true, parentRunId: true, parentToolCallId: true, profile: true, createdAt: true, finishedAt: true },
    });
  }

  /** The message that started each run (its first message.user), by run id. */
  async runMessages(sessionId: string, runIds: string[]): Promise<Map<string, string>> {
    if (runIds.length === 0) return new Map();
    const rows = await this.prisma.$queryRaw<Array<{ runId: string; content: string }>>`
      SELECT DISTINCT ON (e."runId") e."runId", left(coalesce(e."data"->>'content', ''), 300) AS "content"
      FROM "Event" e
      WHERE e."sessionId" = ${sessionId}::uuid AND e."runId" = ANY(${runIds}::uuid[]) AND e."type" = 'message.user'
      ORDER BY e."runId", e."seq" ASC`;
    return new Map(rows.map((r) => [r.runId, r.content]));
  }

  async event(sessionId: string, seq: number): Promise<StoredEventRow | null> {
    return this.prisma.event.findUnique({
      where: { sessionId_seq: { sessionId, seq } },
      select: { sessionId: true, seq: true, runId: true, type: true, ts: true, data: true },
    });
  }

  /** Events of the session tied to the keys (tool call, permission, run edges), in log order, bounded. */
  related(sessionId: string, keys: EventRelationKeys): Promise<StoredEventRow[]> {
    const calls = JSON.stringify(keys.toolCallIds.map((id) => [{ id }]));
    return this.prisma.$queryRaw<StoredEventRow[]>`
      SELECT e."sessionId", e."seq", e."runId", e."type", e."ts", e."data" FROM "Event" e
      WHERE e."sessionId" = ${sessionId}::uuid AND (
        e."data"->>'toolCallId' = ANY(${keys.toolCallIds}::text[])
        OR e."data"->>'permissionId' = ANY(${keys.permissionIds}::text[])
        OR (e."type" = 'message.assistant' AND EXISTS (
          SELECT 1 FROM jsonb_array_elements(${calls}::jsonb) c(v) WHERE e."data"->'toolCalls' @> c.v))
        OR (e."runId" = ANY(${keys.runIds}::uuid[]) AND e."type" = ANY(${RUN_EDGE_TYPES}::text[]))
      )
      ORDER BY e."seq" ASC
      LIMIT ${RELATED_MAX}::int`;
  }

  private timed<T>(timeoutMs: number, fn: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
    const ms = Math.max(1, Math.ceil(timeoutMs));
    return this.prisma.$transaction(async (tx) => {
      // SET LOCAL takes no bind parameters; `ms` is an integer we computed.
      await tx.$executeRawUnsafe(`SET LOCAL statement_timeout = ${ms}`);
      return fn(tx);
    }, { timeout: ms + 1_000, maxWait: 5_000 });
  }
}
