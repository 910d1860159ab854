// The agent loop's public surface: what a caller passes to runAgent and gets back (agent-run.ts).
import type { AgentEvent, AgentChangeSummary, Usage, Workspace } from '@h/contracts';
import type { ModelProvider, ToolCall } from '@h/llm';
import type { FileChangeCapture, OutputStore, ToolCategory, ToolContext, ToolRegistry } from '@h/tools';
import type { CompactionSettings } from './compaction';
import type { Conversation } from './conversation';

export interface StepTiming {
  step: number;
  totalMs: number;
  modelMs: number;
  toolMs: number;
  sinkMs: number;
  /** totalMs minus model, tool and event-sink time: what the engine itself costs. */
  engineMs: number;
}

/**
 * The approval hook. `ask` pauses the run before the call (status 'paused', no terminal event):
 * the caller records the request, and later resumes with `rebuildConversation(events,
 * { keepOpenCalls: true })` and no userMessage; the open calls then run first, asking again.
 */
export type ToolAuthorization =
  | { behavior: 'allow'; updatedArguments?: string }
  | { behavior: 'deny'; message?: string }
  | { behavior: 'ask' };

export interface AuthorizationRequest {
  call: ToolCall;
  category: ToolCategory;
}

export interface AgentRunOptions {
  provider: ModelProvider;
  model: string;
  thinking?: boolean;
  workspace: Workspace;
  tools?: ToolRegistry;
  /** The session so far, from `rebuildConversation(events)`; a new one when absent. */
  conversation?: Conversation;
  /** The new user message. Omit when the caller already appended `message.user` to the log and the conversation. */
  userMessage?: string;
  signal?: AbortSignal;
  /** Receives every event in order; awaited, so persistence keeps order. */
  onEvent: (event: AgentEvent) => void | Promise<void>;
  maxSteps?: number;
  maxTokens?: number;
  compaction?: Partial<CompactionSettings>;
  /** Language-server diagnostics for read_problems, when a sandbox has them. */
  diagnostics?: ToolContext['diagnostics'];
  /** The workspace's shared terminals for run_in_terminal / kill_terminal, when a sandbox has them. */
  terminals?: ToolContext['terminals'];
  /** Extra HTTP headers per model request, for harnesses (tests, benchmarks); the worker sends none. */
  requestHeaders?: Record<string, string>;
  onStepTiming?: (timing: StepTiming) => void;
  /**
   * Where full outputs behind `[cmd #N]` are kept (the worker: Postgres, per session). Absent: an
   * in-memory store, which does not outlive this run.
   */
  outputs?: OutputStore;
  /**
   * Where the file changes of write/edit/rename/delete calls go for review (the worker: Postgres).
   * Each recorded change becomes a `file.changed` event after the call's tool.end. Absent: the
   * tools capture nothing.
   */
  fileChanges?: FileChangeRecorder;
  /** Asked before every known tool runs (see ToolAuthorization); absent means allow all. */
  authorize?: (request: AuthorizationRequest) => ToolAuthorization | Promise<ToolAuthorization>;
}

export type AgentRunStatus = 'done' | 'failed' | 'cancelled' | 'paused';

export interface AgentRunResult {
  status: AgentRunStatus;
  summary: string | null;
  reply: string | null;
  error?: { code: string; message: string };
  usage: Usage;
  steps: number;
  conversation: Conversation;
  /** The call waiting for a permission decision when status is 'paused'. */
  pendingCall?: ToolCall;
}

export interface FileChangeRecorder {
  /** Largest text kept per side (FILE_CHANGE_MAX_BYTES). */
  maxBytes: number;
  /** Stores the changes of one call; answers what the log says about each, in order. */
  record(toolCallId: string, changes: FileChangeCapture[]): Promise<AgentChangeSummary[]>;
}
