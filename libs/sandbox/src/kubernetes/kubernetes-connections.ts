import { withTimeout } from '../docker-utils';
import { SandboxClient } from '../sandbox-client';
import type { KubernetesCalls } from './kubernetes-api';
import { openKubernetesExecStream } from './kubernetes-exec-stream';

export interface KubernetesConnectionOptions {
  api: KubernetesCalls;
  namespace: string;
  rpcMaxLineBytes?: number;
  /** How long open waits for the daemon to answer. */
  readyTimeoutMs: number;
  /** Every request on a client counts as use of that sandbox (the idle reaper's input). */
  onActivity(name: string): void;
}

/** This process's open clients to sandbox daemons, by pod name, each over an exec relay; a closed client drops out. */
export class KubernetesConnections {
  private readonly clients = new Map<string, SandboxClient>();

  constructor(private readonly opts: KubernetesConnectionOptions) {}

  get(name: string): SandboxClient | undefined {
    return this.clients.get(name);
  }

  /** Connects through an exec relay and waits for the daemon's health (it may still be starting). */
  async open(name: string): Promise<SandboxClient> {
    const deadline = Date.now() + this.opts.readyTimeoutMs;
    let lastErr: unknown;
    while (Date.now() < deadline) {
      const stream = await openKubernetesExecStream(this.opts.api.exec, this.opts.namespace, name).catch((e) => ((lastErr = e), null));
      if (stream) {
        const client = new SandboxClient(stream.input, stream.output, () => stream.dispose?.(), { maxLineBytes: this.opts.rpcMaxLineBytes });
        try {
          await withTimeout(client.call('health', {}), 10_000);
          this.clients.set(name, client);
          client.on('activity', () => this.opts.onActivity(name));
          client.on('close', () => {
            if (this.clients.get(name) === client) this.clients.delete(name);
          });
          return client;
        } catch (e) {
          lastErr = e;
          client.close();
        }
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`sandbox ${name} did not become ready: ${lastErr instanceof Error ? lastErr.message : String(lastErr)}`);
  }

  drop(name: string): void {
    const c = this.clients.get(name);
    this.clients.delete(name);
    c?.close();
  }

  closeAll(): void {
    for (const name of [...this.clients.keys()]) this.drop(name);
  }
}
