import { Injectable } from '@nestjs/common';
import { SessionSearchRepository, type LineageRunRow, type SessionSummaryRow, type StoredEventRow } from '@h/db';
import { ToolError, type SessionQueryCaller, type SessionQueryPort } from '@h/tools';
import { oneLine, toTsquery } from './search-query';
import { SessionSearchService, type SearchOutcome } from './session-search.service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Runs and forks a trace lists (a session with more says how many it left out). */
const TRACE_MAX = 200;
const PREVIEW_CHARS = 160;

const when = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
const deadlineNote = (o: SearchOutcome<unknown>) => (o.partial ? '\n(The search deadline passed: these are the matches found before it.)' : '');

/**
 * The session-query tools' port (seed dsh): plain text for the model, every answer limited to the
 * caller's workspace: a session of another workspace (or team) is "not found", exactly like one
 * that does not exist. The worker binds it to each run's caller (ToolContext.caller).
 */
@Injectable()
export class SessionQueryService implements SessionQueryPort {
  constructor(
    private readonly search: SessionSearchService,
    private readonly repo: SessionSearchRepository,
  ) {}

  async searchSessions(caller: SessionQueryCaller, query: string, signal: AbortSignal): Promise<string> {
    const tsquery = this.tsquery(query);
    const found = await this.search.searchSessions({ workspaceIds: [caller.workspaceId], excludeSession: caller.sessionId, tsquery, signal });
    if (found.hits.length === 0) return `No other session of this workspace matches "${query}".${deadlineNote(found)}`;
    const lines = found.hits.map(
      (h, i) => `${i + 1}. session ${h.sessionId} "${oneLine(h.title, 80)}" · seq ${h.seq} ${h.type} · ${when(h.ts)}\n   ${oneLine(h.snippet, 300)}`,
    );
    return `${found.hits.length} session${found.hits.length === 1 ? '' : 's'} match "${query}", best first (at most ${this.search.maxResults}):\n${lines.join('\n')}${deadlineNote(found)}`;
  }

  async searchEvents(caller: SessionQueryCaller & { callId: string | null }, input: { query: string; sessionId: string | null }, signal: AbortSignal): Promise<string> {
    const tsquery = this.tsquery(input.query);
    const session = await this.visible(caller, input.sessionId ?? caller.sessionId);
    const own = session.id === caller.sessionId;
    // On the calling session, the step performing the call (its assistant message and all after) is left out.
    const excludeFromSeq = own && caller.callId ? await this.search.stepSeq(session.id, caller.callId) : null;
    const found = await this.search.searchEvents({ sessionId: session.id, tsquery, excludeFromSeq, excludeCallId: own ? caller.callId : null, signal });
    const where = own ? 'this session' : `session ${session.id}`;
    if (found.hits.length === 0) return `No ${own ? 'earlier ' : ''}event of ${where} matches "${input.query}".${deadlineNote(found)}`;
    const lines = found.hits.map((h) => `- seq ${h.seq} ${h.type} · ${when(h.ts)}${h.runId ? ` · run ${h.runId}` : ''}\n  ${oneLine(h.snippet, 300)}`);
    return `${found.hits.length} event${found.hits.length === 1 ? '' : 's'} of ${where} match "${input.query}", best first (at most ${this.search.maxResults}):\n${lines.join('\n')}${deadlineNote(found)}`;
  }

  // The trace and read tools declare no deadline (seed): each is a few bounded reads.
  async trace(caller: SessionQueryCaller, sessionId: string, _signal?: AbortSignal): Promise<string> {
    const session = await this.visible(caller, sessionId);
    const [source, forks, runs] = await Promise.all([
      session.forkedFromId ? this.repo.sessions([session.forkedFromId]) : Promise.resolve([]),
      this.repo.forks(session.id, TRACE_MAX),
      this.repo.runs(session.id, TRACE_MAX),
    ]);
    const messages = await this.repo.runMessages(session.id, runs.map((r) => r.id));
    const out = [`Session ${session.id} "${oneLine(session.title, 80)}" · created ${when(session.createdAt)} · ${session.lastSeq} events${session.id === caller.sessionId ? ' (this session)' : ''}`];
    const from = source.find((s) => s.workspaceId === caller.workspaceId);
    if (from) out.push(`Forked from: session ${from.id} "${oneLine(from.title, 80)}"`);
    const visibleForks = forks.filter((f) => f.workspaceId === caller.workspaceId);
    if (visibleForks.length) out.push('Forks:', ...visibleForks.map((f) => `- session ${f.id} "${oneLine(f.title, 80)}" · ${when(f.createdAt)}`));
    out.push(runs.length ? `Runs (oldest first${runs.length === TRACE_MAX ? `, first ${TRACE_MAX}` : ''}):` : 'No runs.');
    out.push(...this.runTree(runs, messages));
    return out.join('\n');
  }

