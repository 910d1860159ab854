// Language intelligence over Socket.IO (`diagnostics.*`, `lsp.*`), typed once for the api and the
// IDE. Language servers run in the workspace's sandbox (sandboxd hosts them, one per language,
// started on demand); their diagnostics are cached there per workspace, so every member's editor,
// the Problems panel and the agent's read_problems see the same ones. Zod-free on purpose: the
// browser imports this file's values. Part of the socket's typed maps (socket-events.ts).
import type { Ack } from './socket-events';

/** Only Error and Warning reach users (the seed's pipeline drops Info and Hint). */
export type DiagnosticSeverity = 'error' | 'warning';

/** 1-based lines and columns, as editors show them (Monaco markers take these unchanged); end exclusive. */
export interface TextRange {
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}

export interface Diagnostic extends TextRange {
  severity: DiagnosticSeverity;
  message: string;
  /** The server's name for itself ("typescript", "Pyright"). */
  source?: string;
  code?: string;
}

export interface FileDiagnostics {
  /** Relative to the workspace root, '/'-separated. */
  path: string;
  /** The language whose server published them ("typescript", "python"). */
  language: string;
  /** At most DIAGNOSTICS_MAX_PER_FILE, errors first. Empty: the file's problems were cleared. */
  diagnostics: Diagnostic[];
}

/** Per file, so one legacy file cannot flood the editor (the seed's cap). */
export const DIAGNOSTICS_MAX_PER_FILE = 200;

export type LspServerState = 'starting' | 'running' | 'stopped' | 'failed';
export interface LspServerStatus {
  language: string;
  /** The binary it runs ("typescript-language-server"). */
  command: string;
  state: LspServerState;
}

export interface DiagnosticsSnapshot {
  workspaceId: string;
  files: FileDiagnostics[];
  servers: LspServerStatus[];
}

/** Pushed to everyone subscribed to the workspace: these files' diagnostics now (replace, not merge). */
export interface DiagnosticsChangedEvent {
  workspaceId: string;
  files: FileDiagnostics[];
  /** The cache was cleared (a server exited, the sandbox restarted): drop what you show and refetch. */
  reset?: boolean;
}

export interface LspPosition {
  workspaceId: string;
  path: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
}

/** An editor's buffer, sent (debounced) as the user types; members and up only. */
export interface LspSyncRequest {
  workspaceId: string;
  path: string;
  text: string;
}

export interface LspCompletionItem {
  label: string;
  /** LSP CompletionItemKind (1 Text … 25 TypeParameter). */
  kind?: number;
  detail?: string;
  /** Markdown. */
  documentation?: string;
  insertText: string;
  snippet?: boolean;
  /** The text the item replaces; absent: the word at the position. */
  range?: TextRange;
}

export interface LspCompletionList {
  items: LspCompletionItem[];
  incomplete: boolean;
}

export interface LspHover {
  /** Markdown. */
  contents: string;
  range?: TextRange;
}

export interface LspLocation {
  /** Relative to the workspace root; locations outside it (library typings) are dropped. */
  path: string;
  range: TextRange;
}

export interface DiagnosticsServerToClientEvents {
  'diagnostics.changed': (event: DiagnosticsChangedEvent) => void;
}

export interface DiagnosticsClientToServerEvents {
  /** Viewers may watch; an outsider gets NOT_FOUND. Answers with everything known now. */
  'diagnostics.subscribe': (request: { workspaceId: string }, ack: (answer: Ack<DiagnosticsSnapshot>) => void) => void;
  'diagnostics.unsubscribe': (request: { workspaceId: string }, ack: (answer: Ack<{ workspaceId: string }>) => void) => void;
  /** Opens (or updates) the file in its language's server; `language: null` when none serves it. */
  'lsp.sync': (request: LspSyncRequest, ack: (answer: Ack<{ language: string | null }>) => void) => void;
  /** The editor closed the file: the server goes back to what is on disk. */
  'lsp.close': (request: { workspaceId: string; path: string }, ack: (answer: Ack<null>) => void) => void;
  'lsp.completion': (request: LspPosition, ack: (answer: Ack<LspCompletionList>) => void) => void;
  'lsp.hover': (request: LspPosition, ack: (answer: Ack<LspHover | null>) => void) => void;
  'lsp.definition': (request: LspPosition, ack: (answer: Ack<{ locations: LspLocation[] }>) => void) => void;
}
