// A workspace's setup progress over Socket.IO (`workspace.watch`), typed once for the api and the
// web: while a clone or an uploaded archive is brought in the status message changes ("Cloning…
// 45%", "Unpacking… 40%"), then the status becomes ready or error. The team page and the workspace
// page hear it as it happens instead of polling. Zod-free: the browser imports this file.
import type { ErrorBody } from './error-codes';
import type { Ack } from './socket-events';
import type { WorkspaceStatus } from './workspace-api';

export interface WorkspaceWatchRequest {
  workspaceId: string;
}

export interface WorkspaceStatusEvent {
  workspaceId: string;
  status: WorkspaceStatus;
  statusMessage: string | null;
}

/** The watch ended on the server's side (access lost); watch again if it comes back. */
export interface WorkspaceWatchErrorEvent extends ErrorBody {
  workspaceId: string;
}

/** Workspaces one socket may watch at once (a team page watches those being set up). */
export const WORKSPACE_WATCHES_PER_SOCKET = 32;

export interface WorkspaceStatusServerToClientEvents {
  'workspace.status': (event: WorkspaceStatusEvent) => void;
  'workspace.error': (event: WorkspaceWatchErrorEvent) => void;
}

export interface WorkspaceStatusClientToServerEvents {
  /** Viewers may; outsiders get NOT_FOUND. Answers with the status now; changes follow as `workspace.status`. */
  'workspace.watch': (request: WorkspaceWatchRequest, ack: (answer: Ack<WorkspaceStatusEvent>) => void) => void;
  'workspace.unwatch': (request: WorkspaceWatchRequest, ack: (answer: Ack<WorkspaceWatchRequest>) => void) => void;
}
