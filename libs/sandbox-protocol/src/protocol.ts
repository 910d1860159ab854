// The sandbox protocol: JSON-RPC 2.0 methods served by sandboxd (apps/sandboxd) and called by the
// host client (libs/sandbox). One JSON object per line. Paths are relative to the workspace root or
// absolute inside it ("/workspace/..."); anything resolving outside is refused with
// data.code = PATH_OUTSIDE_WORKSPACE.
import type {
  DirEntry,
  ExecResult,
  FileStat,
  FileType,
  GrepMatch,
  WorkspaceErrorCode,
} from '@h/contracts';
import type { BrowserMethods } from './browser-protocol';
import type { GraphMethods } from './graph-protocol';
import type { LspMethods } from './lsp-protocol';

export const PROTOCOL_VERSION = 1;
/** Where sandboxd listens inside the container; the bridge connects here. */
export const DEFAULT_SOCKET_PATH = '/run/sandboxd/sandboxd.sock';
/** The root shown to users and accepted as an absolute prefix. */
export const WORKSPACE_ROOT = '/workspace';

/** Error codes carried in `error.data.code`: the workspace codes plus protocol-level ones. */
export type SandboxErrorCode =
  | WorkspaceErrorCode
  | 'INVALID_ARGUMENT'
  | 'CANCELLED'
  | 'NO_SUCH_PTY'
  /** `pty.open` with `maxCount` found that many terminals running already. */
  | 'TOO_MANY_PTYS'
  /** A conditional `fs.write` found other content than `ifSha256` (or a file where `ifSha256: null`). */
  | 'EDIT_CONFLICT';

export interface HealthResult {
  ok: true;
  protocol: number;
  version: string;
  pid: number;
  uid: number;
  uptimeMs: number;
  root: string;
  ptys: number;
  connections: number;
  rssBytes: number;
  /** Since the last request (health excluded), keystroke or terminal output, over all connections. */
  idleMs: number;
  /** Requests being served right now (health excluded). */
  inFlight: number;
}

export interface FsReadParams {
  path: string;
  /** 'utf8' (default) or 'base64' for binary content. */
  encoding?: 'utf8' | 'base64';
  /** Refuse with TOO_LARGE above this many bytes (default 50 MiB). */
  maxBytes?: number;
}
export interface FsReadResult {
  content: string;
  encoding: 'utf8' | 'base64';
  size: number;
}

export interface FsWriteParams {
  path: string;
  content: string;
  encoding?: 'utf8' | 'base64';
  /** Create missing parent directories (default true). */
  mkdirs?: boolean;
  /**
   * Write only if the file's current content has this SHA-256 (hex); `null`: only if no file is
   * there. Checked and written under a per-path lock, so two conditional writers cannot both win.
   * A mismatch is `EDIT_CONFLICT`.
   */
  ifSha256?: string | null;
}
export interface FsWriteResult {
  /** SHA-256 (hex) of what was written: the file's ETag. */
  sha256: string;
  size: number;
  /** No file was there before. */
  created: boolean;
}

export interface FsListParams {
  path: string;
  recursive?: boolean;
  maxEntries?: number;
}
export interface FsListResult {
  entries: DirEntry[];
  truncated: boolean;
}

export interface FsFindParams {
  /** A glob ("*.ts", "src/**\/*.test.ts") or, without glob characters, a substring of the name. */
  pattern: string;
  path?: string;
  maxResults?: number;
}
export interface FsFindResult {
  paths: string[];
  truncated: boolean;
}

export interface FsGrepParams {
  pattern: string;
  path?: string;
  glob?: string;
  ignoreCase?: boolean;
  fixedString?: boolean;
  maxResults?: number;
}
export interface FsGrepResult {
  matches: GrepMatch[];
  truncated: boolean;
}

export interface ExecParams {
  /** Run with `sh -c`; or give `argv` to run a program without a shell. */
  command?: string;
  argv?: string[];
  cwd?: string;
  /** Added to the sanitized base environment (PATH, HOME, LANG, ...); never the host's. */
  env?: Record<string, string>;
  timeoutMs?: number;
  maxOutputBytes?: number;
  stdin?: string;
}
/** What `exec.run` answers: the engine's own result type, so the two cannot drift. */
export type { ExecResult };

