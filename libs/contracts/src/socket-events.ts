// The Socket.IO protocol of /api/socket.io, typed once for both ends: the api's gateway uses
// `Socket<ClientToServerEvents, ServerToClientEvents>` from socket.io and the browser
// `Socket<ServerToClientEvents, ClientToServerEvents>` from socket.io-client, so an event name or
// payload that drifts is a compile error. Every client message is answered through the Socket.IO
// acknowledgement with an `Ack`.
import type { EventEnvelope } from './agent-events';
import type { BrowserClientToServerEvents, BrowserServerToClientEvents } from './browser-view';
import type { DiagnosticsClientToServerEvents, DiagnosticsServerToClientEvents } from './diagnostics';
import type { ErrorBody } from './error-codes';
import type { FilesClientToServerEvents, FilesServerToClientEvents } from './files';
import type { PresenceClientToServerEvents, PresenceServerToClientEvents } from './presence';
import type { DeltaFrame, Permission, PermissionDecision, Run } from './session-api';
import type { TerminalsClientToServerEvents, TerminalsServerToClientEvents } from './terminals';
import type { WorkspaceStatusClientToServerEvents, WorkspaceStatusServerToClientEvents } from './workspace-status';

export type Ack<T> = { ok: true; data: T } | ({ ok: false } & ErrorBody);

/** A subscription ended (access lost, SLOW_CONSUMER, STREAM_STALLED…); resubscribe after `lastSeq`. */
export interface StreamErrorFrame extends ErrorBody {
  sessionId: string;
  lastSeq?: number;
}

/**
 * Live files (files.ts), terminals (terminals.ts), presence (presence.ts), setup progress
 * (workspace-status.ts), diagnostics (diagnostics.ts) and the browser view (browser-view.ts) ride the same socket.
 */
export interface ServerToClientEvents
  extends FilesServerToClientEvents,
    TerminalsServerToClientEvents,
    PresenceServerToClientEvents,
    WorkspaceStatusServerToClientEvents,
    DiagnosticsServerToClientEvents,
    BrowserServerToClientEvents {
  /** The handshake is authenticated: messages may be sent now. */
  ready: (hello: { userId: string; via: 'user' | 'token' }) => void;
  /** The handshake was refused; the server disconnects right after. */
  auth_error: (body: ErrorBody) => void;
  /** A persisted event, exactly once and in seq order per subscribed session. */
  event: (event: EventEnvelope) => void;
  delta: (frame: DeltaFrame) => void;
  stream_error: (frame: StreamErrorFrame) => void;
}

export interface SubscribeRequest {
  sessionId: string;
  /** Replay events after this seq first (default 0: the whole log). */
  afterSeq?: number;
}

export interface ClientToServerEvents
  extends FilesClientToServerEvents,
    TerminalsClientToServerEvents,
    PresenceClientToServerEvents,
    WorkspaceStatusClientToServerEvents,
    DiagnosticsClientToServerEvents,
    BrowserClientToServerEvents {
  /** Acknowledged after the replay, with the seq the live stream continues from. */
  subscribe: (request: SubscribeRequest, ack: (answer: Ack<{ sessionId: string; lastSeq: number }>) => void) => void;
  unsubscribe: (request: { sessionId: string }, ack: (answer: Ack<{ sessionId: string }>) => void) => void;
  'permission.decide': (request: { permissionId: string } & PermissionDecision, ack: (answer: Ack<Permission>) => void) => void;
  'run.cancel': (request: { runId: string }, ack: (answer: Ack<Run>) => void) => void;
}
