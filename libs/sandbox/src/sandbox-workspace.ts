import {
  WorkspaceError,
  type DirEntry,
  type ExecOptions,
  type ExecResult,
  type FileStat,
  type FindFilesOptions,
  type GrepOptions,
  type GrepResult,
  type ListOptions,
  type ListResult,
  type ReadOptions,
  type Workspace,
} from '@h/contracts';
import { RpcError, WORKSPACE_ROOT, type SandboxMethod, type SandboxMethods } from '@h/sandbox-protocol';
import { toWorkspaceError, type SandboxClient } from './sandbox-client';

/** Supplies a connected client; for a driver, `() => driver.connect(record)` (starts on demand). */
export type SandboxClientProvider = () => Promise<SandboxClient>;

/** Largest file read from a sandbox in one call unless the owner says otherwise (SANDBOX_READ_MAX_BYTES). */
export const DEFAULT_READ_MAX_BYTES = 10 * 1024 * 1024;

// Calls that can be repeated safely after the connection dropped (daemon restarted, idle stop).
const IDEMPOTENT = new Set<SandboxMethod>(['fs.read', 'fs.stat', 'fs.list', 'fs.find', 'fs.grep', 'fs.mkdir', 'fs.write']);

/**
 * The engine's Workspace over a sandbox: every agent tool runs inside the workspace container.
 * Errors are WorkspaceError with the contract's codes.
 */
export class SandboxWorkspace implements Workspace {
  readonly root = WORKSPACE_ROOT;
  private readonly readMaxBytes: number;

  /** @param options.readMaxBytes the host's cap on one file read (SANDBOX_READ_MAX_BYTES), sent with every read */
  constructor(
    private readonly clients: SandboxClientProvider,
    options: { readMaxBytes?: number } = {},
  ) {
    this.readMaxBytes = options.readMaxBytes ?? DEFAULT_READ_MAX_BYTES;
  }

  async readFile(path: string, options: ReadOptions = {}): Promise<Uint8Array> {
    const r = await this.call('fs.read', { path, encoding: 'base64', maxBytes: this.maxBytes(options) });
    const b = Buffer.from(r.content, 'base64');
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  }

  async readTextFile(path: string, options: ReadOptions = {}): Promise<string> {
    return (await this.call('fs.read', { path, encoding: 'utf8', maxBytes: this.maxBytes(options) })).content;
  }

  // The daemon's own default (50 MiB) is not the host's to rely on: every read names its limit.
  private maxBytes(options: ReadOptions): number {
    return Math.min(options.maxBytes ?? this.readMaxBytes, this.readMaxBytes);
  }

  async writeFile(path: string, content: string | Uint8Array): Promise<void> {
    if (typeof content === 'string') await this.call('fs.write', { path, content, encoding: 'utf8' });
    else await this.call('fs.write', { path, content: Buffer.from(content).toString('base64'), encoding: 'base64' });
  }

  stat(path: string): Promise<FileStat | null> {
    return this.call('fs.stat', { path });
  }

  list(path: string, options: ListOptions = {}): Promise<ListResult> {
    return this.call('fs.list', { path, recursive: options.recursive, maxEntries: options.maxEntries }) as Promise<{
      entries: DirEntry[];
      truncated: boolean;
    }>;
  }

  async mkdir(path: string): Promise<void> {
    await this.call('fs.mkdir', { path });
  }

  async rename(from: string, to: string): Promise<void> {
    await this.call('fs.rename', { from, to });
  }

  async remove(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    await this.call('fs.delete', { path, recursive: options.recursive });
  }

  async findFiles(pattern: string, options: FindFilesOptions = {}): Promise<string[]> {
    return (await this.call('fs.find', { pattern, path: options.path, maxResults: options.maxResults })).paths;
  }

  grep(pattern: string, options: GrepOptions = {}): Promise<GrepResult> {
    return this.call('fs.grep', { pattern, ...options });
  }

  async exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    if (options.signal?.aborted) {
      return { exitCode: null, signal: null, stdout: '', stderr: '', timedOut: false, cancelled: true, truncated: false, durationMs: 0 };
    }
    return this.call(
      'exec.run',
      {
        command,
        cwd: options.cwd,
        env: options.env,
        timeoutMs: options.timeoutMs,
        maxOutputBytes: options.maxOutputBytes,
        stdin: options.stdin,
      },
      options.signal,
    );
  }

  private async call<M extends SandboxMethod>(method: M, params: SandboxMethods[M][0], signal?: AbortSignal): Promise<SandboxMethods[M][1]> {
    for (let attempt = 0; ; attempt++) {
      let client: SandboxClient;
      try {
        client = await this.clients();
      } catch (e) {
        throw new WorkspaceError('UNAVAILABLE', `sandbox unavailable: ${e instanceof Error ? e.message : String(e)}`);
      }
      try {
        return await client.call(method, params, signal);
      } catch (e) {
        const dropped = e instanceof RpcError && e.data?.code === 'UNAVAILABLE';
        if (dropped && attempt === 0 && IDEMPOTENT.has(method)) continue;
        throw toWorkspaceError(e);
      }
    }
  }
}
