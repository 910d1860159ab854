// The five session-query tools (seed dsh: "Session-query tool schemas"). Their schemas carry no
// workspace, cursor, page, result limit or timeout: the caller's workspace, the 100-result bound and
// the 30 s deadline are the host's (libs/session-search). Read-only, so they never ask for approval.
// Every byte of these definitions is sent on every main-agent request: descriptions stay short.
import { p, params } from '../tool-params';
import { ToolError, type AgentTool, type SessionQueryCaller, type SessionQueryPort, type ToolContext } from '../tool.types';

const searchInput = params({ query: p.string() });
const eventSearchInput = params({ query: p.string(), session_id: p.optional(p.string('Default: this session')) });
const traceInput = params({ session_id: p.string() });
const eventInput = params({ session_id: p.string(), seq: p.integer(undefined, 1) });

/** The port and caller, or a refusal the model reads (e.g. outside a worker's run). */
function bound(ctx: ToolContext): { port: SessionQueryPort; caller: SessionQueryCaller } {
  if (!ctx.sessionQueries || !ctx.caller) throw new ToolError('Session search is not available here.');
  return { port: ctx.sessionQueries, caller: ctx.caller };
}

export const sessionSearchTool: AgentTool<typeof searchInput.zod._output> = {
  name: 'session_search',
  description: "Search this workspace's other sessions (best hit each).",
  category: 'read',
  parameters: searchInput.json,
  input: searchInput.zod,
  async execute(input, ctx) {
    const { port, caller } = bound(ctx);
    return { text: await port.searchSessions(caller, input.query, ctx.signal) };
  },
};

export const sessionEventSearchTool: AgentTool<typeof eventSearchInput.zod._output> = {
  name: 'session_event_search',
  description: "Search one session's events.",
  category: 'read',
  parameters: eventSearchInput.json,
  input: eventSearchInput.zod,
  async execute(input, ctx) {
    const { port, caller } = bound(ctx);
    return { text: await port.searchEvents({ ...caller, callId: ctx.callId ?? null }, { query: input.query, sessionId: input.session_id ?? null }, ctx.signal) };
  },
};

export const sessionTraceTool: AgentTool<typeof traceInput.zod._output> = {
  name: 'session_trace',
  description: "A session's lineage: forks, runs, sub-agent runs.",
  category: 'read',
  parameters: traceInput.json,
  input: traceInput.zod,
  async execute(input, ctx) {
    const { port, caller } = bound(ctx);
    return { text: await port.trace(caller, input.session_id, ctx.signal) };
  },
};

export const sessionEventTraceTool: AgentTool<typeof eventInput.zod._output> = {
  name: 'session_event_trace',
  description: "Events tied to one event (call/result, permission/decision, sub-agents).",
  category: 'read',
  parameters: eventInput.json,
  input: eventInput.zod,
  async execute(input, ctx) {
    const { port, caller } = bound(ctx);
    return { text: await port.eventTrace(caller, input.session_id, input.seq, ctx.signal) };
  },
};

export const sessionEventReadTool: AgentTool<typeof eventInput.zod._output> = {
  name: 'session_event_read',
  description: "One event's exact data.",
  category: 'read',
  parameters: eventInput.json,
  input: eventInput.zod,
  async execute(input, ctx) {
    const { port, caller } = bound(ctx);
    return { text: await port.readEvent(caller, input.session_id, input.seq, ctx.signal) };
  },
};

/** In the seed's order; offered to the main agent only (sub-agent profiles list their own tools). */
export const SESSION_QUERY_TOOLS: readonly AgentTool[] = [sessionSearchTool, sessionEventSearchTool, sessionTraceTool, sessionEventTraceTool, sessionEventReadTool];
