// Shapes of the agent part of the H API as the browser sees them: sessions, runs, permission
// requests and the session event log (libs/sessions/src/session.dto.ts and
// libs/contracts/src/agent-events.ts are the source; dates arrive as ISO strings).

export const PERMISSION_MODES = ['approve', 'bypass', 'skip'] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

export type RunStatus = 'queued' | 'running' | 'waiting_permission' | 'completed' | 'failed' | 'cancelled';
export const ACTIVE_RUN_STATUSES: readonly RunStatus[] = ['queued', 'running', 'waiting_permission'];

export interface SessionUsage {
  requests: number;
  promptTokens: number;
  completionTokens: number;
  cacheHitTokens: number;
  cacheMissTokens: number;
  costUsd: number;
}

export interface AgentSession {
  id: string;
  workspaceId: string;
  teamId: string;
  title: string;
  model: string;
  thinking: boolean;
  permissionMode: PermissionMode;
  lastSeq: number;
  usage: SessionUsage;
  /** The newest run (id and status), for the sessions list's badge. */
  latestRun: { id: string; status: RunStatus } | null;
  createdById: string;
  createdAt: string;
  updatedAt: string;
}

export interface Todo {
  content: string;
  status: 'pending' | 'in_progress' | 'completed' | 'cancelled';
}

export interface Run {
  id: string;
  sessionId: string;
  status: RunStatus;
  /** Place in the team queue while queued (1 = next). */
  position: number | null;
  clientMessageId: string | null;
  error: { code: string; message: string } | null;
  queuedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface EventEnvelope {
  sessionId: string;
  seq: number;
  runId: string | null;
  ts: string;
  type: string;
  data: unknown;
}

export interface EventPage {
  items: EventEnvelope[];
  nextAfter: number;
  hasMore: boolean;
}

/** Ephemeral token deltas: live only, never in the log. */
export interface DeltaFrame {
  sessionId?: string;
  runId?: string | null;
  type: 'text.delta' | 'thinking.delta';
  data: { delta: string };
  afterSeq: number;
}

export interface ToolCallData {
  id: string;
  name: string;
  arguments: string;
}

/** Totals of a run as carried by `usage`, `run.done`, `run.failed` and `run.cancelled`. */
export interface RunUsageData {
  requests: number;
  promptTokens: number;
  completionTokens: number;
  cacheHitTokens: number;
  cacheMissTokens: number;
  reasoningTokens: number;
  cost: number;
}
