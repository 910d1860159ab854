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
