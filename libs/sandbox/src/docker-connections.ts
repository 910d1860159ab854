import { createHash } from 'node:crypto';
import { chownSync, lstatSync, mkdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import type Docker from 'dockerode';
import { SandboxClient } from './sandbox-client';
import { withTimeout } from './docker-utils';
import { openDockerExecStream, openUnixSocketStream, type SandboxStream } from './transports';

export interface DockerConnectionOptions {
  docker: Docker;
  /** uid:gid the `docker exec` bridge runs as. */
  user: string;
  /**
   * Set: connect to each sandbox's bind-mounted unix socket where it is there, instead of through
   * `docker exec` (which stays the fallback: a container created without the mount, a dir this
   * process cannot see or reach).
   */
  hostSocketDir?: string;
  rpcMaxLineBytes?: number;
  /** How long open waits for the daemon to answer (default 20 s). */
  readyTimeoutMs?: number;
  /** Every request on a registered client counts as use of that sandbox (the idle reaper's input). */
  onActivity(name: string): void;
}

/** This process's open clients to sandbox daemons, by container name; a closed client drops out. */
export class DockerConnections {
  private readonly clients = new Map<string, SandboxClient>();

  constructor(private readonly opts: DockerConnectionOptions) {}

  get(name: string): SandboxClient | undefined {
    return this.clients.get(name);
  }

  has(name: string): boolean {
    return this.clients.has(name);
  }

  names(): string[] {
    return [...this.clients.keys()];
  }

  /** Registers a client opened elsewhere (a claimed warm container's) under its new name. */
  adopt(name: string, client: SandboxClient): void {
    this.clients.set(name, client);
    this.track(name, client);
  }

  /**
   * The host dir bind-mounted as this sandbox's /run/sandboxd. Named by a hash of the container
   * name, so the socket path stays short (a unix socket path has at most 107 bytes) whatever the
   * name prefix.
   */
  socketDir(name: string): string {
    return path.join(this.opts.hostSocketDir as string, createHash('sha256').update(name).digest('hex').slice(0, 16));
  }

  /**
   * Makes the host dir for a new container's daemon socket, owned by the sandbox user (the daemon
   * creates its socket there). Undefined without a shared dir, or when it cannot be made so (e.g.
   * a process not running as root cannot chown): the container then gets its private socket dir
   * and is reached through exec.
   */
  prepareSocketDir(name: string): string | undefined {
    if (!this.opts.hostSocketDir) return undefined;
    const dir = this.socketDir(name);
    try {
      const [uid, gid] = this.opts.user.split(':').map(Number);
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      chownSync(dir, uid, gid);
      return dir;
    } catch {
      rmSync(dir, { recursive: true, force: true });
      return undefined;
    }
  }

  /**
   * A claimed warm container keeps the socket dir of its pool name (its bind mount): the workspace
   * name's dir points there, so a reconnect finds the socket under the new name. Best effort.
   */
  linkSocketDir(poolName: string, name: string): void {
    if (!this.opts.hostSocketDir) return;
    try {
      rmSync(this.socketDir(name), { recursive: true, force: true });
      symlinkSync(this.socketDir(poolName), this.socketDir(name));
    } catch {
      /* reconnects go through exec */
    }
  }

  /** Removes a removed container's socket dir, and the pool-named dir it points to if it is a link. */
  removeSocketDir(name: string): void {
    if (!this.opts.hostSocketDir) return;
    const dir = this.socketDir(name);
    try {
      if (lstatSync(dir).isSymbolicLink()) rmSync(readlinkSync(dir), { recursive: true, force: true });
    } catch {
      /* none */
    }
    rmSync(dir, { recursive: true, force: true });
  }

  /** How the open client to this sandbox is connected (undefined: none open). */
  transport(name: string): 'socket' | 'exec' | undefined {
    return this.clients.has(name) ? this.transports.get(this.clients.get(name) as SandboxClient) : undefined;
  }

  /** Connects and waits for health. Pool clients are not registered under their (temporary) name. */
  async open(name: string, register = true): Promise<SandboxClient> {
    const deadline = Date.now() + (this.opts.readyTimeoutMs ?? 20_000);
    let lastErr: unknown;
    while (Date.now() < deadline) {
      let stream: SandboxStream | null = null;
      try {
        let client = await this.openDirect(name);
        if (!client) {
          stream = await openDockerExecStream(this.opts.docker, name, this.opts.user);
          const s = stream;
          client = this.client(s, 'exec');
          await withTimeout(client.call('health', {}), 10_000);
          // The daemon is up now, so its socket is in the shared dir if there is one (a container
          // just started had none yet): switch to it.
          const direct = await this.openDirect(name);
          if (direct) {
            client.close();
            client = direct;
          }
        }
        if (register) this.adopt(name, client);
        return client;
      } catch (e) {
        lastErr = e;
        stream?.dispose?.();
        // The container may be restarting (daemon killed) or just starting: try again shortly.
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    throw new Error(`sandbox ${name} did not become ready: ${lastErr instanceof Error ? lastErr.message : String(lastErr)}`);
  }

  private readonly transports = new WeakMap<SandboxClient, 'socket' | 'exec'>();

  private client(s: SandboxStream, via: 'socket' | 'exec'): SandboxClient {
    const client = new SandboxClient(s.input, s.output, () => s.dispose?.(), { maxLineBytes: this.opts.rpcMaxLineBytes });
    this.transports.set(client, via);
    return client;
  }

  /**
   * A client over the sandbox's socket in the shared dir, once it answers health; null when there
   * is none to use (no shared dir, no socket there: the container has no mount or its daemon has
   * not started; a stale socket; a path too long; no permission), and the exec relay is used.
   */
  private async openDirect(name: string): Promise<SandboxClient | null> {
    if (!this.opts.hostSocketDir) return null;
    const socketPath = path.join(this.socketDir(name), 'sandboxd.sock');
    if (Buffer.byteLength(socketPath) > 107 || !isSocket(socketPath)) return null;
    let client: SandboxClient | null = null;
    try {
      client = this.client(await openUnixSocketStream(socketPath, 0), 'socket');
      await withTimeout(client.call('health', {}), 2_000);
      return client;
    } catch {
      client?.close();
      return null;
    }
  }

  drop(name: string): void {
    const c = this.clients.get(name);
    this.clients.delete(name);
    c?.close();
  }

  private track(name: string, client: SandboxClient): void {
    client.on('activity', () => this.opts.onActivity(name));
    client.on('close', () => {
      if (this.clients.get(name) === client) this.clients.delete(name);
    });
  }
}

function isSocket(p: string): boolean {
  try {
    return lstatSync(p).isSocket();
  } catch {
    return false;
  }
}
