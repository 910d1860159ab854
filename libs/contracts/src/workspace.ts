// The one interface through which the agent's tools touch a workspace. The engine runs against a
// local directory in tests and against a workspace container (sandboxd over JSON-RPC) in
// production; both implement this, so tools never know which one they use.
//
// Paths are relative to the workspace root ("src/a.ts") or absolute inside it ("/workspace/src/a.ts").
// Implementations MUST refuse anything that resolves outside the root (`..`, other absolute paths,
// symlinks pointing out) by throwing WorkspaceError with code PATH_OUTSIDE_WORKSPACE.

export type FileType = 'file' | 'directory' | 'symlink' | 'other';

export interface FileStat {
  /** Path relative to the workspace root, '/'-separated. */
  path: string;
  type: FileType;
  size: number;
  mtimeMs: number;
}

export interface DirEntry {
  /** Path relative to the workspace root, '/'-separated. */
  path: string;
  name: string;
  type: FileType;
  size: number;
}

export interface ListOptions {
  recursive?: boolean;
  /** Stop after this many entries; implementations report truncation via `truncated`. */
  maxEntries?: number;
}

export interface ListResult {
  entries: DirEntry[];
  truncated: boolean;
}

export interface GrepOptions {
  /** Directory or file to search, relative to the root; default the root. */
  path?: string;
  /** Glob filter on file paths, e.g. "*.ts". */
  glob?: string;
  ignoreCase?: boolean;
  /** Treat the pattern as a literal string instead of a regular expression. */
  fixedString?: boolean;
  maxResults?: number;
}

export interface GrepMatch {
  path: string;
  line: number;
  column: number;
  text: string;
}

export interface GrepResult {
  matches: GrepMatch[];
  truncated: boolean;
}

export interface FindFilesOptions {
  path?: string;
  maxResults?: number;
}

export interface ReadOptions {
  /** Refuse with TOO_LARGE above this many bytes; implementations also apply a cap of their own. */
  maxBytes?: number;
}

export interface ExecOptions {
  /** Working directory relative to the root; default the root. */
  cwd?: string;
  /** Extra environment; implementations start from a sanitized allowlist, never the host env. */
  env?: Record<string, string>;
  timeoutMs?: number;
  /** Cap on captured stdout+stderr; beyond it output is dropped and `truncated` is set. */
  maxOutputBytes?: number;
  signal?: AbortSignal;
  stdin?: string;
}

export interface ExecResult {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  cancelled: boolean;
  truncated: boolean;
  durationMs: number;
}

export type WorkspaceErrorCode =
  | 'PATH_OUTSIDE_WORKSPACE'
  | 'NOT_FOUND'
  | 'IS_DIRECTORY'
  | 'NOT_DIRECTORY'
  | 'ALREADY_EXISTS'
  | 'TOO_LARGE'
  | 'UNAVAILABLE'
  | 'IO_ERROR';

export class WorkspaceError extends Error {
  constructor(
    readonly code: WorkspaceErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'WorkspaceError';
  }
}

export interface Workspace {
  /** How the root is shown to the model and users, e.g. "/workspace". */
  readonly root: string;
  readFile(path: string, options?: ReadOptions): Promise<Uint8Array>;
  readTextFile(path: string, options?: ReadOptions): Promise<string>;
  /** Creates parent directories as needed. */
  writeFile(path: string, content: string | Uint8Array): Promise<void>;
  /** null when the path does not exist. */
  stat(path: string): Promise<FileStat | null>;
  list(path: string, options?: ListOptions): Promise<ListResult>;
  mkdir(path: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  remove(path: string, options?: { recursive?: boolean }): Promise<void>;
  /** File names matching a glob or substring, relative to the root. */
  findFiles(pattern: string, options?: FindFilesOptions): Promise<string[]>;
  grep(pattern: string, options?: GrepOptions): Promise<GrepResult>;
  /** Runs `command` with `sh -c` inside the workspace. */
  exec(command: string, options?: ExecOptions): Promise<ExecResult>;
}
