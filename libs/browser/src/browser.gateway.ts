import { Logger, OnModuleDestroy } from '@nestjs/common';
import { ConnectedSocket, MessageBody, OnGatewayDisconnect, SubscribeMessage, WebSocketGateway } from '@nestjs/websockets';
import type { Socket } from 'socket.io';
import type { Ack, BrowserState } from '@h/contracts';
import { AppConfig } from '@h/config';
import { AppException, errorBody } from '@h/http';
import { AccessService, AuthService, type Principal } from '@h/identity';
import { answerSocketMessage, SocketWorkspaces } from '@h/sessions';
import { browserInputSchema, browserSchemas } from './browser-payloads';
import { BrowserHub } from './browser.hub';
import { InputRateLimit } from './input-rate-limit';

/** Workspaces one socket may watch at once (an IDE tab watches one). */
export const BROWSER_SUBSCRIPTIONS_PER_SOCKET = 4;
/** Raw input events per socket and second, and the burst allowed (a fast typist, a mouse drag). */
export const BROWSER_INPUT_PER_SECOND = 120;
export const BROWSER_INPUT_BURST = 240;
/** How long a socket's right to act in a workspace is trusted before it is checked again. */
const WRITE_CHECK_TTL_MS = 5000;

interface BrowserSocketState {
  workspaces: Set<string>;
  /** workspaceId -> until when acting was last allowed (a mouse move is not a database query). */
  writable: Map<string, number>;
  limit: InputRateLimit;
  /** Input of this socket, handled one event after another so it reaches the page in order. */
  typing: Promise<unknown>;
}

// The browser view on the one Socket.IO server (/api/socket.io), authorised like terminals with the
// handshake the SessionGateway authenticated: viewers subscribe (watch the screencast), members and
// up navigate, use history and tabs and send input; outsiders get NOT_FOUND. Checked again every
// SSE_HEARTBEAT_MS, so a removal from the team ends the watching.
@WebSocketGateway({ path: '/api/socket.io', serveClient: false })
export class BrowserGateway implements OnGatewayDisconnect, OnModuleDestroy {
  private readonly logger = new Logger(BrowserGateway.name);
  private readonly sockets: SocketWorkspaces<BrowserSocketState>;

  constructor(
    private readonly auth: AuthService,
    private readonly access: AccessService,
    private readonly hub: BrowserHub,
    config: AppConfig,
  ) {
    this.sockets = new SocketWorkspaces<BrowserSocketState>({
      key: 'browser',
      everyMs: () => config.env.SSE_HEARTBEAT_MS,
      deps: { auth, access },
      create: () => ({ workspaces: new Set(), writable: new Map(), limit: new InputRateLimit(BROWSER_INPUT_PER_SECOND, BROWSER_INPUT_BURST, Date.now()), typing: Promise.resolve() }),
      // No error event in the contract: the frames stop, and the next message answers with the reason.
      onLost: (socket, state, workspaceId) => {
        state.writable.delete(workspaceId);
        state.workspaces.delete(workspaceId);
        this.hub.leave(workspaceId, socket.id);
      },
    });
  }

  handleDisconnect(socket: Socket): void {
    this.sockets.end(socket, (id) => this.hub.leave(id, socket.id));
  }

  onModuleDestroy(): void {
    this.sockets.stopAll();
  }

