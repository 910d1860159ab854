import { applyStepEvent, type StepPlanView } from './step-plan-state';
import { applySubAgentEvent, delegationItem, type DelegationItem, type SubAgentRef } from './sub-agent-state';
import { SETTINGS_FIX_CODES, SETTINGS_SECTIONS, type SettingsSection } from '@h/contracts/settings-sections';
import type { AgentChangeKind, AgentChangeStatus, AgentChangeSummary, DeltaFrame, EventEnvelope, PermissionPreview, RunStatus, Usage, Todo, AgentToolCall as ToolCallData } from '@h/contracts';

// The console's view of one session, folded from its event log. Pure functions of the events, so a
// reload (the log read again from seq 0) rebuilds exactly what the live page showed.

export type ToolStatus = 'pending' | 'waiting' | 'running' | 'ok' | 'error' | 'denied';

export interface ToolItem {
  kind: 'tool';
  key: string;
  toolCallId: string;
  name: string;
  arguments: string;
  status: ToolStatus;
  result: string | null;
  durationMs: number | null;
  /** A command's exit code: the call succeeded, but what it ran may have failed. */
  exitCode?: number | null;
  /** A person changed the input before allowing it: `arguments` is theirs. */
  editedByUser?: boolean;
  /** The sub-agent profile that made the call (its card's colour); absent for the main agent. */
  agent?: string;
}

/** One file the agent changed (`file.changed`), shown as a diff card; its status follows decisions. */
export interface ChangeItem extends Pick<AgentChangeSummary, 'path' | 'fromPath' | 'added' | 'removed' | 'binary' | 'tooLarge'> {
  kind: 'change';
  key: string;
  changeId: string;
  runId: string | null;
  change: AgentChangeKind;
  status: AgentChangeStatus;
}

export type TranscriptItem =
  | { kind: 'user'; key: string; content: string; seq: number }
  | { kind: 'assistant'; key: string; content: string | null; reasoning: string | null; streaming?: boolean }
  | ToolItem
  | ChangeItem
  | DelegationItem
  | { kind: 'summary'; key: string; summary: string }
  | { kind: 'notice'; key: string; tone: 'info' | 'error'; text: string }
  /**
   * `fixIn`: where the person can mend what failed the run: the key's Settings section, or Settings
   * at large for failures recorded before events named the section.
   */
  | { kind: 'end'; key: string; status: 'completed' | 'failed' | 'cancelled'; text: string; fixIn?: SettingsSection | 'settings' };

/** One run's part of the transcript: its user message and everything the agent did for it. */
export interface Turn {
  runId: string | null;
  /** Seq of the run's first run.started; null while it waits in the queue. */
  startSeq: number | null;
  firstSeq: number;
  items: TranscriptItem[];
}

export interface PendingPermission {
  permissionId: string;
  runId: string | null;
  toolCallId: string;
  toolName: string;
  input: unknown;
  /** The diff or command the worker computed before asking. */
  preview: PermissionPreview | null;
}

/** The session's totals, summed from the `usage` event of every model request in the log. */
export type UsageTotals = Usage;

/** How full the model's context is: the engine's chars/4 estimate of the next request, and the model's window. */
export interface ContextUse {
  tokens: number;
  window: number;
}

export interface RunPhase {
  status: RunStatus;
  error: string | null;
}

export interface ConsoleState {
  lastSeq: number;
  turns: Turn[];
  runs: Record<string, RunPhase>;
  /** The run of the newest user message. */
  latestRunId: string | null;
  pending: PendingPermission[];
  todos: Todo[];
  /** The run whose write_todos set `todos`: a later run starts with none (todos belong to their run). */
  todosRunId: string | null;
  summary: string | null;
  /** Step-by-step mode: the newest locked plan and its steps' statuses (step-plan-state.ts). */
  stepPlan: StepPlanView | null;
  usage: UsageTotals;
  /** From the newest `usage` event; null before the first model request. */
  context: ContextUse | null;
  /** Text streaming from deltas, replaced by the persisted message.assistant when it lands. */
  live: { runId: string | null; afterSeq: number; text: string; thinking: string } | null;
  /** Deltas produced before this seq belong to a message the log already holds. */
  liveFloor: number;
  /** Sub-agent runs of the session, by run id (from `delegation.started`). */
  subAgents: Record<string, SubAgentRef>;
}

