// Shared terminals over Socket.IO (`terminal.*`), typed once for the api and the IDE. A terminal
// is a PTY in the workspace's sandbox; every member of the workspace sees every terminal live,
// members and up type into them, viewers watch. Ids come from the sandbox, so any api process can
// attach any terminal. Zod-free on purpose: the browser may import this file's values. The events
// are part of the socket's typed maps (socket-events.ts).
import type { ErrorBody } from './error-codes';
import type { Ack } from './socket-events';

export interface TerminalInfo {
  /** The sandbox's PTY id (a uuid). */
  id: string;
  workspaceId: string;
  title: string;
  /** User id of whoever opened it (for the agent's: the session's user); null when unknown. */
  openedBy: string | null;
  /** Started by the agent with run_in_terminal. */
  agent: boolean;
  /** The agent session that started it. */
  sessionId: string | null;
  /** The command it runs, when it is not a plain shell. */
  command: string | null;
  cols: number;
  rows: number;
  /** ISO time it was opened. */
  createdAt: string;
  /**
   * Its process is gone (it exited, or its sandbox stopped or restarted): what it printed is kept
   * server-side (TERMINAL_HISTORY_MAX_BYTES) and shown read-only on attach; `terminal.close`
   * dismisses it. Absent on a live terminal.
   */
  ended?: TerminalEnded;
}

export interface TerminalEnded {
  /** Null when unknown (the sandbox stopped under it). */
  exitCode: number | null;
  signal: number | null;
  /** ISO time H noticed the end. */
  at: string;
}

/** The tail of each terminal's output kept server-side (Redis), readable after any restart. */
export const TERMINAL_HISTORY_MAX_BYTES = 256 * 1024;
/** How long a terminal's saved output is kept after its last output or its end. */
export const TERMINAL_HISTORY_TTL_MS = 7 * 24 * 3600 * 1000;
/** Ended terminals kept per workspace; the oldest ended one goes first. */
export const TERMINAL_HISTORY_ENDED_MAX = 8;

export interface TerminalListRequest {
  workspaceId: string;
}

export interface TerminalList {
  workspaceId: string;
  terminals: TerminalInfo[];
  /** TERMINALS_PER_WORKSPACE_MAX. */
  max: number;
}

export interface TerminalOpenRequest {
  workspaceId: string;
  cols: number;
  rows: number;
  /** Working directory relative to the workspace root; default the root. */
  cwd?: string;
}

export interface TerminalRef {
  workspaceId: string;
  terminalId: string;
}

export interface TerminalAttachRequest extends TerminalRef {
  /**
   * The `end` of the last output this client wrote: the answer then carries only what came after
   * it (no duplicated output on reconnect), or everything kept with `reset: true` when that much
   * is no longer held.
   */
  after?: number;
}

export interface TerminalAttached {
  terminal: TerminalInfo;
  /** Recent output to write before the live `terminal.output` events that follow. */
  data: string;
  /** The clear the screen first: `data` is the kept scrollback, not a continuation. */
  reset: boolean;
  /** Position after `data` (chars printed in all). */
  end: number;
  /** Pages found in this terminal so far (`terminal.preview`), oldest first, so a reattach shows them too. */
  previews?: string[];
  /** Set for an ended terminal: `data` is its saved history, nothing follows, input is refused. */
  ended?: TerminalEnded;
}

export interface TerminalInputRequest extends TerminalRef {
  /** Keystrokes or pasted text; at most TERMINAL_INPUT_MAX_BYTES (UTF-8). */
  data: string;
}

export interface TerminalRenameRequest extends TerminalRef {
  /** 1 to TERMINAL_TITLE_MAX characters. */
  title: string;
}

export interface TerminalResizeRequest extends TerminalRef {
  cols: number;
  rows: number;
}

export interface TerminalOutputEvent extends TerminalRef {
  data: string;
  /** Position after `data`; send it as `after` when re-attaching. */
  end: number;
}

export interface TerminalExitEvent extends TerminalRef {
  exitCode: number | null;
  signal: number | null;
}

/**
 * `terminal.preview`: a loopback URL with a port printed in a terminal (any terminal: a teammate's
 * `npm run dev` as much as the agent's run_in_terminal) answers a HEAD inside the sandbox with
 * text/html, so the IDE offers it as a preview. Each URL once per terminal, at most
 * TERMINAL_PREVIEWS_MAX per terminal. (run_in_terminal also records its own as `preview.detected`
 * in the session's log, for the console.)
 */
export interface TerminalPreviewEvent extends TerminalRef {
  url: string;
}

/** URLs checked per terminal at most (a program printing endless URLs cannot keep the sandbox busy). */
export const TERMINAL_PREVIEWS_MAX = 16;

export const TERMINAL_CHANGES = ['opened', 'closed', 'renamed'] as const;
export type TerminalChange = (typeof TERMINAL_CHANGES)[number];

/** The workspace's terminals changed: the whole list, and what happened. */
export interface TerminalChangedEvent {
  workspaceId: string;
  terminalId: string;
  change: TerminalChange;
  terminals: TerminalInfo[];
}

/**
 * This socket stopped receiving a terminal's output (SLOW_CONSUMER: re-attach with `after`), or
 * all of a workspace's (`terminalId` absent: SANDBOX_UNAVAILABLE, access lost).
 */
export interface TerminalErrorEvent extends ErrorBody {
  workspaceId: string;
  terminalId?: string;
}

export interface TerminalsServerToClientEvents {
  'terminal.output': (event: TerminalOutputEvent) => void;
  'terminal.exit': (event: TerminalExitEvent) => void;
  'terminal.changed': (event: TerminalChangedEvent) => void;
  'terminal.error': (event: TerminalErrorEvent) => void;
  'terminal.preview': (event: TerminalPreviewEvent) => void;
}

export interface TerminalsClientToServerEvents {
  /** Lists the terminals and subscribes to `terminal.changed`; viewers may; outsiders get NOT_FOUND. */
  'terminal.list': (request: TerminalListRequest, ack: (answer: Ack<TerminalList>) => void) => void;
  /** Members and up; the opener is attached already. */
  'terminal.open': (request: TerminalOpenRequest, ack: (answer: Ack<TerminalAttached>) => void) => void;
  /** Viewers may; idempotent (the same PTY, never a second shell). */
  'terminal.attach': (request: TerminalAttachRequest, ack: (answer: Ack<TerminalAttached>) => void) => void;
  'terminal.detach': (request: TerminalRef, ack: (answer: Ack<TerminalRef>) => void) => void;
  'terminal.input': (request: TerminalInputRequest, ack: (answer: Ack<null>) => void) => void;
  'terminal.resize': (request: TerminalResizeRequest, ack: (answer: Ack<null>) => void) => void;
  'terminal.close': (request: TerminalRef, ack: (answer: Ack<TerminalRef>) => void) => void;
  /** Members and up; everyone hears `terminal.changed` renamed. */
  'terminal.rename': (request: TerminalRenameRequest, ack: (answer: Ack<TerminalInfo>) => void) => void;
}

/** Columns and rows a terminal may have. */
export const TERMINAL_MAX_COLS = 1000;
export const TERMINAL_MAX_ROWS = 1000;
export const TERMINAL_TITLE_MAX = 80;
