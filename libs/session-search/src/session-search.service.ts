import { Inject, Injectable, Optional } from '@nestjs/common';
import { SESSION_SEARCH_LIMITS, type SessionSearchHit } from '@h/contracts';
import { SessionSearchRepository, type EventHit } from '@h/db';
import { score, SearchDeadline } from './search-query';

/** Overrides for tests and benchmarks; production uses SESSION_SEARCH_LIMITS. */
export interface SessionSearchOptions {
  deadlineMs: number;
  maxResults: number;
  /**
   * Matching events the largest query page reads (session_search reduces them to one per session;
   * its pages start at `firstPageSize` and double, so a word found in many sessions costs one small
   * page and one dense in few sessions a handful).
   */
  pageSize: number;
  firstPageSize: number;
  /** The deadline's clock (tests pass one that moves on each look instead of sleeping). */
  clock: () => number;
}

export const SESSION_SEARCH_OPTIONS = Symbol('SESSION_SEARCH_OPTIONS');

const DEFAULTS: SessionSearchOptions = {
  deadlineMs: SESSION_SEARCH_LIMITS.deadlineMs,
  maxResults: SESSION_SEARCH_LIMITS.maxResults,
  pageSize: 8_000,
  firstPageSize: 1_000,
  clock: Date.now,
};

export interface EventSearchHit {
  seq: number;
  runId: string | null;
  type: string;
  ts: Date;
  snippet: string;
}

export interface SearchOutcome<T> {
  hits: T[];
  /** The deadline (or the caller's cancellation) stopped the search before every match was read. */
  partial: boolean;
}

/** What a page query failing on its statement timeout looks like through Prisma and adapter-pg. */
function isTimeout(err: unknown): boolean {
  const text = `${(err as Error)?.message ?? ''} ${JSON.stringify(err) ?? ''}`;
  return /57014|statement timeout|canceling statement|P2028|Transaction already closed/i.test(text);
}

/**
 * Full-text search of sessions and of one session's events (the session-query tools and the IDE's
 * search box). The caller names the workspaces it may see; nothing here widens them. Both searches
 * read newest matches first in pages, stop at `maxResults` or at the cooperative deadline (checked
 * between pages; each page's statement timeout is what is left), then order what they found by
 * text rank weighed by recency.
 */
@Injectable()
export class SessionSearchService {
  private readonly o: SessionSearchOptions;

  constructor(
    private readonly repo: SessionSearchRepository,
    @Optional() @Inject(SESSION_SEARCH_OPTIONS) options?: Partial<SessionSearchOptions>,
  ) {
    this.o = { ...DEFAULTS, ...options };
  }

  get maxResults(): number {
    return this.o.maxResults;
  }

  /** The best-matching event of each matching session in `workspaceIds`, but never `excludeSession`'s. */
  async searchSessions(input: { workspaceIds: string[]; excludeSession: string | null; tsquery: string; signal?: AbortSignal }): Promise<SearchOutcome<SessionSearchHit<Date>>> {
    const deadline = new SearchDeadline(this.o.deadlineMs, input.signal, this.o.clock);
    const best = new Map<string, EventHit>();
    let beforeId: bigint | null = null;
    let partial = false;
    let limit = Math.min(this.o.firstPageSize, this.o.pageSize);
    while (best.size < this.o.maxResults) {
      if (deadline.over()) {
        partial = true;
        break;
      }
      const page = await this.page(() =>
        this.repo.searchSessionEvents({ ...input, skipSessions: [...best.keys()], beforeId, limit, timeoutMs: deadline.left() }),
      );
      limit = Math.min(limit * 2, this.o.pageSize);
      if (!page) {
        partial = true;
        break;
      }
      // Newest sessions first when a page holds more than the bound allows.
      for (const hit of page.hits.sort((a, b) => Number(BigInt(b.eventId) - BigInt(a.eventId)))) {
        if (best.size < this.o.maxResults) best.set(hit.sessionId, hit);
      }
      if (page.next === null) break;
      beforeId = page.next;
    }
    const chosen = this.ordered([...best.values()]);
    const [snippets, sessions] = await Promise.all([
      this.snippets(chosen, input.tsquery, deadline),
      this.repo.sessions(chosen.map((h) => h.sessionId)),
    ]);
    const byId = new Map(sessions.map((s) => [s.id, s]));
    const hits = chosen.flatMap((h) => {
      const s = byId.get(h.sessionId);
      if (!s) return []; // deleted meanwhile
      return [{ sessionId: h.sessionId, workspaceId: s.workspaceId, title: s.title, seq: Number(h.seq), type: h.type, ts: h.ts, snippet: snippets.get(BigInt(h.eventId)) ?? '' }];
    });
    return { hits, partial };
  }

  /**
   * Matching events of one session, below `excludeFromSeq` (the calling step and after) and never
   * of the call `excludeCallId`. The caller has checked the session is one it may see.
   */
  async searchEvents(input: { sessionId: string; tsquery: string; excludeFromSeq: number | null; excludeCallId: string | null; signal?: AbortSignal }): Promise<SearchOutcome<EventSearchHit>> {
    const deadline = new SearchDeadline(this.o.deadlineMs, input.signal, this.o.clock);
    const found: EventHit[] = [];
    let beforeSeq: number | null = null;
    let partial = false;
    while (found.length < this.o.maxResults) {
      if (deadline.over()) {
        partial = true;
        break;
      }
      const limit = Math.min(this.o.pageSize, this.o.maxResults - found.length);
      const page = await this.page(() => this.repo.searchOneSession({ ...input, beforeSeq, limit, timeoutMs: deadline.left() }));
      if (!page) {
        partial = true;
        break;
      }
      found.push(...page);
      if (page.length < limit) break;
      beforeSeq = Number(page[page.length - 1].seq);
    }
    const chosen = this.ordered(found);
    const snippets = await this.snippets(chosen, input.tsquery, deadline);
    return {
      hits: chosen.map((h) => ({ seq: Number(h.seq), runId: h.runId, type: h.type, ts: h.ts, snippet: snippets.get(BigInt(h.eventId)) ?? '' })),
      partial,
    };
  }

  /** The step a call belongs to (the seq of its assistant message), once logged. */
  stepSeq(sessionId: string, callId: string): Promise<number | null> {
    return this.repo.stepSeq(sessionId, callId);
  }

  private ordered(hits: EventHit[]): EventHit[] {
    const now = this.o.clock();
    return hits
      .map((h) => ({ h, s: score(Number(h.rank), h.ts, now) }))
      .sort((a, b) => b.s - a.s || b.h.ts.getTime() - a.h.ts.getTime())
      .map((x) => x.h);
  }

  /** Snippets when time is left; without it the results go out without them rather than late. */
  private async snippets(hits: EventHit[], tsquery: string, deadline: SearchDeadline): Promise<Map<bigint, string>> {
    if (hits.length === 0 || deadline.over()) return new Map();
    return (await this.page(() => this.repo.headlines(hits.map((h) => BigInt(h.eventId)), tsquery, deadline.left()))) ?? new Map();
  }

  /** A page, or null when it ran into its statement timeout (the deadline). */
  private async page<T>(run: () => Promise<T>): Promise<T | null> {
    try {
      return await run();
    } catch (err) {
      if (isTimeout(err)) return null;
      throw err;
    }
  }
}