export const EMPTY_USAGE: UsageTotals = { requests: 0, promptTokens: 0, completionTokens: 0, cacheHitTokens: 0, cacheMissTokens: 0, reasoningTokens: 0, costUsd: 0 };

export const initialConsoleState: ConsoleState = {
  lastSeq: 0,
  turns: [],
  runs: {},
  latestRunId: null,
  pending: [],
  todos: [],
  todosRunId: null,
  summary: null,
  stepPlan: null,
  usage: EMPTY_USAGE,
  context: null,
  live: null,
  liveFloor: 0,
  subAgents: {},
};

type Data = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Folds persisted events into the state; events at or below `lastSeq` are ignored (a replay overlap). */
export function applyEvents(state: ConsoleState, events: readonly EventEnvelope[]): ConsoleState {
  const fresh = events.filter((e) => e.seq > state.lastSeq).sort((a, b) => a.seq - b.seq);
  if (!fresh.length) return state;
  const next: ConsoleState = {
    ...state,
    turns: state.turns.map((t) => ({ ...t, items: [...t.items] })),
    runs: { ...state.runs },
    pending: [...state.pending],
    usage: { ...state.usage },
    subAgents: { ...state.subAgents },
  };
  for (const e of fresh) {
    if (e.seq <= next.lastSeq) continue;
    applyOne(next, e);
    next.lastSeq = e.seq;
  }
  next.turns.sort(turnOrder);
  return next;
}

// Runs are shown in the order they started; a message still waiting in the queue goes last, so a
// queued message never splits the transcript of the run in progress.
function turnOrder(a: Turn, b: Turn): number {
  const sa = a.startSeq ?? Number.MAX_SAFE_INTEGER;
  const sb = b.startSeq ?? Number.MAX_SAFE_INTEGER;
  return sa !== sb ? sa - sb : a.firstSeq - b.firstSeq;
}

function turnFor(state: ConsoleState, e: EventEnvelope): Turn {
  let turn = state.turns.find((t) => t.runId === e.runId && e.runId !== null);
  if (!turn) {
    turn = { runId: e.runId, startSeq: e.runId === null ? e.seq : null, firstSeq: e.seq, items: [] };
    state.turns.push(turn);
  }
  return turn;
}

function findTool(state: ConsoleState, toolCallId: string): { turn: Turn; index: number } | null {
  for (const turn of state.turns) {
    const index = turn.items.findIndex((i) => i.kind === 'tool' && i.toolCallId === toolCallId);
    if (index >= 0) return { turn, index };
  }
  return null;
}

function updateTool(state: ConsoleState, e: EventEnvelope, toolCallId: string, patch: Partial<ToolItem>, name = ''): void {
  const found = findTool(state, toolCallId);
  if (found) {
    found.turn.items[found.index] = { ...(found.turn.items[found.index] as ToolItem), ...patch };
    return;
  }
  const item: ToolItem = { kind: 'tool', key: `tool-${toolCallId}`, toolCallId, name, arguments: '', status: 'pending', result: null, durationMs: null, ...patch };
  turnFor(state, e).items.push(item);
}

function setRun(state: ConsoleState, runId: string | null, status: RunStatus, error: string | null = null): void {
  if (runId) state.runs[runId] = { status, error };
}

/** Where a `run.failed` is mended: the section the event names, or Settings for an older event's provider failure. */
function failureFix(d: Data): SettingsSection | 'settings' | undefined {
  if (typeof d.settings === 'string' && Object.hasOwn(SETTINGS_SECTIONS, d.settings)) return d.settings as SettingsSection;
  return SETTINGS_FIX_CODES.has(str(d.code)) ? 'settings' : undefined;
}

