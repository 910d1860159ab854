import type { AgentToolCall, EventEnvelope, RunStatus } from '@h/contracts';
import { AGENT_PROFILES, isAgentProfileName, MAIN_AGENT_COLOUR } from '@h/contracts/agent-profiles';
import type { ConsoleState, ToolItem } from './transcript-state';

// Sub-agents in the console (seed: Multi-Agent Delegation, "Live streaming" and "Color coding"):
// their tool calls stream into the parent's turn as cards marked with the profile's colour; their
// text is not shown as messages, only a delegation card with each sub-agent's profile, status and
// result. A sub-agent is a run of its own in the session; `delegation.started` says whose it is.

export interface SubAgentRef {
  parentRunId: string;
  toolCallId: string;
  profile: string;
}

export interface DelegationChild {
  runId: string;
  profile: string;
  label: string;
  colour: string;
  task: string;
  status: RunStatus;
  /** Its report (run.done) or why it stopped. */
  result: string | null;
}

export interface DelegationItem {
  kind: 'delegation';
  key: string;
  toolCallId: string;
  children: DelegationChild[];
}

/** The left-border colour of a tool card: its sub-agent's profile colour, the main agent's otherwise. */
export function agentColour(profile: string | undefined): string {
  return profile && isAgentProfileName(profile) ? AGENT_PROFILES[profile].colour : MAIN_AGENT_COLOUR;
}

export function profileLabel(profile: string): string {
  return isAgentProfileName(profile) ? AGENT_PROFILES[profile].label : profile;
}

type Data = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The card of one `delegation.started` (its children as they start, queued). */
export function delegationItem(e: EventEnvelope): { item: DelegationItem; refs: Record<string, SubAgentRef> } {
  const d = (e.data ?? {}) as Data;
  const toolCallId = str(d.toolCallId);
  const children = ((d.children as Array<{ runId: string; profile: string; task: string }> | undefined) ?? []).map(
    (c): DelegationChild => ({ runId: c.runId, profile: c.profile, label: profileLabel(c.profile), colour: agentColour(c.profile), task: c.task, status: 'queued', result: null }),
  );
  const refs: Record<string, SubAgentRef> = {};
  for (const c of children) refs[c.runId] = { parentRunId: e.runId ?? '', toolCallId, profile: c.profile };
  return { item: { kind: 'delegation', key: `delegation-${e.seq}`, toolCallId, children }, refs };
}

/**
 * How a sub-agent's event changes its delegation card: `null` when it does not (its tool cards
 * and approvals go through the ordinary handling, placed in the parent's turn).
 */
export function childPatch(e: EventEnvelope): Partial<DelegationChild> | null {
  const d = (e.data ?? {}) as Data;
  switch (e.type) {
    case 'run.started':
      return { status: 'running' };
    case 'permission.requested':
      return { status: 'waiting_permission' };
    case 'permission.resolved':
      return { status: 'running' };
    case 'run.done':
      return { status: 'completed', result: str(d.summary) || str(d.reply) || null };
    case 'run.failed':
      return { status: 'failed', result: str(d.message) || null };
    case 'run.cancelled':
      return { status: 'cancelled', result: null };
    default:
      return null;
  }
}

/** Sub-agent events that are the sub-agent's own conversation: never shown as messages. */
function hiddenForSubAgent(type: string): boolean {
  return type === 'message.user' || type === 'summary.written' || type === 'todos.updated' || type === 'error' || type === 'compaction';
}

/** The transcript's own handling, for what a sub-agent's event shares with any other. */
export interface TranscriptOps {
  /** Applies an event as an ordinary one (its runId decides the turn). */
  apply(e: EventEnvelope): void;
  updateTool(e: EventEnvelope, toolCallId: string, patch: Partial<ToolItem>, name: string): void;
  setRun(runId: string | null, status: RunStatus): void;
}

/**
 * A sub-agent's event: its status on the delegation card; its tool calls, diffs and approvals as
 * cards in the parent's turn, marked with its profile; its text and its own ending not as messages.
 */
export function applySubAgentEvent(state: ConsoleState, e: EventEnvelope, sub: SubAgentRef, ops: TranscriptOps): void {
  const patch = childPatch(e);
  if (patch) {
    for (const turn of state.turns) {
      turn.items = turn.items.map((i) =>
        i.kind === 'delegation' && i.toolCallId === sub.toolCallId ? { ...i, children: i.children.map((c) => (c.runId === e.runId ? { ...c, ...patch } : c)) } : i,
      );
    }
  }
  if (hiddenForSubAgent(e.type)) return;
  const asParent: EventEnvelope = { ...e, runId: sub.parentRunId };
  const d = (e.data ?? {}) as Data;
  switch (e.type) {
    case 'run.started':
      ops.setRun(e.runId, 'running');
      return;
    case 'run.done':
    case 'run.failed':
    case 'run.cancelled':
      ops.setRun(e.runId, e.type === 'run.done' ? 'completed' : e.type === 'run.failed' ? 'failed' : 'cancelled');
      state.pending = state.pending.filter((p) => p.runId !== e.runId);
      return;
    case 'message.assistant':
      for (const call of (d.toolCalls as AgentToolCall[] | undefined) ?? []) ops.updateTool(asParent, call.id, { name: call.name, arguments: call.arguments, agent: sub.profile }, call.name);
      return;
    case 'tool.start':
    case 'tool.end':
    case 'file.changed':
    case 'preview.detected':
      ops.apply(asParent);
      if (e.type === 'tool.start') ops.updateTool(asParent, str(d.toolCallId), { agent: sub.profile }, str(d.name));
      return;
    case 'permission.requested':
    case 'permission.resolved':
    case 'usage':
      // The sub-agent's own: its pending approval card, the session's totals.
      ops.apply(e);
      return;
    default:
      return;
  }
}
