import type { SandboxClient } from './sandbox-client';

/**
 * The clients of one driver by sandbox name: an open one is reused, and callers that arrive while a
 * connect is under way share it (a run's tools, terminals and the file API ask at once). Shared by
 * the Docker and Kubernetes drivers, which differ only in how they make sure the sandbox runs.
 */
export class CoalescedConnect {
  private readonly inflight = new Map<string, Promise<SandboxClient>>();

  constructor(
    /** The client this process holds for the name, if any (DockerConnections/KubernetesConnections.get). */
    private readonly held: (name: string) => SandboxClient | undefined,
    /** Opens a new client to a running sandbox. */
    private readonly open: (name: string) => Promise<SandboxClient>,
  ) {}

  /** `ensureRunning` starts the sandbox when it is not running; it may itself open the client. */
  connect(name: string, ensureRunning: () => Promise<void>): Promise<SandboxClient> {
    const current = this.held(name);
    if (current && !current.closed) return Promise.resolve(current);
    const pending = this.inflight.get(name);
    if (pending) return pending;
    const p = (async () => {
      await ensureRunning();
      const again = this.held(name);
      return again && !again.closed ? again : this.open(name);
    })().finally(() => this.inflight.delete(name));
    this.inflight.set(name, p);
    return p;
  }
}
