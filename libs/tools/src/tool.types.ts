import type { AgentTodo, DelegationOutcome, Workspace } from '@h/contracts';
import type { z } from 'zod';
import type { MemoryPort } from './memory-port';
import type { FileChangeCapture, FileChangeCaptureOptions } from './file-changes/file-change-capture';
import type { OutputStore, StoredOutputRef } from './output.store';
import type { BrowserHost } from './browser-host';
import type { GraphHost } from './graph-host';
import type { TerminalHost } from './terminal-host';

/** Events a tool may add to the run's log while it runs (validated on append like every event). */
export type ToolEvent = { type: 'preview.detected'; data: { url: string; terminalId: string; toolCallId?: string } };

/** What a permission layer asks about: reads run freely; write, delete and command may need approval. */
export type ToolCategory = 'read' | 'write' | 'delete' | 'command';

/** The model-facing part of a tool: exactly what is sent in `tools`. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ProblemReport {
  errorCount: number;
  warningCount: number;
  /** What produced it: "lsp" or the fallback build command. */
  source: string;
  text: string;
}

/** Per-run state the control tools read and write (the summary and problem locks live here). */
export interface RunToolState {
  todos: AgentTodo[];
  summary: string | null;
  /** The last read_problems report of this run; null until it runs. */
  problems: ProblemReport | null;
  completed: boolean;
}

export interface ToolContext {
  workspace: Workspace;
  signal: AbortSignal;
  outputs: OutputStore;
  /** The tool call being executed (stored with its output). */
  callId?: string;
  state: RunToolState;
  /** Diagnostics from language servers, when a sandbox provides them; null means "none cached". */
  diagnostics?: () => Promise<ProblemReport | null>;
  /** Shared terminals in the workspace (run_in_terminal, kill_terminal); absent where there are none. */
  terminals?: TerminalHost;
  /** The sandbox's browser (the browser tools); absent where there is none. */
  browser?: BrowserHost;
  /** The sandbox's knowledge graph (read_graph); absent where there is none. */
  graph?: GraphHost;
  /** The run's persistent memory (remember, recall, forget); absent where nothing stores it. */
  memory?: MemoryPort;
  /** Appends an event to the run's log (e.g. a detected preview URL). */
  emit?: (event: ToolEvent) => Promise<void>;
  /**
   * The tools offered to the model (set by ToolRegistry.run): a refusal names only these. Absent
   * means "only this tool" as far as a refusal may assume.
   */
  offered?: ReadonlySet<string>;
  /** Set when the caller records file changes for review: the write tools then capture before/after. */
  changes?: FileChangeCaptureOptions;
  /**
   * The sub-agents a call delegated to (the worker starts them before the call runs, see
   * delegate-task.tool.ts): their outcomes once all ended, null when the call started none.
   */
  delegation?: { outcomes(callId: string): Promise<DelegationOutcome[] | null> };
  /** Who is calling, for tools that look at the session log (the session-query tools); absent outside a run. */
  caller?: SessionQueryCaller;
  /** The session-query tools' port (libs/session-search implements it; the worker injects it). */
  sessionQueries?: SessionQueryPort;
}

/** The calling run, as the session-query tools need it: what they may see and what they leave out. */
export interface SessionQueryCaller {
  workspaceId: string;
  sessionId: string;
  runId: string;
}

/**
 * Session search over the event log (seed dsh: session_search, session_event_search, session_trace,
 * session_event_trace, session_event_read). Every method answers plain text for the model, scoped to
 * the caller's workspace; `callId` is the call performing the search (excluded with its step).
 */
export interface SessionQueryPort {
  searchSessions(caller: SessionQueryCaller, query: string, signal: AbortSignal): Promise<string>;
  searchEvents(caller: SessionQueryCaller & { callId: string | null }, input: { query: string; sessionId: string | null }, signal: AbortSignal): Promise<string>;
  trace(caller: SessionQueryCaller, sessionId: string, signal: AbortSignal): Promise<string>;
  eventTrace(caller: SessionQueryCaller, sessionId: string, seq: number, signal: AbortSignal): Promise<string>;
  readEvent(caller: SessionQueryCaller, sessionId: string, seq: number, signal: AbortSignal): Promise<string>;
}

/** Whether a tool may be named to the model (a refusal must never point at a tool it lacks). */
export function offers(ctx: Pick<ToolContext, 'offered'>, tool: string): boolean {
  return ctx.offered?.has(tool) ?? false;
}

export interface ToolResult {
  /** What the model sees. */
  text: string;
  isError?: boolean;
  /** Structured result for the UI and events (never sent to the model). */
  data?: unknown;
  /** Set when `text` is a distillation of a longer output kept in the OutputStore (`[cmd #id]`). */
  output?: StoredOutputRef;
  /** Files the call changed, before/after (only when ToolContext.changes asked for them). */
  changes?: FileChangeCapture[];
  /** An image the model sees with the result (browser_screenshot), kept in the tool.end event. */
  image?: ToolImage;
}

export interface ToolImage {
  mimeType: 'image/png';
  /** Base64. */
  data: string;
}

export interface AgentTool<I = any> {
  readonly name: string;
  readonly description: string;
  readonly category: ToolCategory;
  readonly parameters: Record<string, unknown>;
  /**
   * A tool's own approval rule (external MCP tools: their server's). `allow` runs it without asking
   * whatever the category; absent, the category and the session's permission mode decide.
   */
  readonly approval?: 'ask' | 'allow';
  readonly input: z.ZodType<I>;
  execute(input: I, ctx: ToolContext): Promise<ToolResult>;
}

/** A refusal or failure the model should read and act on (returned as an error tool result). */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}

export function newRunToolState(todos: AgentTodo[] = []): RunToolState {
  return { todos, summary: null, problems: null, completed: false };
}
