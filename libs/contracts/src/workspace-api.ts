// Workspaces and provider keys as they travel (the tool-facing `Workspace` interface is another
// thing: workspace.ts). The server's DTO classes implement these; the web imports them type-only.

export const WORKSPACE_STATUSES = ['provisioning', 'ready', 'error'] as const;
export type WorkspaceStatus = (typeof WORKSPACE_STATUSES)[number];

export interface WorkspaceResponse<TDate = string> {
  id: string;
  teamId: string;
  name: string;
  description: string;
  status: WorkspaceStatus;
  /** Why setup failed, or what it is doing; null when there is nothing to say. */
  statusMessage: string | null;
  networkEnabled: boolean;
  /** Host names the sandbox may reach through the egress proxy when networkEnabled. */
  allowedHosts: string[];
  setupAt: TDate | null;
  createdAt: TDate;
  updatedAt: TDate;
}

export interface ProviderStatus<TDate = string> {
  provider: string;
  /** Whether a key is stored; the key itself is never returned. */
  configured: boolean;
  updatedAt: TDate | null;
}

/** Every list route answers `{ items }`. */
export interface ListResponse<T> {
  items: T[];
}

// --- Where a workspace's files come from (issue 10, point 1) ---

/** How H authenticates to a workspace's git remote; the secret itself is never returned. */
export const GIT_AUTH_KINDS = ['none', 'token', 'ssh_key'] as const;
export type GitAuthKind = (typeof GIT_AUTH_KINDS)[number];

/** `POST /teams/:teamId/workspaces` with `source`: clone this remote (host-side) into the new workspace. */
export interface GitWorkspaceSource {
  kind: 'git';
  /** https://…, http://… or ssh (ssh://… or user@host:path); no password in it. */
  url: string;
  /** Branch to check out; default the remote's HEAD. */
  branch?: string;
  /** HTTPS: a personal access token or password (sent as Basic auth). */
  token?: string;
  /** HTTPS: the user name for the token (default `git`). SSH: taken from the URL. */
  username?: string;
  /** SSH: an OpenSSH/PEM private key without passphrase (a deploy key). */
  privateKey?: string;
}

export interface EmptyWorkspaceSource {
  kind: 'empty';
}

export type WorkspaceSource = EmptyWorkspaceSource | GitWorkspaceSource;

/** Archive formats a workspace is created from (`POST …/workspaces/import`) and downloaded as. */
export const WORKSPACE_ARCHIVE_FORMATS = ['tar.gz', 'zip'] as const;
export type WorkspaceArchiveFormat = (typeof WORKSPACE_ARCHIVE_FORMATS)[number];
