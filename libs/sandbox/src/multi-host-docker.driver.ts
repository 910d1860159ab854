import type Docker from 'dockerode';
import type { SandboxClient } from './sandbox-client';
import type { ReconcileReport, SandboxDriver, SandboxProcess, SandboxRecord, SandboxSpec, SandboxStatus, SpawnOptions } from './sandbox-driver';
import type { DockerSandboxDriver } from './docker-sandbox.driver';
import { needsSharedFilesystem, placeSandbox, type HostCandidate } from './docker-placement';
import { TimeoutError, withTimeout } from './docker-utils';

/** One Docker engine of SANDBOX_DOCKER_HOSTS with the driver that manages sandboxes on it. */
export interface DockerHost {
  name: string;
  docker: Docker;
  driver: DockerSandboxDriver;
  maxSandboxes?: number;
  /** Its engine runs on this machine (engineSharesHost): socket dirs and bind mounts from here work there. */
  sharesFilesystem: boolean;
  /** Label filters selecting this host's sandboxes of this namespace (namespace + host label). */
  labelFilters: string[];
}

/** A call reached a Docker host that does not answer; the message names the host. */
export class SandboxHostUnavailableError extends Error {
  readonly code = 'SANDBOX_HOST_UNAVAILABLE';
  constructor(readonly host: string, cause: unknown) {
    super(`The Docker host "${host}" of this workspace's sandbox does not answer (${cause instanceof Error ? cause.message : String(cause)}); it comes back when that host does, or an admin can move the workspace by deleting its sandbox.`);
  }
}

/** No host can take a new sandbox; the message says why and what to do. */
export class SandboxNoHostError extends Error {
  readonly code = 'SANDBOX_NO_HOST';
}

