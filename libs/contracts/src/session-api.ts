// The agent part of the H API as it travels: sessions, runs, permission requests, the event log's
// pages and live frames. Dates are ISO strings on the wire. The server's DTO classes (libs/sessions
// session.dto.ts) implement these, so a field that drifts is a compile error on both sides; the web
// imports them type-only. Zod-free: the browser may import the constants.
// `TDate` is `string` on the wire and for the web; the server's DTOs, which hold Date objects until
// JSON turns them into ISO strings, implement the `<Date>` form.
// `Usage` is the one usage shape (agent-events.ts `usageSchema`): runs, sessions and team usage report it.
import type { EventEnvelope, Usage } from './agent-events';

export const PERMISSION_MODES = ['approve', 'bypass', 'skip'] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

/**
 * What runs a session's turns, fixed when the session is created: `h`, H's own agent loop (DeepSeek
 * or another OpenAI-compatible model), or `claude-code`, the Claude Code CLI inside the workspace's
 * sandbox (the team's Anthropic key, through H's model gateway on the host).
 */
export const SESSION_ENGINES = ['h', 'claude-code'] as const;
export type SessionEngine = (typeof SESSION_ENGINES)[number];

/**
 * `waiting_children`: the run delegated work to sub-agents (child runs, agent-profiles.ts) and is
 * parked without a worker until the last of them ends; it then goes back in line and resumes.
 */
export const RUN_STATUSES = ['queued', 'running', 'waiting_permission', 'waiting_children', 'completed', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
/** A run in one of these still holds its session (and a place in the team's queue). */
export const ACTIVE_RUN_STATUSES: readonly RunStatus[] = ['queued', 'running', 'waiting_permission', 'waiting_children'];
export const FINISHED_RUN_STATUSES: readonly RunStatus[] = ['completed', 'failed', 'cancelled'];

export const TODO_STATUSES = ['pending', 'in_progress', 'completed', 'cancelled'] as const;
export type TodoStatus = (typeof TODO_STATUSES)[number];

/**
 * Step-by-step mode (seed "IDE-Driven Step-by-Step Execution"): the run first writes a plan with
 * only write_todos, the server validates and locks it (`step.plan`), then each step runs as one
 * isolated code-writer sub-agent (`step.begin` / `step.end`) and the run ends with all step results.
 * A step's status as the console shows it; `skipped`: the run was stopped before the step ran.
 */
export const STEP_STATUSES = ['pending', 'in_progress', 'completed', 'failed', 'skipped'] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];
/** How a step ended (`step.end`). */
export const STEP_END_STATUSES = ['completed', 'failed', 'skipped'] as const satisfies readonly StepStatus[];
export type StepEndStatus = (typeof STEP_END_STATUSES)[number];
/** Most steps a locked plan may have; a longer one is sent back to the model to merge steps. */
export const STEP_PLAN_MAX_STEPS = 20;
/** Attempts the model gets to write an acceptable plan before the run fails with STEP_PLAN_INVALID. */
export const STEP_PLAN_MAX_ATTEMPTS = 3;

export const PERMISSION_BEHAVIORS = ['allow', 'deny'] as const;
export type PermissionBehavior = (typeof PERMISSION_BEHAVIORS)[number];
export const PERMISSION_STATUSES = ['pending', 'allowed', 'denied', 'cancelled'] as const;
export type PermissionStatus = (typeof PERMISSION_STATUSES)[number];

export interface Session<TDate = string> {
  id: string;
  workspaceId: string;
  teamId: string;
  title: string;
  /** The team's custom provider (libs/contracts providers.ts) the model comes from; null: DeepSeek. */
  providerId: string | null;
  /** What runs the session's turns (see SESSION_ENGINES). */
  engine: SessionEngine;
  model: string;
  thinking: boolean;
  permissionMode: PermissionMode;
  /** Runs of this session go step by step unless a message says otherwise (see STEP_STATUSES). */
  stepMode: boolean;
  /** Step limit of this session; null: the instance default. */
  maxSteps: number | null;
  /** Seq of the newest event. */
  lastSeq: number;
  usage: Usage;
  /** The newest run (id and status), for the sessions list's badge. */
  latestRun: { id: string; status: RunStatus } | null;
  createdById: string;
  createdAt: TDate;
  updatedAt: TDate;
}

export interface Todo {
  content: string;
  status: TodoStatus;
}

export interface RunError {
  code: string;
  message: string;
}

export interface Run<TDate = string> {
  id: string;
  sessionId: string;
  status: RunStatus;
  /** Place in the team queue while queued (1 = next). */
  position: number | null;
  clientMessageId: string | null;
  error: RunError | null;
  usage: Usage;
  userId: string;
  queuedAt: TDate;
  startedAt: TDate | null;
  finishedAt: TDate | null;
  cancelRequestedAt: TDate | null;
  /** A sub-agent run: the run that delegated it, the tool call it answers, its profile (agent-profiles.ts); null otherwise. */
  parentRunId: string | null;
  parentToolCallId: string | null;
  profile: string | null;
}

export interface Permission<TDate = string> {
  id: string;
  sessionId: string;
  runId: string;
  toolCallId: string;
  toolName: string;
  input: unknown;
  status: PermissionStatus;
  decidedById: string | null;
  createdAt: TDate;
  decidedAt: TDate | null;
}

export interface PermissionDecision {
  behavior: PermissionBehavior;
  /** Replacement tool input (allow only). */
  updatedInput?: Record<string, unknown>;
  /** Told to the agent with the decision. */
  message?: string;
}

export interface EventPage {
  items: EventEnvelope[];
  /** Pass as ?after= to read on. */
  nextAfter: number;
  hasMore: boolean;
}

/** Ephemeral token deltas: published live, never in the log. */
export interface DeltaFrame {
  sessionId: string;
  runId: string | null;
  /** The seq of the newest persisted event when this frame was sent. */
  afterSeq: number;
  ts: string;
  type: 'text.delta' | 'thinking.delta';
  data: { delta: string };
}

export interface SessionState {
  todos: Todo[];
  summary: string | null;
  usage: Usage;
  /** The run in progress or waiting, if any. */
  activeRunId: string | null;
  lastSeq: number;
}

export interface TeamUsage extends Usage {
  /** Calendar month (UTC), e.g. 2026-11. */
  month: string;
  runs: number;
}
