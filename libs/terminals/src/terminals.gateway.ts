import { Logger, OnModuleDestroy } from '@nestjs/common';
import { ConnectedSocket, MessageBody, OnGatewayDisconnect, SubscribeMessage, WebSocketGateway } from '@nestjs/websockets';
import type { Socket } from 'socket.io';
import { z } from 'zod';
import {
  TERMINAL_MAX_COLS,
  TERMINAL_MAX_ROWS,
  TERMINAL_TITLE_MAX,
  type Ack,
  type TerminalInfo,
  type TerminalAttached,
  type TerminalList,
  type TerminalRef,
  type TerminalsServerToClientEvents,
} from '@h/contracts';
import { AppConfig } from '@h/config';
import { AppException } from '@h/http';
import { AccessService, AuthService, type Principal } from '@h/identity';
import { answerSocketMessage, SocketWorkspaces, socketPrincipal } from '@h/sessions';
import { TerminalsHub } from './terminals.hub';

const uuid = z.string().uuid();
const size = { cols: z.number().int().min(1).max(TERMINAL_MAX_COLS), rows: z.number().int().min(1).max(TERMINAL_MAX_ROWS) };
const ref = z.object({ workspaceId: uuid, terminalId: uuid });
const schemas = {
  list: z.object({ workspaceId: uuid }),
  open: z.object({ workspaceId: uuid, ...size, cwd: z.string().max(4096).optional() }),
  attach: ref.extend({ after: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional() }),
  ref,
  input: ref.extend({ data: z.string() }),
  resize: ref.extend(size),
  rename: ref.extend({ title: z.string().trim().min(1).max(TERMINAL_TITLE_MAX) }),
};
/** How long a socket's right to type into a workspace is trusted before it is checked again. */
const WRITE_CHECK_TTL_MS = 5000;
/**
 * A keystroke arriving with less than this left on the verdict renews it in the background, so
 * someone typing steadily never waits for the session and role lookups (they used to cost one
 * keystroke in every WRITE_CHECK_TTL_MS a database round trip: the echo's p99). A verdict is still
 * never trusted beyond WRITE_CHECK_TTL_MS: losing the role or the session stops typing as before.
 */
const WRITE_RENEW_BEFORE_MS = WRITE_CHECK_TTL_MS / 2;

interface TerminalSocketState {
  workspaces: Set<string>;
  /** workspaceId -> until when typing was last allowed (a keystroke is not a database query). */
  writable: Map<string, number>;
  /** Workspaces whose verdict is being renewed in the background (one renewal at a time). */
  renewing: Set<string>;
  /** Keystrokes and resizes of this socket, handled one after another so they reach the PTY in order. */
  typing: Promise<unknown>;
}

// Shared terminals on the one Socket.IO server (/api/socket.io), authorised like live files with the
// handshake the SessionGateway authenticated: viewers list and attach (watch), members and up open,
// type, resize and close; outsiders get NOT_FOUND. Checked again every SSE_HEARTBEAT_MS, so a
// removal from the team ends the watching (`terminal.error`).
@WebSocketGateway({ path: '/api/socket.io', serveClient: false })
export class TerminalsGateway implements OnGatewayDisconnect, OnModuleDestroy {
  private readonly logger = new Logger(TerminalsGateway.name);
  private readonly sockets: SocketWorkspaces<TerminalSocketState>;

  constructor(
    private readonly auth: AuthService,
    private readonly access: AccessService,
    private readonly hub: TerminalsHub,
    private readonly config: AppConfig,
  ) {
    // Ends the watching of each workspace its caller may no longer read. Typing verdicts expire by
    // themselves within WRITE_CHECK_TTL_MS (a demotion to viewer ends typing then); clearing them
    // all on every recheck would make everyone's next keystroke wait for the database.
    this.sockets = new SocketWorkspaces<TerminalSocketState>({
      key: 'terminals',
      everyMs: () => config.env.SSE_HEARTBEAT_MS,
      deps: { auth, access },
      create: () => ({ workspaces: new Set(), writable: new Map(), renewing: new Set(), typing: Promise.resolve() }),
      onLost: (socket, state, workspaceId, error) => {
        state.writable.delete(workspaceId);
        state.workspaces.delete(workspaceId);
        this.hub.leave(workspaceId, socket.id);
        const send: TerminalsServerToClientEvents['terminal.error'] = (e) => socket.emit('terminal.error', e);
        send({ workspaceId, error });
      },
    });
  }

  handleDisconnect(socket: Socket): void {
    this.sockets.end(socket, (id) => this.hub.leave(id, socket.id));
  }

  onModuleDestroy(): void {
    this.sockets.stopAll();
  }