/** A placement or host failure: its code and message are the user's answer as they are. */
export function isSandboxHostError(err: unknown): err is SandboxHostUnavailableError | SandboxNoHostError {
  return err instanceof SandboxHostUnavailableError || err instanceof SandboxNoHostError;
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOENT', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'ECONNRESET', 'EPIPE']);

/**
 * Sandboxes spread over several Docker engines. A workspace's sandbox is placed once, when first
 * created (docker-placement.ts: healthy, with room, able to give what it asks for, fewest
 * sandboxes), its record says where (`host`, persisted as Sandbox.host), and every later call goes
 * to that host's driver. Each host's driver labels what it creates with the host's name and
 * reconciles, reaps and pools only its own, so two endpoints of one engine never touch each
 * other's containers.
 */
export class MultiHostDockerDriver implements SandboxDriver {
  readonly kind = 'docker' as const;
  readonly unsafe = false;
  private readonly byName: Map<string, DockerHost>;

  constructor(
    private readonly hosts: DockerHost[],
    private readonly options: { diskBudgets: boolean; pingTimeoutMs?: number },
  ) {
    if (!hosts.length) throw new Error('MultiHostDockerDriver needs at least one host');
    this.byName = new Map(hosts.map((h) => [h.name, h]));
  }

  async ensure(spec: SandboxSpec, record?: SandboxRecord | null): Promise<SandboxRecord> {
    // The host's driver rebuilds the record from the spec: the host it lives on is stamped again.
    if (record) return this.on(record, async (h) => ({ ...(await h.driver.ensure(spec, record)), host: h.name }));
    const host = await this.place(spec);
    return this.guard(host, async () => ({ ...(await host.driver.ensure(spec, null)), host: host.name }));
  }

  start(record: SandboxRecord): Promise<SandboxRecord> {
    return this.on(record, async (h) => ({ ...(await h.driver.start(record)), host: h.name }));
  }

  stop(record: SandboxRecord): Promise<void> {
    return this.on(record, (h) => h.driver.stop(record));
  }

  remove(record: SandboxRecord, options?: { keepVolume?: boolean }): Promise<void> {
    return this.on(record, (h) => h.driver.remove(record, options));
  }

  status(record: SandboxRecord): Promise<SandboxStatus> {
    return this.on(record, (h) => h.driver.status(record));
  }

  connect(record: SandboxRecord): Promise<SandboxClient> {
    return this.on(record, (h) => h.driver.connect(record));
  }

  isConnected(record: SandboxRecord): boolean {
    return this.hostOf(record)?.driver.isConnected(record) ?? false;
  }

  spawn(record: SandboxRecord, options: SpawnOptions): Promise<SandboxProcess> {
    return this.on(record, (h) => h.driver.spawn(record, options));
  }

  /** A warm container on the host placement picks (each host keeps its own pool). */
  async claimWarm(spec: SandboxSpec): Promise<SandboxRecord | null> {
    const host = await this.place(spec);
    const warm = await this.guard(host, () => host.driver.claimWarm(spec));
    return warm ? { ...warm, host: host.name } : null;
  }

  /** Each host with the records placed on it; a host that does not answer is skipped (reconciled when it answers again). */
  async reconcile(known: SandboxRecord[]): Promise<ReconcileReport> {
    const report: ReconcileReport = { removedContainers: [], adoptedPool: [], orphanVolumes: [], removedVolumes: [] };
    for (const host of this.hosts) {
      const mine = known.filter((r) => this.hostOf(r) === host);
      const part = await host.driver.reconcile(mine).catch(() => null);
      if (!part) continue;
      report.removedContainers.push(...part.removedContainers);
      report.adoptedPool.push(...part.adoptedPool);
      report.orphanVolumes.push(...part.orphanVolumes);
      report.removedVolumes.push(...part.removedVolumes);
    }
    return report;
  }

  async close(): Promise<void> {
    await Promise.all(this.hosts.map((h) => h.driver.close().catch(() => undefined)));
  }

  /**
   * The engine a sandbox lives on, for exec streams made outside the driver (git import and export,
   * archives: each a long operation, so one ping first turns a host that is down into its named error).
   */
  dockerFor(record: SandboxRecord): Promise<Docker> {
    return this.on(record, async (h) => {
      await withTimeout(h.docker.ping(), this.options.pingTimeoutMs ?? 2_000);
      return h.docker;
    });
  }

  /** Each host's state for placement: a ping and a count of its sandboxes, bounded in time. */
  async candidates(): Promise<HostCandidate[]> {
    return Promise.all(
      this.hosts.map(async (h): Promise<HostCandidate> => {
        const base = { name: h.name, maxSandboxes: h.maxSandboxes, sharesFilesystem: h.sharesFilesystem };
        try {
          const list = await withTimeout(h.docker.listContainers({ all: true, filters: { label: h.labelFilters } }), this.options.pingTimeoutMs ?? 2_000);
          return { ...base, healthy: true, sandboxes: list.length };
        } catch {
          return { ...base, healthy: false, sandboxes: 0 };
        }
      }),
    );
  }

  private async place(spec: SandboxSpec): Promise<DockerHost> {
    const placed = placeSandbox(await this.candidates(), { sharedFilesystem: needsSharedFilesystem(spec, this.options.diskBudgets) });
    if ('error' in placed) throw new SandboxNoHostError(`No Docker host can take this workspace's sandbox: ${placed.detail}. Retry later, or ask an admin to add a host or raise a limit (SANDBOX_DOCKER_HOSTS).`);
    return this.byName.get(placed.host) as DockerHost;
  }

  // Records from before SANDBOX_DOCKER_HOSTS (no host) live on the host named `local`, else the first.
  private hostOf(record: SandboxRecord): DockerHost | undefined {
    if (record.host) return this.byName.get(record.host);
    return this.byName.get('local') ?? this.hosts[0];
  }

  private on<T>(record: SandboxRecord, fn: (host: DockerHost) => Promise<T>): Promise<T> {
    const host = this.hostOf(record);
    if (!host) {
      return Promise.reject(new SandboxHostUnavailableError(record.host ?? 'local', new Error('it is no longer listed in SANDBOX_DOCKER_HOSTS')));
    }
    return this.guard(host, () => fn(host));
  }

  private async guard<T>(host: DockerHost, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      const code = (e as { code?: string }).code;
      throw (code && UNREACHABLE.has(code)) || e instanceof TimeoutError ? new SandboxHostUnavailableError(host.name, e) : e;
    }
  }
}
