import { Logger, OnModuleDestroy } from '@nestjs/common';
import { ConnectedSocket, MessageBody, OnGatewayDisconnect, OnGatewayInit, SubscribeMessage, WebSocketGateway } from '@nestjs/websockets';
import type { Server, Socket } from 'socket.io';
import { z } from 'zod';
import type { FilesAck, FilesServerToClientEvents } from '@h/contracts';
import { AppConfig } from '@h/config';
import { AppException } from '@h/http';
import { AccessService, AuthService, type Principal } from '@h/identity';
import { answerSocketMessage, lostWorkspaces } from '@h/sessions';
import { filesRoom, FilesWatchHub } from './files-watch.hub';

const requestSchema = z.object({ workspaceId: z.string().uuid() });
/** Workspaces one socket may watch at once (an IDE tab watches one). */
export const FILES_SUBSCRIPTIONS_PER_SOCKET = 8;

interface FilesSocketState {
  workspaces: Set<string>;
  recheck?: NodeJS.Timeout;
}

// Live files on the one Socket.IO server (/api/socket.io): `files.subscribe { workspaceId }` joins
// the workspace's room for `files.changed`; authorised like session subscriptions (viewers may
// watch, outsiders get NOT_FOUND) with the handshake the SessionGateway authenticated, and checked
// again every SSE_HEARTBEAT_MS so a removal from the team ends the subscription (`files.error`).
@WebSocketGateway({ path: '/api/socket.io', serveClient: false })
export class FilesGateway implements OnGatewayInit, OnGatewayDisconnect, OnModuleDestroy {
  private readonly logger = new Logger(FilesGateway.name);
  private readonly rechecks = new Set<NodeJS.Timeout>();

  constructor(
    private readonly auth: AuthService,
    private readonly access: AccessService,
    private readonly hub: FilesWatchHub,
    private readonly config: AppConfig,
  ) {}

  afterInit(server: Server): void {
    this.hub.attach(server);
  }

  handleDisconnect(socket: Socket): void {
    const state = socket.data.files as FilesSocketState | undefined;
    if (!state) return;
    if (state.recheck) {
      clearInterval(state.recheck);
      this.rechecks.delete(state.recheck);
    }
    for (const id of state.workspaces) this.hub.remove(id, socket.id);
    state.workspaces.clear();
  }

  onModuleDestroy(): void {
    for (const t of this.rechecks) clearInterval(t);
    this.rechecks.clear();
  }

  @SubscribeMessage('files.subscribe')
  subscribe(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<FilesAck<{ workspaceId: string }>> {
    return this.handle(socket, body, async (principal) => {
      const { workspaceId } = requestSchema.parse(body);
      await this.access.check(principal, 'workspace', workspaceId, 'viewer');
      const state = this.state(socket);
      if (!state.workspaces.has(workspaceId)) {
        if (state.workspaces.size >= FILES_SUBSCRIPTIONS_PER_SOCKET) {
          throw new AppException(429, 'TOO_MANY_STREAMS', `A socket watches at most ${FILES_SUBSCRIPTIONS_PER_SOCKET} workspaces; unsubscribe one first.`);
        }
        state.workspaces.add(workspaceId);
        try {
          await socket.join(filesRoom(workspaceId));
          await this.hub.add(workspaceId, socket.id);
        } catch (err) {
          state.workspaces.delete(workspaceId);
          await socket.leave(filesRoom(workspaceId));
          throw err;
        }
        // Gone meanwhile: handleDisconnect ran before this subscription existed.
        if (socket.disconnected) this.handleDisconnect(socket);
      }
      return { workspaceId };
    });
  }

  @SubscribeMessage('files.unsubscribe')
  unsubscribe(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<FilesAck<{ workspaceId: string }>> {
    return this.handle(socket, body, async () => {
      const { workspaceId } = requestSchema.parse(body);
      await this.drop(socket, workspaceId);
      return { workspaceId };
    });
  }

  private state(socket: Socket): FilesSocketState {
    let state = socket.data.files as FilesSocketState | undefined;
    if (!state) {
      state = { workspaces: new Set() };
      state.recheck = setInterval(() => void this.recheck(socket), this.config.env.SSE_HEARTBEAT_MS);
      state.recheck.unref();
      this.rechecks.add(state.recheck);
      socket.data.files = state;
    }
    return state;
  }

  private async drop(socket: Socket, workspaceId: string): Promise<void> {
    const state = socket.data.files as FilesSocketState | undefined;
    if (!state?.workspaces.delete(workspaceId)) return;
    this.hub.remove(workspaceId, socket.id);
    await socket.leave(filesRoom(workspaceId));
  }

  /** Ends each subscription its caller may no longer read. */
  private async recheck(socket: Socket): Promise<void> {
    const state = socket.data.files as FilesSocketState | undefined;
    if (!state) return;
    for (const { workspaceId, error } of await lostWorkspaces(socket, [...state.workspaces], { auth: this.auth, access: this.access })) {
      await this.drop(socket, workspaceId);
      const emit: FilesServerToClientEvents['files.error'] = (e) => socket.emit('files.error', e);
      emit({ workspaceId, error });
    }
  }

  private handle<T>(socket: Socket, body: unknown, work: (principal: Principal) => Promise<T>): Promise<FilesAck<T>> {
    return answerSocketMessage(socket, body, { auth: this.auth, logger: this.logger, what: 'files' }, work);
  }
}
