import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { Server, Socket } from 'socket.io';
import type { DiagnosticsChangedEvent, DiagnosticsSnapshot, FileDiagnostics, LspServerStatus } from '@h/contracts';
import { FileSandboxService, SandboxRelay } from '@h/files';
import type { LspDiagnosticsNotification } from '@h/sandbox-protocol';
import { sanitizeFileDiagnostics } from '@h/tools';

/** Files one notification may carry that are looked at (sandboxd sends at most 100). */
const MAX_FILES_PER_NOTIFICATION = 1000;
const LSP_STATES = new Set(['starting', 'running', 'stopped', 'failed']);

export const diagnosticsRoom = (workspaceId: string) => `diagnostics:${workspaceId}`;

export function sanitizeServers(raw: unknown): LspServerStatus[] {
  return (Array.isArray(raw) ? raw.slice(0, 50) : [])
    .filter((s) => s && typeof s.language === 'string' && typeof s.command === 'string' && LSP_STATES.has(s.state))
    .map((s) => ({ language: String(s.language).slice(0, 40), command: String(s.command).slice(0, 100), state: s.state }));
}

export function sanitizeFiles(raw: unknown): FileDiagnostics[] {
  return (Array.isArray(raw) ? raw.slice(0, MAX_FILES_PER_NOTIFICATION) : []).map(sanitizeFileDiagnostics).filter((f): f is FileDiagnostics => !!f);
}

/**
 * Diagnostics for this api process's sockets, like live files (libs/files files-watch.hub.ts): one
 * listener on the workspace's sandbox connection while a socket of this process is subscribed;
 * sandboxd sends `lsp.diagnostics` to every connection, so each api replica hears them itself and
 * emits to its own sockets only (`server.local`), nothing crosses the Redis adapter twice. A
 * dropped connection is re-armed by the next call that reaches the sandbox, with `reset` so editors
 * refetch (the sandbox may have restarted and its servers with it).
 */
@Injectable()
export class LspHub implements OnModuleDestroy {
  private readonly logger = new Logger(LspHub.name);
  private readonly relay: SandboxRelay<object>;
  private server: Server | null = null;

  constructor(private readonly sandbox: FileSandboxService) {
    this.relay = new SandboxRelay<object>(sandbox, {
      create: () => ({}),
      listen: (w, client) => {
        const onDiagnostics = (n: LspDiagnosticsNotification) =>
          this.emit({ workspaceId: w.workspaceId, files: sanitizeFiles(n?.files), ...(n?.reset === true ? { reset: true } : {}) });
        client.on('lsp.diagnostics', onDiagnostics);
        return () => client.off('lsp.diagnostics', onDiagnostics);
      },
      // Listening again after a dropped connection: what was published meanwhile was not heard.
      rearmed: (w) => this.emit({ workspaceId: w.workspaceId, files: [], reset: true }),
    });
  }

  attach(server: Server): void {
    this.server = server;
  }

  async add(workspaceId: string, socket: Socket): Promise<void> {
    await this.relay.add(workspaceId, socket);
  }

  remove(workspaceId: string, socketId: string): void {
    this.relay.remove(workspaceId, socketId);
  }

  /** Everything the sandbox's servers know now. */
  async snapshot(workspaceId: string): Promise<DiagnosticsSnapshot> {
    const r = await this.sandbox.call(workspaceId, 'lsp.diagnostics', {});
    return { workspaceId, files: sanitizeFiles(r?.files), servers: sanitizeServers(r?.servers) };
  }

  onModuleDestroy(): void {
    this.relay.stopAll();
  }

  private emit(event: DiagnosticsChangedEvent): void {
    if (!event.files.length && !event.reset) return;
    if (!this.server) {
      this.logger.warn({ workspaceId: event.workspaceId }, 'diagnostics before the socket server was attached; dropped');
      return;
    }
    this.server.local.to(diagnosticsRoom(event.workspaceId)).emit('diagnostics.changed', event);
  }
}
