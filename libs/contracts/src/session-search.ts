// Session search (seed dsh: the session-query tools; issue 14): the bounds the tools and the IDE's
// search box share, and the REST result shape. Zod-free: the web imports it.

export const SESSION_SEARCH_LIMITS = {
  /** Results one search collects at most (sessions for session_search, events for session_event_search). */
  maxResults: 100,
  /** The cooperative deadline of one search: checked between query pages, each page bounded by what is left. */
  deadlineMs: 30_000,
  /** Characters of a query (the REST `q`, a tool's `query`). */
  queryMaxChars: 200,
  /** Words of a query that count; later ones are ignored. */
  queryMaxWords: 16,
} as const;

/** One session that matches, with its best event (GET /api/v1/workspaces/:id/sessions/search). */
export interface SessionSearchHit<D = string> {
  sessionId: string;
  workspaceId: string;
  title: string;
  /** The matching event: its seq, type and time. */
  seq: number;
  type: string;
  ts: D;
  /** Where the words occur, the matches between « and ». */
  snippet: string;
}

export interface SessionSearchResponse<D = string> {
  items: SessionSearchHit<D>[];
  /** The deadline ended the search before every match was looked at: the items are the ones found by then. */
  partial: boolean;
}
