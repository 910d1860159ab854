import { Logger, OnModuleDestroy } from '@nestjs/common';
import {
  ConnectedSocket,
  MessageBody,
  OnGatewayConnection,
  OnGatewayDisconnect,
  SubscribeMessage,
  WebSocketGateway,
} from '@nestjs/websockets';
import { parse as parseCookie } from 'cookie';
import type { Socket as IoSocket } from 'socket.io';
import { z } from 'zod';
import { AppConfig } from '@h/config';
import { PERMISSION_BEHAVIORS, type Ack, type ClientToServerEvents, type ErrorCode, type Permission, type Run, type ServerToClientEvents } from '@h/contracts';
import { AppException, errorBody, findInputProblem, INPUT_LIMITS, mapException, SESSION_COOKIE } from '@h/http';
import { AccessService, AuthService, bearerFrom, Principal } from '@h/identity';
import { PermissionService, RunService } from '@h/runs';
import { LiveAccessService, LiveCredentials } from './live-access.service';
import { SessionStream, SessionStreamHub } from './session-stream.hub';
import { socketSink } from './stream-sinks';

const subscribeSchema = z.object({ sessionId: z.string().uuid(), afterSeq: z.number().int().min(0).max(INPUT_LIMITS.maxQueryInteger).default(0) });
const unsubscribeSchema = z.object({ sessionId: z.string().uuid() });
const decideSchema = z.object({
  permissionId: z.string().uuid(),
  behavior: z.enum(PERMISSION_BEHAVIORS),
  updatedInput: z.record(z.string(), z.unknown()).optional(),
  message: z.string().max(2000).optional(),
});
const cancelSchema = z.object({ runId: z.string().uuid() });

interface SocketState {
  principal: Principal;
  /** What the handshake authenticated with, checked again on every message and on a timer. */
  credentials: LiveCredentials;
  streams: Map<string, SessionStream>;
  recheck?: NodeJS.Timeout;
}

interface SocketData {
  /** Set once the handshake is authenticated; cleared when its credentials end. */
  h?: SocketState;
  connecting?: Promise<void>;
}

/** A connection as the gateway sees it: the event maps of libs/contracts socket-events.ts. */
export type SessionSocket = IoSocket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

type AckOf<E extends keyof ClientToServerEvents> = Parameters<Parameters<ClientToServerEvents[E]>[1]>[0];

const refusal = (code: ErrorCode, message: string): { ok: false } & ReturnType<typeof errorBody> => ({ ok: false, ...errorBody(code, message) });

// Server-to-client frames: `event` (a persisted envelope, exactly once, in seq order), `delta`
// (ephemeral token deltas) and `stream_error` (a subscription ended: access lost, or SLOW_CONSUMER /
// STREAM_STALLED, after which the connection is closed; resubscribe after `lastSeq`). Client-to-server: subscribe, unsubscribe, permission.decide, run.cancel,
// each answered through the Socket.IO acknowledgement with `{ ok, data | error }`.
@WebSocketGateway({ path: '/api/socket.io', serveClient: false })
export class SessionGateway implements OnGatewayConnection, OnGatewayDisconnect, OnModuleDestroy {
  private readonly logger = new Logger(SessionGateway.name);
  /** Re-check timers of connected sockets; cleared at shutdown so none fires into a closed pool. */
  private readonly rechecks = new Set<NodeJS.Timeout>();

  constructor(
    private readonly auth: AuthService,
    private readonly access: AccessService,
    private readonly hub: SessionStreamHub,
    private readonly permissions: PermissionService,
    private readonly runs: RunService,
    private readonly live: LiveAccessService,
    private readonly config: AppConfig,
  ) {}

  handleConnection(socket: SessionSocket): Promise<void> {
    // A client may send its first message (typically subscribe, from its connect handler) before
    // the handshake is authenticated: handle() waits for this instead of answering UNAUTHENTICATED.
    const connecting = this.connect(socket);
    socket.data.connecting = connecting;
    return connecting;
  }