  @SubscribeMessage('terminal.list')
  list(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack<TerminalList>> {
    return this.handle(socket, body, async (principal) => {
      const { workspaceId } = schemas.list.parse(body);
      await this.access.check(principal, 'workspace', workspaceId, 'viewer');
      const terminals = await this.joined(socket, workspaceId, () => this.hub.list(workspaceId, socket));
      return { workspaceId, terminals, max: this.hub.max };
    });
  }

  @SubscribeMessage('terminal.open')
  open(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack<TerminalAttached>> {
    return this.handle(socket, body, async (principal) => {
      const { workspaceId, cols, rows, cwd } = schemas.open.parse(body);
      await this.access.check(principal, 'workspace', workspaceId, 'member');
      return this.joined(socket, workspaceId, () => this.hub.open(workspaceId, socket, { cols, rows, cwd, openedBy: principal.userId }));
    });
  }

  @SubscribeMessage('terminal.attach')
  attach(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack<TerminalAttached>> {
    return this.handle(socket, body, async (principal) => {
      const { workspaceId, terminalId, after } = schemas.attach.parse(body);
      await this.access.check(principal, 'workspace', workspaceId, 'viewer');
      return this.joined(socket, workspaceId, () => this.hub.attach(workspaceId, terminalId, socket, after));
    });
  }

  @SubscribeMessage('terminal.detach')
  detach(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack<TerminalRef>> {
    return this.handle(socket, body, async () => {
      const { workspaceId, terminalId } = schemas.ref.parse(body);
      this.hub.detach(workspaceId, terminalId, socket.id);
      return { workspaceId, terminalId };
    });
  }

  @SubscribeMessage('terminal.input')
  input(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack<null>> {
    return this.inOrder(socket, () => this.handle(socket, body, async (principal) => {
      const { workspaceId, terminalId, data } = schemas.input.parse(body);
      const max = this.config.env.TERMINAL_INPUT_MAX_BYTES;
      if (Buffer.byteLength(data, 'utf8') > max) {
        throw new AppException(413, 'PAYLOAD_TOO_LARGE', `One terminal input is at most ${max} bytes (TERMINAL_INPUT_MAX_BYTES); send a long paste in parts.`);
      }
      await this.mayWrite(socket, principal, workspaceId);
      await this.hub.input(workspaceId, terminalId, data);
      return null;
    }, true));
  }

  @SubscribeMessage('terminal.resize')
  resize(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack<null>> {
    return this.inOrder(socket, () => this.handle(socket, body, async (principal) => {
      const { workspaceId, terminalId, cols, rows } = schemas.resize.parse(body);
      await this.mayWrite(socket, principal, workspaceId);
      await this.hub.resize(workspaceId, terminalId, cols, rows);
      return null;
    }, true));
  }

  /**
   * Messages are handled concurrently, and each one awaits (auth, access): without this, keys typed
   * fast would reach the shell shuffled.
   */
  private inOrder<T>(socket: Socket, work: () => Promise<T>): Promise<T> {
    const state = this.state(socket);
    const next = state.typing.then(work, work);
    state.typing = next.catch(() => undefined);
    return next;
  }

  @SubscribeMessage('terminal.close')
  close(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack<TerminalRef>> {
    return this.handle(socket, body, async (principal) => {
      const { workspaceId, terminalId } = schemas.ref.parse(body);
      await this.access.check(principal, 'workspace', workspaceId, 'member');
      await this.hub.close(workspaceId, terminalId);
      return { workspaceId, terminalId };
    });
  }

  @SubscribeMessage('terminal.rename')
  rename(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack<TerminalInfo>> {
    return this.handle(socket, body, async (principal) => {
      const { workspaceId, terminalId, title } = schemas.rename.parse(body);
      await this.access.check(principal, 'workspace', workspaceId, 'member');
      return this.hub.rename(workspaceId, terminalId, title);
    });
  }

  /** Members and up type and resize; the verdict is kept for WRITE_CHECK_TTL_MS and renewed ahead. */
  private async mayWrite(socket: Socket, principal: Principal, workspaceId: string): Promise<void> {
    const state = this.state(socket);
    const left = (state.writable.get(workspaceId) ?? 0) - Date.now();
    if (left > 0) {
      if (left < WRITE_RENEW_BEFORE_MS) this.renewWrite(socket, state, workspaceId);
      return;
    }
    await this.access.check(principal, 'workspace', workspaceId, 'member');
    state.writable.set(workspaceId, Date.now() + WRITE_CHECK_TTL_MS);
  }

  /** Re-authenticates the socket's credentials and re-checks the role, off the keystroke's path. */
  private renewWrite(socket: Socket, state: TerminalSocketState, workspaceId: string): void {
    if (state.renewing.has(workspaceId)) return;
    state.renewing.add(workspaceId);
    const started = Date.now();
    void (async () => {
      const who = await socketPrincipal(socket);
      const principal = who && (await this.auth.authenticate(who.credentials));
      if (!principal) throw new AppException(401, 'UNAUTHENTICATED', 'The session or API token behind this socket has ended.');
      await this.access.check(principal, 'workspace', workspaceId, 'member');
      // Valid from when the check started: a verdict never outlives its evidence by more than the TTL.
      state.writable.set(workspaceId, started + WRITE_CHECK_TTL_MS);
    })()
      .catch(() => state.writable.delete(workspaceId))
      .finally(() => state.renewing.delete(workspaceId));
  }

  private async joined<T>(socket: Socket, workspaceId: string, work: () => Promise<T>): Promise<T> {
    const state = this.state(socket);
    const fresh = !state.workspaces.has(workspaceId);
    state.workspaces.add(workspaceId);
    try {
      const result = await work();
      // Gone meanwhile: handleDisconnect ran before this socket was known to the hub.
      if (socket.disconnected) this.hub.leave(workspaceId, socket.id);
      return result;
    } catch (err) {
      if (fresh) {
        state.workspaces.delete(workspaceId);
        this.hub.leave(workspaceId, socket.id);
      }
      throw err;
    }
  }

  private state(socket: Socket): TerminalSocketState {
    return this.sockets.of(socket);
  }

  /** @param typing keystrokes and resizes: a socket allowed to type within WRITE_CHECK_TTL_MS skips the session lookup */
  private handle<T>(socket: Socket, body: unknown, work: (principal: Principal) => Promise<T>, typing = false): Promise<Ack<T>> {
    const workspaceId = typing && body && typeof body === 'object' ? (body as { workspaceId?: unknown }).workspaceId : undefined;
    const trusted = typeof workspaceId === 'string' && (this.sockets.get(socket)?.writable.get(workspaceId) ?? 0) > Date.now();
    return answerSocketMessage(socket, body, { auth: this.auth, logger: this.logger, what: 'terminal', trusted }, work);
  }
}
