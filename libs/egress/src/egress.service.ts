import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '@h/config';
import { EgressLogRepository, WorkspaceRepository, type EgressLogInput } from '@h/db';
import { EgressProxy, type EgressLogEntry } from './egress-proxy';

const FLUSH_MS = 1000;
const FLUSH_ROWS = 200;
/** Rows waiting for the database at most; beyond that (database down) the oldest are dropped (still in the log file). */
const MAX_PENDING = 10_000;

/**
 * The egress proxy of this worker (the process that owns sandbox lifecycle): policy from each
 * workspace's row, read at every connection; every connection logged as a structured line and
 * stored in EgressLog (batched) for the admins' recent-connections view.
 */
@Injectable()
export class EgressService implements OnApplicationShutdown {
  private readonly logger = new Logger('Egress');
  readonly proxy: EgressProxy;
  readonly socketDir: string;
  private pending: EgressLogInput[] = [];
  private readonly flushTimer: NodeJS.Timeout;
  private readonly maintenanceTimer: NodeJS.Timeout;

  constructor(
    private readonly config: AppConfig,
    private readonly workspaces: WorkspaceRepository,
    private readonly egressLog: EgressLogRepository,
  ) {
    const env = config.env;
    this.socketDir = config.egressSocketDir;
    this.proxy = new EgressProxy({
      socketDir: this.socketDir,
      policy: async (id) => {
        const w = await this.workspaces.findById(id);
        return w ? { networkEnabled: w.networkEnabled, allowedHosts: w.allowedHosts } : null;
      },
      onLog: (e) => this.record(e),
      allowedPorts: env.EGRESS_PORTS,
      internalHosts: internalHosts(config),
      allowLoopbackForTests: env.H_EGRESS_ALLOW_LOOPBACK_FOR_TESTS,
      connectTimeoutMs: env.EGRESS_CONNECT_TIMEOUT_MS,
      idleTimeoutMs: env.EGRESS_IDLE_TIMEOUT_MS,
      maxConnectionsPerWorkspace: env.EGRESS_MAX_CONNECTIONS,
    });
    if (env.H_EGRESS_ALLOW_LOOPBACK_FOR_TESTS) this.logger.warn('H_EGRESS_ALLOW_LOOPBACK_FOR_TESTS is on: sandboxes may reach loopback servers (tests only)');
    this.flushTimer = setInterval(() => void this.flush(), FLUSH_MS);
    this.flushTimer.unref();
    this.maintenanceTimer = setInterval(() => void this.maintain(), 30_000);
    this.maintenanceTimer.unref();
  }

  /** Serves the workspace's socket (idempotent); call before its network-enabled sandbox starts. */
  serve(workspaceId: string): Promise<void> {
    return this.proxy.serve(workspaceId);
  }

  /** The TCP listener for sandbox pods (Kubernetes driver); `identify` maps a pod IP to its workspace. */
  async serveTcp(port: number, identify: (address: string) => Promise<string | null>): Promise<void> {
    const at = await this.proxy.serveTcp(port, '0.0.0.0', identify);
    this.logger.log(`egress proxy listening on TCP ${at.address}:${at.port} for sandbox pods`);
  }

  stop(workspaceId: string): Promise<void> {
    return this.proxy.stop(workspaceId);
  }

  remove(workspaceId: string): Promise<void> {
    return this.proxy.remove(workspaceId);
  }

  async flush(): Promise<void> {
    if (!this.pending.length) return;
    const rows = this.pending.splice(0, FLUSH_ROWS);
    try {
      await this.egressLog.insertMany(rows);
    } catch (err) {
      this.pending.unshift(...rows);
      if (this.pending.length > MAX_PENDING) this.pending.splice(0, this.pending.length - MAX_PENDING);
      this.logger.warn({ err, pending: this.pending.length }, 'egress log not stored yet; retrying');
    }
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.flushTimer);
    clearInterval(this.maintenanceTimer);
    await this.proxy.close();
    while (this.pending.length) {
      const before = this.pending.length;
      await this.flush();
      if (this.pending.length >= before) break;
    }
  }

  private record(e: EgressLogEntry): void {
    const line = { workspaceId: e.workspaceId, kind: e.kind, host: e.host, port: e.port, allowed: e.allowed, reason: e.reason, address: e.address, bytesIn: e.bytesIn, bytesOut: e.bytesOut, durationMs: e.durationMs };
    if (e.allowed) this.logger.log(line, 'egress connection');
    else this.logger.warn(line, 'egress refused');
    this.pending.push(line);
    if (this.pending.length >= FLUSH_ROWS) void this.flush();
  }

  private async maintain(): Promise<void> {
    // Another worker on this host may have taken a socket over and then exited (its close removes
    // the file): listen again so the sandbox keeps its way out.
    await this.proxy.heal().catch((err) => this.logger.warn({ err }, 'egress socket check failed'));
    const cutoff = new Date(Date.now() - this.config.env.EGRESS_LOG_DAYS * 86_400_000);
    await this.egressLog.pruneBefore(cutoff).catch(() => undefined);
  }
}

/** H's own services: the database, Redis and the api (by public URL and local port). */
function internalHosts(config: AppConfig): { host: string; port?: number }[] {
  const env = config.env;
  const out: { host: string; port?: number }[] = [];
  const add = (url: string | undefined, defaultPort: number) => {
    if (!url) return;
    try {
      const u = new URL(url);
      if (u.hostname) out.push({ host: u.hostname, port: u.port ? Number(u.port) : defaultPort });
    } catch {
      // not a URL: nothing to add
    }
  };
  add(env.DATABASE_URL, 5432);
  add(env.REDIS_URL, 6379);
  add(env.H_PUBLIC_URL, env.H_PUBLIC_URL?.startsWith('https:') ? 443 : 80);
  out.push({ host: 'localhost', port: env.H_PORT });
  return out;
}
