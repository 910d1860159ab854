import { Logger, OnModuleDestroy } from '@nestjs/common';
import { ConnectedSocket, MessageBody, OnGatewayDisconnect, OnGatewayInit, SubscribeMessage, WebSocketGateway } from '@nestjs/websockets';
import type { Server, Socket } from 'socket.io';
import { z } from 'zod';
import { PRESENCE_FILE_MAX_LENGTH, PRESENCE_WORKSPACES_PER_SOCKET, type Ack, type PresenceState, type ServerToClientEvents } from '@h/contracts';
import { AppConfig } from '@h/config';
import { UserRepository } from '@h/db';
import { normalizeFilePath } from '@h/files';
import { AppException } from '@h/http';
import { AccessService, AuthService, type Principal } from '@h/identity';
import { answerSocketMessage, SocketWorkspaces } from '@h/sessions';
import { presenceRoom, PresenceService } from './presence.service';

const fileSchema = z.string().max(PRESENCE_FILE_MAX_LENGTH).nullable();
const joinSchema = z.object({ workspaceId: z.string().uuid(), file: fileSchema.optional() });
const updateSchema = z.object({ workspaceId: z.string().uuid(), file: fileSchema });
const leaveSchema = z.object({ workspaceId: z.string().uuid() });

interface PresenceSocketState {
  workspaces: Set<string>;
  name?: string;
}

/** The file API's path rule; '' (the root) means no file. */
function cleanFile(file: string | null | undefined): string | null {
  if (file === null || file === undefined) return null;
  return normalizeFilePath(file, 'file') || null;
}

// Presence on the one Socket.IO server (/api/socket.io): `presence.join`, `presence.update`,
// `presence.leave`, each acknowledged; `presence.state` to the workspace's room on every change.
// Authorised like live files (viewers are present too, outsiders get NOT_FOUND) with the
// handshake the SessionGateway authenticated, and checked again every SSE_HEARTBEAT_MS so a
// removal from the team takes the person out (`presence.error`).
@WebSocketGateway({ path: '/api/socket.io', serveClient: false })
export class PresenceGateway implements OnGatewayInit, OnGatewayDisconnect, OnModuleDestroy {
  private readonly logger = new Logger(PresenceGateway.name);
  private readonly sockets: SocketWorkspaces<PresenceSocketState>;

  constructor(
    private readonly auth: AuthService,
    private readonly access: AccessService,
    private readonly presence: PresenceService,
    private readonly users: UserRepository,
    config: AppConfig,
  ) {
    // Takes the socket out of each workspace its caller may no longer read.
    this.sockets = new SocketWorkspaces<PresenceSocketState>({
      key: 'presence',
      everyMs: () => config.env.SSE_HEARTBEAT_MS,
      deps: { auth, access },
      create: () => ({ workspaces: new Set() }),
      onLost: async (socket, _state, workspaceId, error) => {
        await this.sockets.drop(socket, workspaceId).catch(() => undefined);
        const emit: ServerToClientEvents['presence.error'] = (e) => socket.emit('presence.error', e);
        emit({ workspaceId, error });
      },
      leave: async (socket, workspaceId) => {
        await socket.leave(presenceRoom(workspaceId));
        await this.presence.leave(workspaceId, socket.id);
      },
    });
  }

  afterInit(server: Server): void {
    this.presence.attach(server);
  }

  handleDisconnect(socket: Socket): void {
    this.sockets.end(socket, (id) => void this.presence.leave(id, socket.id).catch((err) => this.logger.warn({ err }, 'presence leave on disconnect failed')));
  }

  onModuleDestroy(): void {
    this.sockets.stopAll();
  }

  @SubscribeMessage('presence.join')
  join(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack<PresenceState>> {
    return this.handle(socket, body, async (principal) => {
      const request = joinSchema.parse(body);
      const file = cleanFile(request.file);
      await this.access.check(principal, 'workspace', request.workspaceId, 'viewer');
      const state = this.sockets.of(socket);
      state.name ??= (await this.users.findById(principal.userId))?.name ?? 'Someone';
      const name = state.name;
      const join = () => this.presence.join(request.workspaceId, socket.id, { userId: principal.userId, name }, file);
      let answer: PresenceState | undefined;
      await this.sockets.enter(socket, request.workspaceId, {
        max: PRESENCE_WORKSPACES_PER_SOCKET,
        refusal: `A socket is present in at most ${PRESENCE_WORKSPACES_PER_SOCKET} workspaces; leave one first.`,
        join: async () => {
          await socket.join(presenceRoom(request.workspaceId));
          answer = await join();
        },
      });
      // Present already: the same join moves the entry to the new file.
      return answer ?? (await join());
    });
  }

  @SubscribeMessage('presence.update')
  update(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack<PresenceState>> {
    return this.handle(socket, body, async () => {
      const request = updateSchema.parse(body);
      const file = cleanFile(request.file);
      const state = this.sockets.get(socket);
      const answer = state?.workspaces.has(request.workspaceId) ? await this.presence.update(request.workspaceId, socket.id, file) : null;
      if (!answer) throw AppException.badRequest('VALIDATION_FAILED', 'Join the workspace (presence.join) before updating presence in it.');
      return answer;
    });
  }

  @SubscribeMessage('presence.leave')
  leave(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack<{ workspaceId: string }>> {
    return this.handle(socket, body, async () => {
      const { workspaceId } = leaveSchema.parse(body);
      await this.sockets.drop(socket, workspaceId);
      return { workspaceId };
    });
  }

  private handle<T>(socket: Socket, body: unknown, work: (principal: Principal) => Promise<T>): Promise<Ack<T>> {
    return answerSocketMessage(socket, body, { auth: this.auth, logger: this.logger, what: 'presence' }, work);
  }
}
