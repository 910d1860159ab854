export { LocalWorkspace, type LocalWorkspaceOptions } from './local-workspace';
export {
  ToolError,
  newRunToolState,
  type AgentTool,
  type ProblemReport,
  type RunToolState,
  type ToolCategory,
  type ToolContext,
  type ToolEvent,
  type ToolResult,
  type ToolSpec,
  type SessionQueryCaller,
  type SessionQueryPort,
} from './tool.types';
export { ToolRegistry, CORE_TOOLS } from './tool.registry';
export { capUtf8, DEFAULT_OUTPUT_MAX_BYTES, MemoryOutputStore, type NewOutput, type OutputStore, type StoredOutput, type StoredOutputRef } from './output.store';
export { distillOutput, stripAnsi, type Distilled, type DistillOptions } from './distill';
export { isSecretPath } from './secret-paths';
export { longRunningReason } from './command-policy';
export { validateSummary, parseSections, SUMMARY_SECTIONS, TODO_SECTION } from './summary-validator';
export { detectBuildCheck, type BuildCheck } from './build-check';
export { formatProblems, lspProblems, LSP_PROBLEMS_WAIT_MS, sanitizeFileDiagnostics, type LspProblemsSource } from './lsp-problems';
export { p, params, type Param, type Params } from './tool-params';
export { processAlive, waitForCondition } from './testing/process-helpers';
export {
  lineCounts,
  MISSING_SIDE,
  readSide,
  textSide,
  workspaceRelative,
  type FileChangeCapture,
  type FileChangeCaptureOptions,
} from './file-changes/file-change-capture';
export type { AgentTerminal, RunningTerminal, TerminalHost } from './terminal-host';
export { detectLoopbackUrls, keyLines, servesHtml, type SandboxProbe } from './terminal-watch';
export { DELEGATE_TOOLS, delegateTaskTool, delegateParallelTool, delegationRequests, formatOutcome, type DelegationRequest } from './tools/delegate.tools';
export type { BrowserHost } from './browser-host';
export type { GraphHost } from './graph-host';
export { readGraphTool, READ_GRAPH_MAX_CHARS } from './tools/read-graph.tool';
export type { ToolImage } from './tool.types';
export { BROWSER_AGENT_TOOLS } from './tools/browser/browser.tools';
export type { MemoryPort, RecalledMemory, RememberOutcome, RememberRequest } from './memory-port';
export { MEMORY_TOOLS, rememberTool, recallTool, forgetTool } from './tools/memory.tools';
export { SESSION_QUERY_TOOLS } from './tools/session-query.tools';
