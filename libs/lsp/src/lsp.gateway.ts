import { Logger, OnModuleDestroy } from '@nestjs/common';
import { ConnectedSocket, MessageBody, OnGatewayDisconnect, OnGatewayInit, SubscribeMessage, WebSocketGateway } from '@nestjs/websockets';
import type { Server, Socket } from 'socket.io';
import { z } from 'zod';
import type { Ack, DiagnosticsSnapshot, LspCompletionList, LspHover, LspLocation } from '@h/contracts';
import { AppConfig } from '@h/config';
import { FileSandboxService, normalizeEntryPath, RelaySockets } from '@h/files';
import { AccessService, AuthService, type Principal } from '@h/identity';
import { answerSocketMessage } from '@h/sessions';
import { diagnosticsRoom, LspHub } from './lsp.hub';

/** An editor buffer sent to a language server at most (sandboxd's LSP_MAX_FILE_BYTES). */
export const LSP_SYNC_MAX_CHARS = 2 * 1024 * 1024;
/** Workspaces one socket may follow the diagnostics of at once (an IDE tab follows one). */
export const DIAGNOSTICS_SUBSCRIPTIONS_PER_SOCKET = 8;

const uuid = z.string().uuid();
const path = z.string().min(1).max(4096);
const position = z.object({ workspaceId: uuid, path, line: z.number().int().min(1).max(10_000_000), column: z.number().int().min(1).max(10_000_000) });
const schemas = {
  workspace: z.object({ workspaceId: uuid }),
  sync: z.object({ workspaceId: uuid, path, text: z.string().max(LSP_SYNC_MAX_CHARS) }),
  close: z.object({ workspaceId: uuid, path }),
  position,
};

// Language intelligence on the one Socket.IO server (/api/socket.io), authorised like live files
// with the handshake the SessionGateway authenticated: viewers follow diagnostics and ask for
// completion, hover and definition; members and up send their buffers (`lsp.sync`, `lsp.close`);
// outsiders get NOT_FOUND. Followed workspaces are checked again every SSE_HEARTBEAT_MS.
@WebSocketGateway({ path: '/api/socket.io', serveClient: false })
export class LspGateway implements OnGatewayInit, OnGatewayDisconnect, OnModuleDestroy {
  private readonly logger = new Logger(LspGateway.name);
  private readonly sockets: RelaySockets;

  constructor(
    private readonly auth: AuthService,
    private readonly access: AccessService,
    private readonly hub: LspHub,
    private readonly sandbox: FileSandboxService,
    config: AppConfig,
  ) {
    // No error event of its own when access is gone: the removed member's diagnostics simply stop.
    this.sockets = new RelaySockets({
      key: 'lsp',
      everyMs: () => config.env.SSE_HEARTBEAT_MS,
      deps: { auth, access },
      hub,
      room: diagnosticsRoom,
      max: DIAGNOSTICS_SUBSCRIPTIONS_PER_SOCKET,
      refusal: `A socket follows at most ${DIAGNOSTICS_SUBSCRIPTIONS_PER_SOCKET} workspaces; unsubscribe one first.`,
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

  @SubscribeMessage('diagnostics.subscribe')
  subscribe(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack<DiagnosticsSnapshot>> {
    return this.handle(socket, body, async (principal) => {
      const { workspaceId } = schemas.workspace.parse(body);
      await this.access.check(principal, 'workspace', workspaceId, 'viewer');
      await this.sockets.enter(socket, workspaceId);
      return this.hub.snapshot(workspaceId);
    });
  }

  @SubscribeMessage('diagnostics.unsubscribe')
  unsubscribe(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack<{ workspaceId: string }>> {
    return this.handle(socket, body, async () => {
      const { workspaceId } = schemas.workspace.parse(body);
      await this.sockets.drop(socket, workspaceId);
      return { workspaceId };
    });
  }

  @SubscribeMessage('lsp.sync')
  sync(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack<{ language: string | null }>> {
    return this.handle(socket, body, async (principal) => {
      const { workspaceId, path, text } = schemas.sync.parse(body);
      await this.access.check(principal, 'workspace', workspaceId, 'member');
      const r = await this.sandbox.call(workspaceId, 'lsp.sync', { path: normalizeEntryPath(path), text });
      return { language: typeof r?.language === 'string' ? r.language.slice(0, 40) : null };
    });
  }

  @SubscribeMessage('lsp.close')
  close(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack<null>> {
    return this.handle(socket, body, async (principal) => {
      const { workspaceId, path } = schemas.close.parse(body);
      await this.access.check(principal, 'workspace', workspaceId, 'member');
      await this.sandbox.call(workspaceId, 'lsp.close', { path: normalizeEntryPath(path) });
      return null;
    });
  }

  @SubscribeMessage('lsp.completion')
  completion(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack<LspCompletionList>> {
    return this.positional(socket, body, 'lsp.completion', (r) => ({ items: Array.isArray(r?.items) ? r.items.slice(0, 200) : [], incomplete: r?.incomplete === true }));
  }

  @SubscribeMessage('lsp.hover')
  hover(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack<LspHover | null>> {
    return this.positional(socket, body, 'lsp.hover', (r) => (r && typeof r.contents === 'string' ? { ...r, contents: r.contents.slice(0, 16 * 1024) } : null));
  }

  @SubscribeMessage('lsp.definition')
  definition(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack<{ locations: LspLocation[] }>> {
    return this.positional(socket, body, 'lsp.definition', (r) => ({ locations: Array.isArray(r?.locations) ? r.locations.slice(0, 50) : [] }));
  }

  /** A viewer's question at a position, answered by the file's server (its answer bounded again). */
  private positional<M extends 'lsp.completion' | 'lsp.hover' | 'lsp.definition', T>(socket: Socket, body: unknown, method: M, shape: (r: any) => T): Promise<Ack<T>> {
    return this.handle(socket, body, async (principal) => {
      const { workspaceId, path, line, column } = schemas.position.parse(body);
      await this.access.check(principal, 'workspace', workspaceId, 'viewer');
      return shape(await this.sandbox.call(workspaceId, method, { path: normalizeEntryPath(path), line, column }));
    });
  }

  private handle<T>(socket: Socket, body: unknown, work: (principal: Principal) => Promise<T>): Promise<Ack<T>> {
    return answerSocketMessage(socket, body, { auth: this.auth, logger: this.logger, what: 'lsp' }, work);
  }
}

