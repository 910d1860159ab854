import * as path from 'node:path';
import type Docker from 'dockerode';
import { SandboxClient } from './sandbox-client';
import { withTimeout } from './docker-utils';
import { openDockerExecStream, openUnixSocketStream, type SandboxStream } from './transports';

export interface DockerConnectionOptions {
  docker: Docker;
  /** uid:gid the `docker exec` bridge runs as. */
  user: string;
  /** Set: connect to each sandbox's bind-mounted unix socket instead of through `docker exec`. */
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

  socketDir(name: string): string {
    return path.join(this.opts.hostSocketDir as string, name);
  }

  /** Connects and waits for health. Pool clients are not registered under their (temporary) name. */
  async open(name: string, register = true): Promise<SandboxClient> {
    const deadline = Date.now() + (this.opts.readyTimeoutMs ?? 20_000);
    let lastErr: unknown;
    while (Date.now() < deadline) {
      let stream: SandboxStream | null = null;
      try {
        stream = this.opts.hostSocketDir
          ? await openUnixSocketStream(path.join(this.socketDir(name), 'sandboxd.sock'), 5000)
          : await openDockerExecStream(this.opts.docker, name, this.opts.user);
        const s = stream;
        const client = new SandboxClient(s.input, s.output, () => s.dispose?.(), { maxLineBytes: this.opts.rpcMaxLineBytes });
        await withTimeout(client.call('health', {}), 10_000);
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
