import { Logger, OnModuleDestroy } from '@nestjs/common';
import { ConnectedSocket, MessageBody, OnGatewayDisconnect, OnGatewayInit, SubscribeMessage, WebSocketGateway } from '@nestjs/websockets';
import type { Server, Socket } from 'socket.io';
import { z } from 'zod';
import { WORKSPACE_WATCHES_PER_SOCKET, type Ack, type ServerToClientEvents, type WorkspaceStatusEvent, type WorkspaceWatchRequest } from '@h/contracts';
import { AppConfig } from '@h/config';
import { EventBusRepository, WorkspaceRepository } from '@h/db';
import { AppException } from '@h/http';
import { AccessService, AuthService, type Principal } from '@h/identity';
import { answerSocketMessage, SocketWorkspaces } from '@h/sessions';

const requestSchema = z.object({ workspaceId: z.string().uuid() });
const room = (workspaceId: string) => `workspace-status:${workspaceId}`;

interface WatchState {
  workspaces: Set<string>;
}

// A workspace's setup progress on the one Socket.IO server (/api/socket.io): `workspace.watch`
// answers with the status now and joins the workspace's room; the worker's progress and outcome
// (published on Redis by the setup job) go out as `workspace.status` to the room on this process
// only (`server.local`: every api process hears Redis itself, so nothing arrives twice). Authorised
// like live files: viewers may watch, outsiders get NOT_FOUND, checked again every SSE_HEARTBEAT_MS.
@WebSocketGateway({ path: '/api/socket.io', serveClient: false })
export class WorkspaceStatusGateway implements OnGatewayInit, OnGatewayDisconnect, OnModuleDestroy {
  private readonly logger = new Logger(WorkspaceStatusGateway.name);
  private readonly sockets: SocketWorkspaces<WatchState>;
  private stopListening: (() => void) | null = null;

  constructor(
    private readonly auth: AuthService,
    private readonly access: AccessService,
    private readonly workspaces: WorkspaceRepository,
    private readonly bus: EventBusRepository,
    config: AppConfig,
  ) {
    this.sockets = new SocketWorkspaces<WatchState>({
      key: 'workspaceStatus',
      everyMs: () => config.env.SSE_HEARTBEAT_MS,
      deps: { auth, access },
      create: () => ({ workspaces: new Set() }),
      onLost: async (socket, _state, workspaceId, error) => {
        await this.sockets.drop(socket, workspaceId);
        const emit: ServerToClientEvents['workspace.error'] = (e) => socket.emit('workspace.error', e);
        emit({ workspaceId, error });
      },
      leave: (socket, workspaceId) => socket.leave(room(workspaceId)),
    });
  }

  afterInit(server: Server): void {
    void this.bus
      .onWorkspaceStatus((event) => server.local.to(room(event.workspaceId)).emit('workspace.status', event))
      .then((stop) => (this.stopListening = stop))
      .catch((err) => this.logger.error({ err }, 'could not listen for workspace status'));
  }

  handleDisconnect(socket: Socket): void {
    // Socket.IO takes a gone socket out of its rooms itself.
    this.sockets.end(socket, () => undefined);
  }

  onModuleDestroy(): void {
    this.sockets.stopAll();
    this.stopListening?.();
  }

  @SubscribeMessage('workspace.watch')
  watch(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack<WorkspaceStatusEvent>> {
    return this.handle(socket, body, async (principal) => {
      const { workspaceId } = requestSchema.parse(body);
      await this.access.check(principal, 'workspace', workspaceId, 'viewer');
      // Joined before reading, so a change between the two is not missed (at worst heard twice).
      await this.sockets.enter(socket, workspaceId, {
        max: WORKSPACE_WATCHES_PER_SOCKET,
        refusal: `A socket watches at most ${WORKSPACE_WATCHES_PER_SOCKET} workspaces; unwatch one first.`,
        join: async () => socket.join(room(workspaceId)),
      });
      const w = await this.workspaces.findById(workspaceId);
      if (!w) throw AppException.notFound('Workspace');
      return { workspaceId, status: w.status, statusMessage: w.statusMessage };
    });
  }

  @SubscribeMessage('workspace.unwatch')
  unwatch(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack<WorkspaceWatchRequest>> {
    return this.handle(socket, body, async () => {
      const { workspaceId } = requestSchema.parse(body);
      await this.sockets.drop(socket, workspaceId);
      return { workspaceId };
    });
  }

  private handle<T>(socket: Socket, body: unknown, work: (principal: Principal) => Promise<T>): Promise<Ack<T>> {
    return answerSocketMessage(socket, body, { auth: this.auth, logger: this.logger, what: 'workspace status' }, work);
  }
}
