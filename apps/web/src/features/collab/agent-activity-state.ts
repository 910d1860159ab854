import type { EventEnvelope, FilesChangedEvent } from '@h/contracts';

// Which files the agent is changing right now, from the live session events (a write tool's
// `permission.requested` or `tool.start` names the path; a denial, its `tool.end` or the run's
// end closes it) and from
// `files.changed` (the change landing in the workspace keeps the marker up a moment longer, so
// a fast edit is still seen).

/** Tools that change a file, and the arguments that name it. */
const WRITE_TOOLS: Record<string, readonly string[]> = {
  write_file: ['path'],
  edit_file: ['path'],
  delete_file: ['path'],
  rename_file: ['old_path', 'new_path'],
};

/** How long a marker stays after the change ended. */
export const AGENT_ACTIVITY_LINGER_MS = 4000;

export interface AgentActivity {
  path: string;
  sessionId: string;
  /** ISO time the agent started on it. */
  since: string;
}

interface Entry extends AgentActivity {
  toolCallId: string;
  /** ms; null while the tool call runs (or waits for approval). */
  endedAt: number | null;
}

export type AgentActivityState = readonly Entry[];

function pathsOf(name: string, args: unknown): string[] {
  const keys = WRITE_TOOLS[name];
  if (!keys) return [];
  try {
    const parsed = (typeof args === 'string' ? JSON.parse(args) : args) as Record<string, unknown>;
    return keys.map((k) => parsed?.[k]).filter((v): v is string => typeof v === 'string' && v.length > 0).map((p) => p.replace(/^\.\//, ''));
  } catch {
    return []; // arguments the model got wrong: the call fails, nothing is written
  }
}

/** `now` is when an end happened: the arrival time for live events, the event's own time for replayed ones. */
export function applyAgentEvent(state: AgentActivityState, e: EventEnvelope, now: number): AgentActivityState {
  const data = e.data as Record<string, unknown>;
  // In approve mode the agent asks first: the file is about to change while the card waits.
  if (e.type === 'tool.start' || e.type === 'permission.requested') {
    const paths = e.type === 'tool.start' ? pathsOf(String(data.name), data.arguments) : pathsOf(String(data.toolName), data.input);
    if (!paths.length) return state;
    const toolCallId = String(data.toolCallId);
    const kept = state.filter((x) => !(x.toolCallId === toolCallId && x.sessionId === e.sessionId));
    return [...kept, ...paths.map((path) => ({ path, sessionId: e.sessionId, since: e.ts, toolCallId, endedAt: null }))];
  }
  if (e.type === 'tool.end' || (e.type === 'permission.resolved' && data.behavior === 'deny')) {
    return state.map((x) => (x.sessionId === e.sessionId && x.toolCallId === data.toolCallId && x.endedAt === null ? { ...x, endedAt: now } : x));
  }
  if (e.type === 'run.done' || e.type === 'run.failed' || e.type === 'run.cancelled') {
    return state.map((x) => (x.sessionId === e.sessionId && x.endedAt === null ? { ...x, endedAt: now } : x));
  }
  return state;
}

export function applyFilesChanged(state: AgentActivityState, event: FilesChangedEvent, now: number): AgentActivityState {
  const touched = new Set(event.changes.flatMap((c) => (c.from ? [c.path, c.from] : [c.path])));
  return state.map((x) => (x.endedAt !== null && touched.has(x.path) ? { ...x, endedAt: Math.max(x.endedAt, now) } : x));
}

/** Drops entries whose marker is over. */
export function pruneAgentActivity(state: AgentActivityState, now: number, lingerMs = AGENT_ACTIVITY_LINGER_MS): AgentActivityState {
  const kept = state.filter((x) => x.endedAt === null || now - x.endedAt < lingerMs);
  return kept.length === state.length ? state : kept;
}

/** One activity per path (the earliest start), in the order the agent started them. */
export function currentAgentActivity(state: AgentActivityState, now: number, lingerMs = AGENT_ACTIVITY_LINGER_MS): AgentActivity[] {
  const byPath = new Map<string, AgentActivity>();
  for (const x of pruneAgentActivity(state, now, lingerMs)) {
    const seen = byPath.get(x.path);
    if (!seen || x.since < seen.since) byPath.set(x.path, { path: x.path, sessionId: x.sessionId, since: x.since });
  }
  return [...byPath.values()].sort((a, b) => a.since.localeCompare(b.since));
}