  async eventTrace(caller: SessionQueryCaller, sessionId: string, seq: number, _signal?: AbortSignal): Promise<string> {
    const session = await this.visible(caller, sessionId);
    const event = await this.event(session.id, seq);
    const data = (event.data ?? {}) as Record<string, unknown>;
    const callIds = new Set<string>();
    if (typeof data.toolCallId === 'string') callIds.add(data.toolCallId);
    for (const c of Array.isArray(data.toolCalls) ? data.toolCalls : []) if (typeof (c as { id?: unknown }).id === 'string') callIds.add((c as { id: string }).id);
    const runs = await this.repo.runs(session.id, TRACE_MAX);
    // Sub-agent runs a call delegated to, and the run that delegated this event's run.
    const runIds = new Set(runs.filter((r) => r.parentToolCallId && callIds.has(r.parentToolCallId)).map((r) => r.id));
    for (const child of Array.isArray(data.children) ? data.children : []) if (typeof (child as { runId?: unknown }).runId === 'string') runIds.add((child as { runId: string }).runId);
    const own = runs.find((r) => r.id === event.runId);
    if (own?.parentRunId && own.parentToolCallId) callIds.add(own.parentToolCallId);
    const related = await this.repo.related(session.id, {
      toolCallIds: [...callIds],
      permissionIds: typeof data.permissionId === 'string' ? [data.permissionId] : [],
      runIds: [...runIds],
    });
    const others = related.filter((e) => e.seq !== event.seq);
    const head = `Event seq ${event.seq} ${event.type} · ${when(event.ts)}${event.runId ? ` · run ${event.runId}${own?.parentRunId ? ` (sub-agent of run ${own.parentRunId})` : ''}` : ''}\n  ${describe(event)}`;
    if (others.length === 0) return `${head}\nNo related events.`;
    return `${head}\nRelated events (log order):\n${others.map((e) => `- seq ${e.seq} ${e.type}${e.runId && e.runId !== event.runId ? ` · run ${e.runId}` : ''}: ${describe(e)}`).join('\n')}`;
  }

  async readEvent(caller: SessionQueryCaller, sessionId: string, seq: number, _signal?: AbortSignal): Promise<string> {
    const session = await this.visible(caller, sessionId);
    const event = await this.event(session.id, seq);
    const head = `Event seq ${event.seq} ${event.type} of session ${session.id} · ${event.ts.toISOString()}${event.runId ? ` · run ${event.runId}` : ''}`;
    return `${head}\n${JSON.stringify(event.data, null, 2)}`;
  }

  private tsquery(query: string): string {
    const tsquery = toTsquery(query);
    if (!tsquery) throw new ToolError('The query has no words to search for: give one or more words (letters or digits).');
    return tsquery;
  }

  /** The session when it is in the caller's workspace; "not found" otherwise, whichever the reason. */
  private async visible(caller: SessionQueryCaller, sessionId: string): Promise<SessionSummaryRow> {
    const [session] = UUID.test(sessionId) ? await this.repo.sessions([sessionId]) : [];
    if (!session || session.workspaceId !== caller.workspaceId) throw new ToolError(`No session ${sessionId} in this workspace.`);
    return session;
  }

  private async event(sessionId: string, seq: number): Promise<StoredEventRow> {
    const event = seq <= 2_147_483_647 ? await this.repo.event(sessionId, seq) : null;
    if (!event) throw new ToolError(`Session ${sessionId} has no event with seq ${seq}.`);
    return event;
  }

  /** Runs with their sub-agent runs indented under the run that delegated them. */
  private runTree(runs: LineageRunRow[], messages: Map<string, string>): string[] {
    const children = new Map<string, LineageRunRow[]>();
    for (const r of runs) if (r.parentRunId) children.set(r.parentRunId, [...(children.get(r.parentRunId) ?? []), r]);
    const known = new Set(runs.map((r) => r.id));
    const lines: string[] = [];
    const walk = (r: LineageRunRow, depth: number) => {
      const what = r.profile ? `sub-agent run ${r.id} [${r.profile}]` : `run ${r.id}`;
      const asked = messages.get(r.id);
      lines.push(`${'  '.repeat(depth)}- ${what} ${r.status} · ${when(r.createdAt)}${r.parentToolCallId ? ` · for call ${r.parentToolCallId}` : ''}${asked ? ` · "${oneLine(asked, PREVIEW_CHARS)}"` : ''}`);
      for (const c of children.get(r.id) ?? []) walk(c, depth + 1);
    };
    for (const r of runs) if (!r.parentRunId || !known.has(r.parentRunId)) walk(r, 0);
    return lines;
  }
}

/** One line saying what an event is (session_event_trace). */
function describe(e: StoredEventRow): string {
  const d = (e.data ?? {}) as Record<string, unknown>;
  const text = (v: unknown) => oneLine(typeof v === 'string' ? v : JSON.stringify(v ?? ''), PREVIEW_CHARS);
  switch (e.type) {
    case 'message.assistant': {
      const calls = Array.isArray(d.toolCalls) ? (d.toolCalls as { id: string; name: string }[]).map((c) => `${c.name} (${c.id})`).join(', ') : '';
      return [d.content ? text(d.content) : '', calls ? `calls ${calls}` : ''].filter(Boolean).join(' · ') || '(empty)';
    }
    case 'tool.start':
      return `${d.name} (${d.toolCallId}) ${text(d.arguments)}`;
    case 'tool.end':
      return `${d.name} (${d.toolCallId}) ${d.isError ? 'error' : 'ok'}: ${text(d.result)}`;
    case 'permission.requested':
      return `${d.toolName} (${d.toolCallId}) asks, permission ${d.permissionId}`;
    case 'permission.resolved':
      return `${d.toolName} (${d.toolCallId}) ${d.behavior}${d.message ? `: ${text(d.message)}` : ''}`;
    case 'delegation.started':
      return `call ${d.toolCallId} started ${Array.isArray(d.children) ? d.children.length : 0} sub-agent run(s)`;
    case 'message.user':
      return text(d.content);
    case 'run.done':
      return text(d.reply ?? d.summary ?? '');
    case 'run.failed':
      return `${d.code}: ${text(d.message)}`;
    default:
      return text(d);
  }
}