  private async connect(socket: SessionSocket): Promise<void> {
    try {
      const { principal, credentials } = await this.authenticate(socket);
      // Gone while authenticating: handleDisconnect already ran, so keep no state (and no timer).
      if (socket.disconnected) return;
      const state: SocketState = { principal, credentials, streams: new Map() };
      state.recheck = setInterval(() => void this.recheck(socket), this.config.env.SSE_HEARTBEAT_MS);
      state.recheck.unref();
      this.rechecks.add(state.recheck);
      socket.data.h = state;
      await socket.join(`user:${principal.userId}`);
      socket.emit('ready', { userId: principal.userId, via: principal.kind });
    } catch (err) {
      const { code, message } = mapException(err);
      socket.emit('auth_error', errorBody(code, message));
      socket.disconnect(true);
    }
  }

  handleDisconnect(socket: SessionSocket): void {
    const state = socket.data.h;
    if (state?.recheck) {
      clearInterval(state.recheck);
      this.rechecks.delete(state.recheck);
    }
    for (const s of state?.streams.values() ?? []) s.close();
    state?.streams.clear();
  }

  onModuleDestroy(): void {
    for (const t of this.rechecks) clearInterval(t);
    this.rechecks.clear();
  }

  @SubscribeMessage('subscribe')
  subscribe(@ConnectedSocket() socket: SessionSocket, @MessageBody() body: unknown): Promise<AckOf<'subscribe'>> {
    return this.handle(socket, body, async (state) => {
      const { sessionId, afterSeq } = subscribeSchema.parse(body);
      await this.access.check(state.principal, 'session', sessionId, 'viewer');
      state.streams.get(sessionId)?.close();
      state.streams.delete(sessionId);
      // Counted with the caller's SSE streams; a refusal is the ack's TOO_MANY_STREAMS error.
      const lease = this.hub.reserve(state.principal);
      try {
        await socket.join(`session:${sessionId}`);
      } catch (err) {
        lease.release();
        throw err;
      }
      const stream = this.hub.open(sessionId, afterSeq, socketSink(socket, sessionId), lease);
      // The client may have left meanwhile; handleDisconnect ran before this stream existed.
      if (socket.disconnected || socket.data.h !== state) {
        stream.close();
        return { sessionId, lastSeq: afterSeq };
      }
      // A second subscribe to the same session that raced this one: only the newest stays.
      const raced = state.streams.get(sessionId);
      if (raced && raced !== stream) raced.close();
      state.streams.set(sessionId, stream);
      // The ack follows the replay (written as the connection drains): the client knows its
      // history is complete when it arrives.
      await stream.start();
      return { sessionId, lastSeq: stream.lastSeq };
    });
  }

  @SubscribeMessage('unsubscribe')
  unsubscribe(@ConnectedSocket() socket: SessionSocket, @MessageBody() body: unknown): Promise<AckOf<'unsubscribe'>> {
    return this.handle(socket, body, async (state) => {
      const { sessionId } = unsubscribeSchema.parse(body);
      state.streams.get(sessionId)?.close();
      state.streams.delete(sessionId);
      await socket.leave(`session:${sessionId}`);
      return { sessionId };
    });
  }

  @SubscribeMessage('permission.decide')
  // The DTOs hold Dates; the answer travels as ISO strings (the map's `Permission`, `Run`).
  decide(@ConnectedSocket() socket: SessionSocket, @MessageBody() body: unknown): Promise<Ack<Permission<Date>>> {
    return this.handle(socket, body, async (state) => {
      const { permissionId, ...decision } = decideSchema.parse(body);
      const grant = await this.access.check(state.principal, 'permission', permissionId, 'member', 'run');
      return this.permissions.decide(state.principal, grant, permissionId, decision, socket.handshake.address || null);
    });
  }