  @SubscribeMessage('browser.subscribe')
  subscribe(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack<BrowserState>> {
    return this.handle(socket, body, async (principal) => {
      const { workspaceId } = browserSchemas.ref.parse(body);
      await this.access.check(principal, 'workspace', workspaceId, 'viewer');
      const state = this.sockets.of(socket);
      const fresh = !state.workspaces.has(workspaceId);
      if (fresh && state.workspaces.size >= BROWSER_SUBSCRIPTIONS_PER_SOCKET) {
        throw new AppException(429, 'TOO_MANY_STREAMS', `A socket watches at most ${BROWSER_SUBSCRIPTIONS_PER_SOCKET} browsers; unsubscribe one first.`);
      }
      state.workspaces.add(workspaceId);
      try {
        const answer = await this.hub.watch(workspaceId, socket);
        // Gone meanwhile: handleDisconnect ran before the hub knew this socket.
        if (socket.disconnected) this.hub.leave(workspaceId, socket.id);
        return answer;
      } catch (err) {
        if (fresh) {
          state.workspaces.delete(workspaceId);
          this.hub.leave(workspaceId, socket.id);
        }
        throw err;
      }
    });
  }

  @SubscribeMessage('browser.unsubscribe')
  unsubscribe(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack<{ workspaceId: string }>> {
    return this.handle(socket, body, async () => {
      const { workspaceId } = browserSchemas.ref.parse(body);
      if (this.sockets.get(socket)?.workspaces.delete(workspaceId)) this.hub.leave(workspaceId, socket.id);
      return { workspaceId };
    });
  }

  @SubscribeMessage('browser.navigate')
  navigate(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack<BrowserState>> {
    return this.handle(socket, body, async (principal) => {
      const { workspaceId, url, tabId } = browserSchemas.navigate.parse(body);
      await this.mayAct(socket, principal, workspaceId);
      return this.hub.call(workspaceId, 'browser.navigate', { url, ...(tabId ? { tabId } : {}), by: principal.userId });
    });
  }

  @SubscribeMessage('browser.history')
  history(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack<BrowserState>> {
    return this.handle(socket, body, async (principal) => {
      const { workspaceId, action, tabId } = browserSchemas.history.parse(body);
      await this.mayAct(socket, principal, workspaceId);
      return this.hub.call(workspaceId, 'browser.history', { action, ...(tabId ? { tabId } : {}), by: principal.userId });
    });
  }

  @SubscribeMessage('browser.tab')
  tab(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack<BrowserState>> {
    return this.handle(socket, body, async (principal) => {
      const { workspaceId, action, tabId, url } = browserSchemas.tab.parse(body);
      await this.mayAct(socket, principal, workspaceId);
      return this.hub.call(workspaceId, 'browser.tab', { action, ...(tabId ? { tabId } : {}), ...(url ? { url } : {}) });
    });
  }

  @SubscribeMessage('browser.input')
  input(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack<null>> {
    const state = this.sockets.of(socket);
    // Counted before any await, so a flood is refused at the cost of a map lookup.
    if (!state.limit.take(Date.now())) {
      return Promise.resolve({ ok: false, ...errorBody('RATE_LIMITED', `At most ${BROWSER_INPUT_PER_SECOND} input events a second per socket; slow down.`) });
    }
    const work = () =>
      this.handle(socket, body, async (principal) => {
        const { workspaceId, tabId, input } = browserSchemas.input.parse(body);
        await this.mayAct(socket, principal, workspaceId);
        const checked = browserInputSchema(await this.hub.viewport(workspaceId)).parse(input);
        await this.hub.input(workspaceId, tabId, checked);
        return null;
      });
    const next = state.typing.then(work, work);
    state.typing = next.catch(() => undefined);
    return next;
  }

  /** Members and up act on the page; the verdict is kept for WRITE_CHECK_TTL_MS. */
  private async mayAct(socket: Socket, principal: Principal, workspaceId: string): Promise<void> {
    const state = this.sockets.of(socket);
    if ((state.writable.get(workspaceId) ?? 0) > Date.now()) return;
    await this.access.check(principal, 'workspace', workspaceId, 'member');
    state.writable.set(workspaceId, Date.now() + WRITE_CHECK_TTL_MS);
  }

  private handle<T>(socket: Socket, body: unknown, work: (principal: Principal) => Promise<T>): Promise<Ack<T>> {
    return answerSocketMessage(socket, body, { auth: this.auth, logger: this.logger, what: 'browser' }, work);
  }
}