function endRun(state: ConsoleState, e: EventEnvelope, status: 'completed' | 'failed' | 'cancelled', text: string, error: string | null = null, fixIn?: SettingsSection | 'settings'): void {
  setRun(state, e.runId, status, error);
  state.pending = state.pending.filter((p) => p.runId !== e.runId);
  if (state.live && (state.live.runId === e.runId || state.live.runId === null)) state.live = null;
  state.liveFloor = e.seq;
  // Calls the run never got to (denied batch, cancel) stop spinning.
  for (const turn of state.turns) {
    if (turn.runId !== e.runId) continue;
    turn.items = turn.items.map((i) => (i.kind === 'tool' && (i.status === 'running' || i.status === 'pending' || i.status === 'waiting') ? { ...i, status: 'error' } : i));
  }
  turnFor(state, e).items.push({ kind: 'end', key: `end-${e.seq}`, status, text, ...(fixIn ? { fixIn } : {}) });
}

/** `ownRun`: false when a sub-agent's event is applied as an ordinary one (see applySubAgentEvent). */
function applyOne(state: ConsoleState, e: EventEnvelope, ownRun = true): void {
  const d = (e.data ?? {}) as Data;
  const sub = ownRun && e.runId ? state.subAgents[e.runId] : undefined;
  if (sub) {
    return applySubAgentEvent(state, e, sub, {
      apply: (event) => applyOne(state, event, false),
      updateTool: (event, toolCallId, patch, name) => updateTool(state, event, toolCallId, patch, name),
      setRun: (runId, status) => setRun(state, runId, status),
    });
  }
  switch (e.type) {
    case 'delegation.started': {
      const { item, refs } = delegationItem(e);
      Object.assign(state.subAgents, refs);
      turnFor(state, e).items.push(item);
      // Parked until its sub-agents end; its next run.started (the resume) says running again.
      setRun(state, e.runId, 'waiting_children');
      return;
    }
    case 'message.user': {
      // Harness reminders are for the model, not something a person typed.
      if (d.synthetic) return;
      turnFor(state, e).items.push({ kind: 'user', key: `user-${e.seq}`, content: str(d.content), seq: e.seq });
      if (e.runId) {
        state.latestRunId = e.runId;
        if (!state.runs[e.runId]) setRun(state, e.runId, 'queued');
      }
      return;
    }
    case 'run.started': {
      const turn = turnFor(state, e);
      if (turn.startSeq === null) turn.startSeq = e.seq;
      setRun(state, e.runId, 'running');
      if (!state.latestRunId) state.latestRunId = e.runId;
      // A resumed segment of the same run keeps its list; another run starts without one.
      if (state.todosRunId !== null && state.todosRunId !== e.runId) {
        state.todos = [];
        state.todosRunId = null;
      }
      return;
    }
    case 'message.assistant': {
      state.live = null;
      state.liveFloor = e.seq;
      const content = strOrNull(d.content);
      const reasoning = strOrNull(d.reasoningContent);
      const turn = turnFor(state, e);
      if ((content && content.trim()) || (reasoning && reasoning.trim())) {
        turn.items.push({ kind: 'assistant', key: `assistant-${e.seq}`, content, reasoning });
      }
      for (const call of (d.toolCalls as ToolCallData[] | undefined) ?? []) {
        updateTool(state, e, call.id, { name: call.name, arguments: call.arguments }, call.name);
      }
      return;
    }
    case 'tool.start':
      updateTool(state, e, str(d.toolCallId), { name: str(d.name), arguments: str(d.arguments), status: 'running', ...(d.editedByUser ? { editedByUser: true } : {}) }, str(d.name));
      return;
    case 'file.changed':
      turnFor(state, e).items.push({
        kind: 'change',
        key: `change-${str(d.changeId)}`,
        changeId: str(d.changeId),
        runId: e.runId,
        change: str(d.kind) as AgentChangeKind,
        path: str(d.path),
        fromPath: strOrNull(d.fromPath),
        added: Number(d.added) || 0,
        removed: Number(d.removed) || 0,
        binary: d.binary === true,
        tooLarge: d.tooLarge === true,
        status: 'applied',
      });
      return;
    case 'file.change.resolved': {
      const ids = new Set((d.changeIds as string[] | undefined) ?? []);
      const status = str(d.status) as AgentChangeStatus;
      for (const turn of state.turns) {
        turn.items = turn.items.map((i) => (i.kind === 'change' && ids.has(i.changeId) ? { ...i, status } : i));
      }
      return;
    }
    case 'tool.end': {
      const found = findTool(state, str(d.toolCallId));
      const denied = found && (found.turn.items[found.index] as ToolItem).status === 'denied';
      updateTool(
        state,
        e,
        str(d.toolCallId),
        {
          status: denied ? 'denied' : d.isError ? 'error' : 'ok',
          result: str(d.result),
          durationMs: typeof d.durationMs === 'number' ? d.durationMs : null,
          ...exitCodeOf(d.data),
        },
        str(d.name),
      );
      return;
    }
    case 'permission.requested': {
      const p: PendingPermission = {
        permissionId: str(d.permissionId),
        runId: e.runId,
        toolCallId: str(d.toolCallId),
        toolName: str(d.toolName),
        input: d.input,
        preview: (d.preview as PermissionPreview | undefined) ?? null,
      };
      state.pending = [...state.pending.filter((x) => x.permissionId !== p.permissionId), p];
      updateTool(state, e, p.toolCallId, { status: 'waiting' }, p.toolName);
      setRun(state, e.runId, 'waiting_permission');
      return;
    }
    case 'permission.resolved': {
      state.pending = state.pending.filter((x) => x.permissionId !== str(d.permissionId));
      updateTool(state, e, str(d.toolCallId), { status: d.behavior === 'deny' ? 'denied' : 'pending' }, str(d.toolName));
      if (!state.pending.some((p) => p.runId === e.runId) && state.runs[e.runId ?? '']?.status === 'waiting_permission') setRun(state, e.runId, 'running');
      return;
    }
    case 'step.plan':
    case 'step.begin':
    case 'step.end':
      state.stepPlan = applyStepEvent(state.stepPlan, e);
      return;
    case 'todos.updated':
      state.todos = (d.todos as Todo[] | undefined) ?? [];
      state.todosRunId = e.runId;
      return;
    case 'preview.detected':
      // A server the agent started serves a page (seed: "open preview"); the URL is the sandbox's own.
      turnFor(state, e).items.push({ kind: 'notice', key: `preview-${e.seq}`, tone: 'info', text: `Preview detected: ${str(d.url)}` });
      return;
    case 'summary.written':
      state.summary = str(d.summary);
      turnFor(state, e).items.push({ kind: 'summary', key: `summary-${e.seq}`, summary: str(d.summary) });
      return;
    case 'usage': {
      const r = (d.request ?? {}) as Partial<Usage>;
      const u = state.usage;
      state.usage = {
        requests: u.requests + 1,
        promptTokens: u.promptTokens + (r.promptTokens ?? 0),
        completionTokens: u.completionTokens + (r.completionTokens ?? 0),
        cacheHitTokens: u.cacheHitTokens + (r.cacheHitTokens ?? 0),
        cacheMissTokens: u.cacheMissTokens + (r.cacheMissTokens ?? 0),
        reasoningTokens: u.reasoningTokens + (r.reasoningTokens ?? 0),
        costUsd: u.costUsd + (typeof d.costUsd === 'number' ? d.costUsd : 0),
      };
      if (typeof d.contextTokens === 'number' && typeof d.contextWindow === 'number' && d.contextWindow > 0) {
        state.context = { tokens: d.contextTokens, window: d.contextWindow };
      }
      return;
    }
    case 'compaction':
      turnFor(state, e).items.push({
        kind: 'notice',
        key: `notice-${e.seq}`,
        tone: 'info',
        text: `Earlier conversation compacted into a summary (${formatTokens(Number(d.tokensBefore))} → ${formatTokens(Number(d.tokensAfter))} tokens).`,
      });
      return;
    case 'error':
      turnFor(state, e).items.push({ kind: 'notice', key: `notice-${e.seq}`, tone: 'info', text: `${str(d.message)} (${str(d.code)})` });
      return;
    case 'run.done':
      endRun(state, e, 'completed', 'Run finished.');
      return;
    case 'run.failed':
      endRun(state, e, 'failed', `Run failed: ${str(d.message)}`, str(d.message), failureFix(d));
      return;
    case 'run.cancelled':
      endRun(state, e, 'cancelled', 'Run cancelled.');
      return;
    default:
      // prompt.guidance and future types carry nothing a person needs to see here.
      return;
  }
}