  @SubscribeMessage('run.cancel')
  cancel(@ConnectedSocket() socket: SessionSocket, @MessageBody() body: unknown): Promise<Ack<Run<Date>>> {
    return this.handle(socket, body, async (state) => {
      const { runId } = cancelSchema.parse(body);
      const grant = await this.access.check(state.principal, 'run', runId, 'member', 'run');
      return this.runs.cancel(state.principal, grant, runId, socket.handshake.address || null);
    });
  }

  /** Hangs up when the credentials ended; closes each subscription its caller may no longer read. */
  private async recheck(socket: SessionSocket): Promise<void> {
    const state = socket.data.h;
    if (!state) return;
    const who = await this.live.verdict(state.credentials);
    if (who.ok === false) {
      this.handleDisconnect(socket);
      socket.data.h = undefined;
      socket.disconnect(true);
      return;
    }
    for (const sessionId of [...state.streams.keys()]) {
      const v = await this.live.verdict(state.credentials, sessionId);
      if (v.ok !== false || socket.data.h !== state) continue;
      state.streams.get(sessionId)?.close();
      state.streams.delete(sessionId);
      await socket.leave(`session:${sessionId}`);
      socket.emit('stream_error', { sessionId, ...errorBody(v.code, v.message) });
    }
  }

  private async handle<T>(socket: SessionSocket, body: unknown, work: (state: SocketState) => Promise<T>): Promise<Ack<T>> {
    if (!socket.data.h) await socket.data.connecting;
    const state = socket.data.h;
    if (!state) return refusal('UNAUTHENTICATED', 'Not authenticated.');
    // A socket outlives the login it was opened with: after a logout or a token revocation it
    // must stop acting, as HTTP does at once.
    if (!(await this.auth.authenticate(state.credentials))) {
      this.handleDisconnect(socket);
      socket.data.h = undefined;
      setImmediate(() => socket.disconnect(true));
      return refusal('UNAUTHENTICATED', 'The session or API token this socket used has ended; sign in again.');
    }
    // The same input policy as every HTTP body (NUL, lone surrogates, depth, unsafe numbers).
    const problem = findInputProblem(body, 'message');
    if (problem) return refusal('VALIDATION_FAILED', problem);
    try {
      return { ok: true, data: await work(state) };
    } catch (err) {
      if (err instanceof z.ZodError) {
        return refusal('VALIDATION_FAILED', err.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
      }
      const { status, code, message } = mapException(err);
      if (status >= 500) this.logger.error({ err }, 'socket handler failed');
      return refusal(code, message);
    }
  }

  /**
   * Same credentials as HTTP: the session cookie, or a bearer token in `auth.token` or the
   * Authorization header. Cookie logins must come from H's own origin, which blocks cross-site
   * WebSocket hijacking (a cookie is sent by the browser whichever page opens the socket).
   */
  private async authenticate(socket: SessionSocket): Promise<{ principal: Principal; credentials: SocketState['credentials'] }> {
    const headers = socket.handshake.headers;
    const token = typeof socket.handshake.auth?.token === 'string' ? socket.handshake.auth.token : bearerFrom(headers.authorization);
    if (token) {
      const principal = await this.auth.authenticate({ bearer: token });
      if (!principal) throw AppException.unauthorized('The API token is invalid, expired or revoked.');
      return { principal, credentials: { bearer: token } };
    }
    const cookies = parseCookie(headers.cookie ?? '');
    const credentials = { sessionToken: cookies[SESSION_COOKIE] };
    const principal = await this.auth.authenticate(credentials);
    if (!principal) throw AppException.unauthorized();
    const origin = headers.origin;
    if (origin) {
      const host = headers['x-forwarded-host'] ?? headers.host;
      let originHost = '';
      try {
        originHost = new URL(origin).host;
      } catch {
        /* malformed origin: refused below */
      }
      if (originHost !== host) throw AppException.forbidden('Cross-origin socket connections need an API token.', 'BAD_ORIGIN');
    }
    return { principal, credentials };
  }
}
