import { Injectable, Logger } from '@nestjs/common';
import { WorkspaceRepository } from '@h/db';
import { AppException } from '@h/http';
import { SandboxManager } from '@h/workspaces';
import type { SandboxClient, SandboxRecord } from '@h/sandbox';
import { RpcError, type SandboxMethod, type SandboxMethods } from '@h/sandbox-protocol';
import { filesError, fromSandboxError } from './files.exception';

/** How long the api trusts that an opened sandbox's record still holds before asking again. */
const OPEN_TTL_MS = 30_000;
// Calls that are safe to send again after the connection dropped (sandbox restarted or idle-stopped).
const RETRYABLE = new Set<SandboxMethod>(['fs.read', 'fs.stat', 'fs.list']);

interface Opened {
  record: SandboxRecord;
  at: number;
}

/**
 * The api's way into workspace sandboxes: `SandboxManager.open` (the worker's own path: quota,
 * ensure, record) in the api role, remembered for OPEN_TTL_MS so a file call costs one round
 * trip on the driver's long-lived connection, not a database write.
 */
@Injectable()
export class FileSandboxService {
  private readonly logger = new Logger(FileSandboxService.name);
  private readonly opened = new Map<string, Promise<Opened>>();
  private readonly listeners = new Set<(workspaceId: string, client: SandboxClient) => void>();

  constructor(
    private readonly manager: SandboxManager,
    private readonly workspaces: WorkspaceRepository,
  ) {}

  /** Told whenever a call reached the workspace's sandbox (live files re-arm a dropped watch). */
  onConnected(listener: (workspaceId: string, client: SandboxClient) => void): void {
    this.listeners.add(listener);
  }

  async client(workspaceId: string): Promise<SandboxClient> {
    const { record } = await this.open(workspaceId);
    const client = await (await this.manager.driver()).connect(record);
    for (const l of this.listeners) l(workspaceId, client);
    return client;
  }

  /** One protocol call in the workspace's sandbox, its refusal as the file API's error. */
  async call<M extends SandboxMethod>(workspaceId: string, method: M, params: SandboxMethods[M][0]): Promise<SandboxMethods[M][1]> {
    for (let attempt = 0; ; attempt++) {
      try {
        const client = await this.client(workspaceId);
        return await client.call(method, params);
      } catch (err) {
        const dropped = err instanceof RpcError && err.data?.code === 'UNAVAILABLE';
        if (dropped) this.opened.delete(workspaceId);
        if (dropped && attempt === 0 && RETRYABLE.has(method)) continue;
        throw fromSandboxError(err);
      }
    }
  }

  private async open(workspaceId: string): Promise<Opened> {
    const cached = this.opened.get(workspaceId);
    if (cached) {
      const hit = await cached.catch(() => null);
      if (hit && Date.now() - hit.at < OPEN_TTL_MS) return hit;
      if (this.opened.get(workspaceId) === cached) this.opened.delete(workspaceId);
    }
    const p = (async () => {
      const row = await this.workspaces.findById(workspaceId);
      if (!row) throw AppException.notFound('Workspace');
      const { record } = await this.manager.open(row);
      return { record, at: Date.now() };
    })();
    this.opened.set(workspaceId, p);
    try {
      return await p;
    } catch (err) {
      if (this.opened.get(workspaceId) === p) this.opened.delete(workspaceId);
      const mapped = fromSandboxError(err);
      if (mapped instanceof AppException) throw mapped;
      // Docker's own words go to the log; the caller learns it is on our side and passing.
      this.logger.error({ err, workspaceId }, 'could not open the workspace sandbox for the file API');
      throw filesError('SANDBOX_UNAVAILABLE', 'The workspace sandbox could not be started; try again in a moment. If this stays, an admin can find the cause in the api log.');
    }
  }
}