function exitCodeOf(data: unknown): { exitCode?: number | null } {
  const code = (data as { exitCode?: unknown } | null | undefined)?.exitCode;
  return typeof code === 'number' || code === null ? { exitCode: code } : {};
}

/** Adds a live token delta; stale deltas (their message is already in the log) are dropped. */
export function applyDelta(state: ConsoleState, frame: Pick<DeltaFrame, 'afterSeq' | 'runId' | 'type' | 'data'>): ConsoleState {
  if (frame.afterSeq < state.liveFloor) return state;
  // A sub-agent's text is never shown as a message, not even while it streams.
  if (frame.runId && state.subAgents[frame.runId]) return state;
  const runId = frame.runId ?? state.latestRunId;
  const live = state.live && state.live.afterSeq === frame.afterSeq ? state.live : { runId, afterSeq: frame.afterSeq, text: '', thinking: '' };
  const delta = frame.data?.delta ?? '';
  return {
    ...state,
    live: frame.type === 'thinking.delta' ? { ...live, thinking: live.thinking + delta } : { ...live, text: live.text + delta },
  };
}

/** The runs' turns with the streaming message appended where it belongs. */
export function visibleTurns(state: ConsoleState): Turn[] {
  const live = state.live;
  if (!live || (!live.text && !live.thinking)) return state.turns;
  const item: TranscriptItem = { kind: 'assistant', key: `live-${live.afterSeq}`, content: live.text || null, reasoning: live.thinking || null, streaming: true };
  const index = state.turns.findIndex((t) => t.runId === live.runId);
  if (index < 0) return [...state.turns, { runId: live.runId, startSeq: null, firstSeq: Number.MAX_SAFE_INTEGER, items: [item] }];
  return state.turns.map((t, i) => (i === index ? { ...t, items: [...t.items, item] } : t));
}

/** Changes of a run that a revert would still undo. */
export function undoableChanges(turn: Turn): ChangeItem[] {
  return turn.items.filter((i): i is ChangeItem => i.kind === 'change' && (i.status === 'applied' || i.status === 'accepted'));
}

export function formatTokens(n: number): string {
  if (!Number.isFinite(n)) return '0';
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 10_000) return `${Math.round(n / 1000)}k`;
  if (n >= 1000) return `${(n / 1000).toFixed(1)}k`;
  return String(Math.round(n));
}

/** "~12k / 1.0M tokens, 1.2 %": one decimal below 10 %, so early growth is visible. */
export function formatContextUse(c: ContextUse): string {
  const pct = (c.tokens / c.window) * 100;
  const shown = pct < 10 ? pct.toFixed(1) : String(Math.round(pct));
  return `~${formatTokens(c.tokens)} / ${formatTokens(c.window)} tokens, ${shown} %`;
}

export function cacheHitPercent(u: UsageTotals): number | null {
  const total = u.cacheHitTokens + u.cacheMissTokens;
  return total > 0 ? Math.round((u.cacheHitTokens / total) * 100) : null;
}
