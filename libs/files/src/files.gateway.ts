import { Logger, OnModuleDestroy } from '@nestjs/common';
import { ConnectedSocket, MessageBody, OnGatewayDisconnect, OnGatewayInit, SubscribeMessage, WebSocketGateway } from '@nestjs/websockets';
import type { Server, Socket } from 'socket.io';
import { z } from 'zod';
import type { FilesAck, FilesServerToClientEvents } from '@h/contracts';
import { AppConfig } from '@h/config';
import { AccessService, AuthService, type Principal } from '@h/identity';
import { answerSocketMessage } from '@h/sessions';
import { filesRoom, FilesWatchHub } from './files-watch.hub';
import { RelaySockets } from './relay-sockets';

const requestSchema = z.object({ workspaceId: z.string().uuid() });
/** Workspaces one socket may watch at once (an IDE tab watches one). */
export const FILES_SUBSCRIPTIONS_PER_SOCKET = 8;

// Live files on the one Socket.IO server (/api/socket.io): `files.subscribe { workspaceId }` joins
// the workspace's room for `files.changed`; authorised like session subscriptions (viewers may
// watch, outsiders get NOT_FOUND) with the handshake the SessionGateway authenticated, and checked
// again every SSE_HEARTBEAT_MS so a removal from the team ends the subscription (`files.error`).
@WebSocketGateway({ path: '/api/socket.io', serveClient: false })
export class FilesGateway implements OnGatewayInit, OnGatewayDisconnect, OnModuleDestroy {
  private readonly logger = new Logger(FilesGateway.name);
  private readonly sockets: RelaySockets;

  constructor(
    private readonly auth: AuthService,
    private readonly access: AccessService,
    private readonly hub: FilesWatchHub,
    config: AppConfig,
  ) {
    // Ends each subscription its caller may no longer read.
    this.sockets = new RelaySockets({
      key: 'files',
      everyMs: () => config.env.SSE_HEARTBEAT_MS,
      deps: { auth, access },
      hub,
      room: filesRoom,
      max: FILES_SUBSCRIPTIONS_PER_SOCKET,
      refusal: `A socket watches at most ${FILES_SUBSCRIPTIONS_PER_SOCKET} workspaces; unsubscribe one first.`,
      onLost: (socket, workspaceId, error) => {
        const emit: FilesServerToClientEvents['files.error'] = (e) => socket.emit('files.error', e);
        emit({ workspaceId, error });
      },
    });
  }

  afterInit(server: Server): void {
    this.hub.attach(server);
  }

  handleDisconnect(socket: Socket): void {
    this.sockets.end(socket);
  }

  onModuleDestroy(): void {
    this.sockets.stopAll();
  }

  @SubscribeMessage('files.subscribe')
  subscribe(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<FilesAck<{ workspaceId: string }>> {
    return this.handle(socket, body, async (principal) => {
      const { workspaceId } = requestSchema.parse(body);
      await this.access.check(principal, 'workspace', workspaceId, 'viewer');
      await this.sockets.enter(socket, workspaceId);
      return { workspaceId };
    });
  }

  @SubscribeMessage('files.unsubscribe')
  unsubscribe(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<FilesAck<{ workspaceId: string }>> {
    return this.handle(socket, body, async () => {
      const { workspaceId } = requestSchema.parse(body);
      await this.sockets.drop(socket, workspaceId);
      return { workspaceId };
    });
  }

  private handle<T>(socket: Socket, body: unknown, work: (principal: Principal) => Promise<T>): Promise<FilesAck<T>> {
    return answerSocketMessage(socket, body, { auth: this.auth, logger: this.logger, what: 'files' }, work);
  }
}
