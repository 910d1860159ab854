// Presence: who is in a workspace right now and which file each person has open, over the one
// Socket.IO connection (/api/socket.io). `presence.join` puts the socket in the workspace's
// presence room; every change (join, update, leave, a disconnect, an entry that stopped
// heartbeating) sends the whole `presence.state` to the room, across api processes.
// Zod-free on purpose: the browser may import this file's values. The events are part of the
// socket's typed maps (socket-events.ts).
import type { Ack } from './socket-events';
import type { ErrorBody } from './error-codes';

export interface PresenceMember {
  userId: string;
  /** The account's display name. */
  name: string;
  /** The file their most recently active client has open (relative path), or null. */
  file: string | null;
  /** ISO time their first client still present joined the workspace. */
  since: string;
  /** How many sockets (browser tabs, devices) of theirs are in the workspace. */
  clients: number;
}

export interface PresenceState {
  workspaceId: string;
  /**
   * Grows with every change in the workspace. States computed by several api processes may
   * arrive out of order: keep the one with the highest version.
   */
  version: number;
  /** Sorted by `since`, then name. */
  members: PresenceMember[];
}

export interface PresenceJoinRequest {
  workspaceId: string;
  /** The file this client has open, if any (same rules as the file API's paths). */
  file?: string | null;
}

export interface PresenceUpdateRequest {
  workspaceId: string;
  file: string | null;
}

export interface PresenceLeaveRequest {
  workspaceId: string;
}

/** Presence ended on the server's side (access lost); join again if it comes back. */
export interface PresenceErrorEvent extends ErrorBody {
  workspaceId: string;
}

export interface PresenceServerToClientEvents {
  'presence.state': (state: PresenceState) => void;
  'presence.error': (event: PresenceErrorEvent) => void;
}

export interface PresenceClientToServerEvents {
  /** Viewers are present too; an outsider gets NOT_FOUND. Answers with the state after joining. */
  'presence.join': (request: PresenceJoinRequest, ack: (answer: Ack<PresenceState>) => void) => void;
  'presence.update': (request: PresenceUpdateRequest, ack: (answer: Ack<PresenceState>) => void) => void;
  'presence.leave': (request: PresenceLeaveRequest, ack: (answer: Ack<{ workspaceId: string }>) => void) => void;
}

/** Workspaces one socket may be present in at once (an IDE tab is in one). */
export const PRESENCE_WORKSPACES_PER_SOCKET = 8;
/** Longest `file` a client may announce (the file API's path limit). */
export const PRESENCE_FILE_MAX_LENGTH = 4096;