export interface PtyOpenParams {
  cols?: number;
  rows?: number;
  cwd?: string;
  env?: Record<string, string>;
  /** Default: bash as a login-less interactive shell. */
  command?: string;
  args?: string[];
  /** Keep running when the opening connection goes away, so another can `pty.attach` (default false). */
  keepAlive?: boolean;
  /** Who and what the terminal is for, shown to every host that lists it (strings clipped to 256 chars). */
  meta?: PtyMeta;
  /** Refuse (TOO_MANY_PTYS) when this many terminals run already: the check and the open are one step. */
  maxCount?: number;
}
/** A terminal's labels, kept by sandboxd so every api process and worker sees the same ones. */
export interface PtyMeta {
  title?: string;
  /** The user id of whoever opened it (the agent's runs name the session's user). */
  openedBy?: string;
  /** Started by the agent (run_in_terminal). */
  agent?: boolean;
  /** The agent session that started it. */
  sessionId?: string;
  /** The command it runs, when it is not a plain shell. */
  command?: string;
}
export interface PtyOpenResult {
  ptyId: string;
  pid: number;
}
export interface PtyAttachResult {
  /** Recent output (bounded), so a re-attaching terminal can redraw. */
  scrollback: string;
  /** How many chars the terminal printed in all, up to the end of `scrollback` (see PtyOutputNotification.end). */
  end?: number;
}
/** A running terminal, so a host that reconnects (api restart) can find kept-alive ones again. */
export interface PtyInfo {
  ptyId: string;
  pid: number;
  cols: number;
  rows: number;
  keepAlive: boolean;
  /** Connections currently attached. */
  attached: number;
  meta?: PtyMeta;
  /** Epoch ms. */
  createdAt?: number;
}
/** Notification `pty.output`. Acknowledge with `pty.ack {ptyId, bytes}` once consumed. */
export interface PtyOutputNotification {
  ptyId: string;
  data: string;
  /**
   * Chars printed in all up to the end of `data`: a host that attaches while output is in flight
   * can drop what its scrollback already holds (no duplicated output on reattach).
   */
  end?: number;
}
/** Notification `pty.changed`, sent to every connection: a terminal was opened or has ended. */
export interface PtyChangedNotification {
  ptyId: string;
  change: 'opened' | 'closed' | 'renamed';
  /** For `closed`. */
  exitCode?: number;
  signal?: number | null;
}
/** Notification `pty.exit`. */
export interface PtyExitNotification {
  ptyId: string;
  exitCode: number;
  signal: number | null;
}

export type FileChangeKind = 'created' | 'changed' | 'deleted';
export interface FsChange {
  /** Relative to the workspace root, '/'-separated. */
  path: string;
  /** From the watcher's event and a stat after the debounce: a rename shows as deleted + created. */
  kind: FileChangeKind;
  /** SHA-256 (hex) of a regular file's content when small enough to hash (WATCH_HASH_MAX_BYTES). */
  sha256?: string;
  type?: FileType;
}
/** Notification `fs.changed`, debounced and de-duplicated. `paths` is kept for older hosts. */
export interface FsChangedNotification {
  paths: string[];
  changes?: FsChange[];
  /** More changed than one notification carries: reload what you show. */
  overflow?: boolean;
  /**
   * The repository's state changed (HEAD, the index, refs: a commit, checkout, stage or fetch run
   * in a terminal): `.git` itself is left out of `changes`, so this is the only news of it.
   */
  git?: boolean;
}

/** Unacknowledged PTY output above this pauses the PTY until the client acks. */
export const PTY_HIGH_WATER_BYTES = 512 * 1024;
export const PTY_LOW_WATER_BYTES = 64 * 1024;

export interface CheckpointCreateParams {
  /** Files larger than this stay out of the checkpoint (default 5 MiB). */
  maxFileBytes?: number;
}
export interface CheckpointCreateResult {
  /** Names the checkpoint for `checkpoint.restore` (40 hex digits). */
  id: string;
  files: number;
  /** Files left out for their size, relative to the root. */
  skipped: string[];
}
export interface CheckpointRestoreResult {
  /** Files written back. */
  restored: number;
  /** Files created after the checkpoint, removed. */
  removed: number;
}

/** Request method -> [params, result]; the language-server, browser and graph methods have their own files. */
export interface SandboxMethods extends LspMethods, BrowserMethods, GraphMethods {
  health: [Record<string, never>, HealthResult];
  'fs.read': [FsReadParams, FsReadResult];
  'fs.write': [FsWriteParams, FsWriteResult];
  'fs.list': [FsListParams, FsListResult];
  'fs.stat': [{ path: string }, FileStat | null];
  'fs.find': [FsFindParams, FsFindResult];
  'fs.grep': [FsGrepParams, FsGrepResult];
  'fs.mkdir': [{ path: string }, null];
  'fs.rename': [{ from: string; to: string }, null];
  'fs.delete': [{ path: string; recursive?: boolean }, null];
  'fs.watch': [{ enabled: boolean }, null];
  'exec.run': [ExecParams, ExecResult];
  'pty.open': [PtyOpenParams, PtyOpenResult];
  'pty.attach': [{ ptyId: string }, PtyAttachResult];
  'pty.write': [{ ptyId: string; data: string }, null];
  'pty.resize': [{ ptyId: string; cols: number; rows: number }, null];
  'pty.close': [{ ptyId: string }, null];
  /** A new title (clipped to 256 chars); every connection hears `pty.changed` renamed. */
  'pty.rename': [{ ptyId: string; title: string }, null];
  /** Stop receiving a terminal's output on this connection (a kept-alive terminal keeps running). */
  'pty.detach': [{ ptyId: string }, null];
  'pty.list': [Record<string, never>, PtyInfo[]];
  /** Snapshots the workspace (apps/sandboxd checkpoint.service.ts says what is kept). */
  'checkpoint.create': [CheckpointCreateParams, CheckpointCreateResult];
  /** Puts the workspace back as the checkpoint holds it; NOT_FOUND when this sandbox lacks it. */
  'checkpoint.restore': [{ id: string }, CheckpointRestoreResult];
}
export type SandboxMethod = keyof SandboxMethods;
