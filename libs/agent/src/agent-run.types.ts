// The agent loop's public surface: what a caller passes to runAgent and gets back (agent-run.ts).
import type { AgentEvent, AgentChangeSummary, Usage, Workspace } from '@h/contracts';
import type { ModelInfo, ModelProvider, ToolCall } from '@h/llm';
import type { FileChangeCapture, OutputStore, ToolCategory, ToolContext, ToolRegistry } from '@h/tools';
import type { CompactionSettings } from './compaction';
import type { Conversation } from './conversation';
import type { WorkspaceContextOptions } from './workspace-context/workspace-context';

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
  | { behavior: 'ask' }
  /**
   * Pause before the call, like `ask`, because it waits for something other than a person: the
   * sub-agents it delegates to (the caller starts them and resumes the run when they end).
   */
  | { behavior: 'wait' };

export interface AuthorizationRequest {
  call: ToolCall;
  category: ToolCategory;
  /** The tool's own rule when it has one (an external MCP server's ask/allow). */
  approval?: 'ask' | 'allow';
}

export interface AgentRunOptions {
  provider: ModelProvider;
  model: string;
  /**
   * The model's window, price and thinking support when it is not the catalog's (a team's own
   * provider lists its models); compaction, cost and thinking follow it. Default: getModelInfo(model).
   */
  modelInfo?: ModelInfo;
  thinking?: boolean;
  workspace: Workspace;
  tools?: ToolRegistry;
  /** The session so far, from `rebuildConversation(events)`; a new one when absent. */
  conversation?: Conversation;
  /** The new user message. Omit when the caller already appended `message.user` to the log and the conversation. */
  userMessage?: string;
  /**
   * Instructions for this run that go after the user's message as `prompt.guidance` (after the
   * cached prefix), before the first request: e.g. step-by-step mode's planning rules. Pass it
   * only when the conversation does not carry it yet (a resumed run has it in its log).
   */
  guidance?: string;
  signal?: AbortSignal;
  /** Receives every event in order; awaited, so persistence keeps order. */
  onEvent: (event: AgentEvent) => void | Promise<void>;
  maxSteps?: number;
  maxTokens?: number;
  compaction?: Partial<CompactionSettings>;
  /**
   * Instruction files and the file tree, told after the cached prefix (workspace-context/): at a
   * run's start what changed since the model last saw them, and during the run the instructions
   * of directories it reaches. Absent: none.
   */
  workspaceContext?: WorkspaceContextOptions;
  /**
   * Remembered facts selected for this run (libs/memory, once per run by the worker): told as
   * `prompt.guidance` after the workspace context at the run's first segment, never in the system
   * prompt, so the cached prefix stays byte-identical. `ids` (id@version) let later runs skip them.
   */
  memory?: { content: string; ids: string[] };
  /** remember / recall / forget, when the caller stores memory. */
  memoryStore?: ToolContext['memory'];
  /** Language-server diagnostics for read_problems, when a sandbox has them. */
  diagnostics?: ToolContext['diagnostics'];
  /** The workspace's shared terminals for run_in_terminal / kill_terminal, when a sandbox has them. */
  terminals?: ToolContext['terminals'];
  /** The sandbox's browser for the browser tools (browser profile, frontend-specialist). */
  browser?: ToolContext['browser'];
  /** The sandbox's knowledge graph (read_graph). */
  graph?: ToolContext['graph'];
  /** Extra HTTP headers per model request, for harnesses (tests, benchmarks); the worker sends none. */
  requestHeaders?: Record<string, string>;
  onStepTiming?: (timing: StepTiming) => void;
  /**
   * Asked before every model request: notes about the run's changes a person rejected or reverted
   * since the last ask (the worker reads them from the session's log). They go after the cached
   * prefix as `prompt.guidance` with their change ids, so the very next request carries them.
   */
  reviewNotes?: () => Promise<{ changeIds: string[]; text: string }[]>;
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
  /**
   * A sub-agent's own instructions (its profile, libs/agent profiles.ts): they open its system
   * prompt, and the prompt's chunks are the always-on ones whatever the task says, so every
   * delegation of one profile starts with the same bytes (chunks the task triggers come as guidance).
   */
  profilePrompt?: string;
  /** The outcomes of sub-agents a call delegated to (delegate_task, delegate_parallel), for the worker's runs. */
  delegation?: ToolContext['delegation'];
  /** The calling run and the session-query port (session_search and co.), for the worker's runs. */
  caller?: ToolContext['caller'];
  sessionQueries?: ToolContext['sessionQueries'];
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
  /** The call waiting for a permission decision (or for sub-agents) when status is 'paused'. */
  pendingCall?: ToolCall;
  /** What the paused call waits for: a person's decision, or the sub-agents it delegates to. */
  waitingFor?: 'permission' | 'delegation';
}

export interface FileChangeRecorder {
  /** Largest text kept per side (FILE_CHANGE_MAX_BYTES). */
  maxBytes: number;
  /** Stores the changes of one call; answers what the log says about each, in order. */
  record(toolCallId: string, changes: FileChangeCapture[]): Promise<AgentChangeSummary[]>;
}
