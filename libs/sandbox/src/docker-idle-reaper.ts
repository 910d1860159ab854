import type { SandboxClient } from './sandbox-client';
import { withTimeout } from './docker-utils';

export interface IdleReaperDeps {
  /** Whether the container still runs (false: stopped or removed elsewhere). */
  isRunning(name: string): Promise<boolean>;
  /** This process's client to the sandbox, opened if needed. */
  client(name: string): Promise<SandboxClient>;
  /** Drops this process's client and stops the container (then reports the idle stop). */
  stop(name: string): Promise<void>;
}

/**
 * Stops sandboxes nobody used for `idleMs`. Activity is what this process saw (touch) and, since
 * other processes use the same sandbox through their own connections, what the daemon reports.
 */
export class IdleReaper {
  private readonly lastActivity = new Map<string, number>();
  private readonly timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly idleMs: number,
    private readonly deps: IdleReaperDeps,
  ) {
    if (idleMs > 0) {
      this.timer = setInterval(() => void this.sweep(), Math.min(60_000, Math.max(1000, idleMs / 4)));
      this.timer.unref();
    }
  }

  touch(name: string): void {
    this.lastActivity.set(name, Date.now());
  }

  forget(name: string): void {
    this.lastActivity.delete(name);
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async sweep(): Promise<void> {
    const idleMs = this.idleMs;
    const now = Date.now();
    for (const [name, last] of this.lastActivity) {
      if (now - last < idleMs) continue;
      // Other processes (the api's terminals, another worker) use the same sandbox through their
      // own connections: the daemon, which sees them all, has the last word.
      const running = await this.deps.isRunning(name).catch(() => false);
      if (!running) {
        this.lastActivity.delete(name); // stopped or removed elsewhere
        continue;
      }
      try {
        const client = await this.deps.client(name);
        const h = await withTimeout(client.call('health', {}), 5000);
        // An older daemon without these fields: fall back to what this process saw.
        const inFlight = h.inFlight ?? (client.busy ? 1 : 0);
        const daemonIdle = h.idleMs ?? now - last;
        if (inFlight > 0 || daemonIdle < idleMs) {
          this.lastActivity.set(name, Date.now() - (inFlight > 0 ? 0 : daemonIdle));
          continue;
        }
      } catch {
        // Not answering: stopping it is right either way; the next use starts it again.
      }
      this.lastActivity.delete(name);
      await this.deps.stop(name);
    }
  }
}
