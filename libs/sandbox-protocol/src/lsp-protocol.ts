// Language-server methods of the sandbox protocol (served by apps/sandboxd, called by the host).
// sandboxd starts a language's server on the first file of that language, stops it when idle, and
// keeps the filtered diagnostics of every file (the seed's pipeline) until that server exits. Paths
// as everywhere in the protocol: relative to the workspace root or absolute inside it.
import type { FileDiagnostics, LspCompletionList, LspHover, LspLocation, LspServerStatus } from '@h/contracts';

export interface LspPositionParams {
  path: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
}

export interface LspDiagnosticsParams {
  /**
   * Files to check first: each is opened from disk in its language's server (starting it if need
   * be) and the call waits until their diagnostics have settled or `waitMs` has passed.
   */
  paths?: string[];
  /** Default 0: answer with the cache as it is. */
  waitMs?: number;
}
export interface LspDiagnosticsResult {
  /** Every file with diagnostics known now (only those of `paths` when given). */
  files: FileDiagnostics[];
  servers: LspServerStatus[];
  /** Some of `paths` had not settled within `waitMs`. */
  timedOut: boolean;
}

/** Notification `lsp.diagnostics`, sent to every connection: these files' diagnostics now. */
export interface LspDiagnosticsNotification {
  files: FileDiagnostics[];
  /** A server exited and its files' diagnostics were dropped. */
  reset?: boolean;
}

/** Notification `lsp.status`, sent to every connection when a server starts, stops or fails. */
export interface LspStatusNotification {
  servers: LspServerStatus[];
}

export interface LspMethods {
  /** Opens or updates a file from an editor buffer (`text`) or from disk (no `text`). */
  'lsp.sync': [{ path: string; text?: string }, { language: string | null }];
  'lsp.close': [{ path: string }, null];
  'lsp.diagnostics': [LspDiagnosticsParams, LspDiagnosticsResult];
  'lsp.completion': [LspPositionParams, LspCompletionList];
  'lsp.hover': [LspPositionParams, LspHover | null];
  'lsp.definition': [LspPositionParams, { locations: LspLocation[] }];
  'lsp.status': [Record<string, never>, { servers: LspServerStatus[] }];
}
