import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import Docker from 'dockerode';
import type { SandboxClient } from './sandbox-client';
import { CoalescedConnect } from './coalesced-connect';
import { KeyedLock } from './keyed-lock';
import {
  DEFAULT_SANDBOX_LIMITS,
  type ReconcileReport,
  type SandboxDriver,
  type SandboxLimits,
  type SandboxRecord,
  type SandboxSpec,
  type SandboxStatus,
  type SandboxProcess,
  type SpawnOptions,
} from './sandbox-driver';
import { spawnDockerProcess } from './docker-process';
import { containerCreateOptions, poolRecord, recordFromContainer } from './container-spec';
import { DockerConnections } from './docker-connections';
import type { DockerSandboxOptions } from './docker-sandbox.options';
import { IdleReaper } from './docker-idle-reaper';
import { LABEL_MANAGED, LABEL_NAMESPACE, LABEL_POOL, LABEL_TEAM, LABEL_WORKSPACE, namespaceFilters } from './docker-labels';
import { reconcileContainers } from './docker-reconcile';
import { ignoreStatus } from './docker-utils';
import { WarmPool } from './docker-warm-pool';
import { LoopDiskStore } from './loop-disk';
import { WorkspaceStorage } from './workspace-storage';
import { metrics } from '@h/telemetry';

type ContainerInfo = Docker.ContainerInspectInfo;

/**
 * One container + one named volume (at /workspace) per workspace, locked down: no network by
 * default, read-only root, tmpfs /tmp and $HOME, non-root, all capabilities dropped,
 * no-new-privileges, CPU/memory/pids limits, no Docker socket. See libs/sandbox/README.md.
 * Beside it: its options (docker-sandbox.options.ts), the clients to the daemons
 * (docker-connections.ts), the warm pool (docker-warm-pool.ts), the idle reaper
 * (docker-idle-reaper.ts) and the startup reconcile (docker-reconcile.ts).
 */
export class DockerSandboxDriver implements SandboxDriver {
  readonly kind = 'docker' as const;
  readonly unsafe = false;
  readonly docker: Docker;
  private readonly prefix: string;
  private readonly storage: WorkspaceStorage;
  private readonly diskMb: number | undefined;
  private readonly limits: SandboxLimits;
  private readonly user: string;
  private readonly connections: DockerConnections;
  private readonly clients: CoalescedConnect;
  private readonly locks = new KeyedLock();
  private readonly pool: WarmPool;
  private readonly reaper: IdleReaper;

  constructor(private readonly opts: DockerSandboxOptions) {
    this.docker = opts.docker ?? new Docker();
    this.prefix = opts.namePrefix ?? 'h-';
    this.user = opts.user ?? '1000:1000';
    // One disk dir per namespace, so reconcile only ever sees its own images.
    const disks = opts.diskDir ? new LoopDiskStore(path.join(opts.diskDir, this.prefix.replace(/[^A-Za-z0-9_.-]/g, '_')), this.user) : null;
    this.storage = new WorkspaceStorage(this.docker, disks);
    this.diskMb = disks ? (opts.diskMb ?? 2048) || undefined : undefined;
    this.limits = { ...DEFAULT_SANDBOX_LIMITS, ...opts.limits };
    this.connections = new DockerConnections({
      docker: this.docker,
      user: this.user,
      hostSocketDir: opts.hostSocketDir,
      rpcMaxLineBytes: opts.rpcMaxLineBytes,
      readyTimeoutMs: opts.readyTimeoutMs,
      onActivity: (name) => this.touch(name),
    });
    this.clients = new CoalescedConnect((name) => this.connections.get(name), (name) => this.connections.open(name));
    this.pool = new WarmPool({
      docker: this.docker,
      size: opts.poolSize ?? 0,
      newRecord: () => {
        const id = randomBytes(6).toString('hex');
        return poolRecord(`${this.prefix}pool-${id}`, `${this.prefix}vol-pool-${id}`, this.opts.image, this.diskMb, Boolean(this.opts.modelGatewaySocketDir));
      },
      create: (record) => this.create(record, { [LABEL_POOL]: '1' }),
      openClient: (name) => this.connections.open(name, false),
      discard: (record, client) => this.removeQuietly(record, client),
      removeVolume: (name) => this.removeVolume(name),
    });
    this.reaper = new IdleReaper(opts.idleTimeoutMs ?? 15 * 60_000, {
      isRunning: async (name) => Boolean((await this.inspect(name))?.State.Running),
      client: async (name) => this.connections.get(name) ?? (await this.connections.open(name)),
      stop: async (name) => {
        this.connections.drop(name);
        await this.docker.getContainer(name).stop({ t: 2 }).catch(() => undefined);
        this.opts.onIdleStop?.(name);
      },
    });
  }

  containerName(workspaceId: string): string {
    return `${this.prefix}ws-${workspaceId}`;
  }

  ensure(spec: SandboxSpec, record?: SandboxRecord | null): Promise<SandboxRecord> {
    return this.locks.run(spec.workspaceId, async () => {
      if (record) {
        const network = spec.network ?? (record.network === 'egress' ? 'egress' : 'none');
        const limits = spec.limits ?? record.limits;
        const gatewayMissing = Boolean(this.opts.modelGatewaySocketDir) && !record.modelGateway;
        if (network !== record.network || gatewayMissing || JSON.stringify(limits ?? {}) !== JSON.stringify(record.limits ?? {})) {
          // Network access (the egress mount) and limits are fixed at create: re-create the
          // container on the same volume. A record from before the egress proxy ('bridge') too.
          this.connections.drop(record.name);
          await this.docker.getContainer(record.name).remove({ force: true }).catch(ignoreStatus(404));
          // A sandbox from before the model gateway mount gets it the same way.
          return this.startLocked({ ...record, network, limits, ...(this.opts.modelGatewaySocketDir ? { modelGateway: true } : {}) });
        }
        return this.startLocked(record);
      }
      // A container from an earlier attempt whose record was never saved: adopt it.
      const existing = await this.inspect(this.containerName(spec.workspaceId));
      if (existing) {
        const volume = this.storage.volumeOf(existing.Mounts) ?? `${this.prefix}vol-${spec.workspaceId}`;
        const diskMb = this.storage.disks?.sizeMb(volume);
        return this.startLocked(recordFromContainer(spec, existing, volume, diskMb));
      }
      const warm = await this.claimWarm(spec);
      if (warm) return warm;
      const fresh: SandboxRecord = {
        driver: 'docker',
        workspaceId: spec.workspaceId,
        teamId: spec.teamId,
        name: this.containerName(spec.workspaceId),
        volume: `${this.prefix}vol-${spec.workspaceId}`,
        image: this.opts.image,
        network: spec.network ?? 'none',
        limits: spec.limits,
        ...(this.opts.modelGatewaySocketDir ? { modelGateway: true } : {}),
        ...(this.budgetFor(spec) ? { diskMb: this.budgetFor(spec) } : {}),
        createdAt: new Date().toISOString(),
      };
      return this.startLocked(fresh);
    });
  }

  start(record: SandboxRecord): Promise<SandboxRecord> {
    return this.locks.run(record.workspaceId, () => this.startLocked(record));
  }

  async stop(record: SandboxRecord): Promise<void> {
    this.connections.drop(record.name);
    const info = await this.inspect(record.name);
    if (info?.State.Running) {
      await this.docker.getContainer(info.Id).stop({ t: 2 }).catch(ignoreStatus(304, 404));
    }
  }

  async remove(record: SandboxRecord, options: { keepVolume?: boolean } = {}): Promise<void> {
    this.connections.drop(record.name);
    await this.docker.getContainer(record.name).remove({ force: true, v: false }).catch(ignoreStatus(404));
    this.connections.removeSocketDir(record.name);
    if (!options.keepVolume) await this.removeVolume(record.volume);
    this.reaper.forget(record.name);
  }

  async status(record: SandboxRecord): Promise<SandboxStatus> {
    const info = await this.inspect(record.name);
    if (!info) return { state: 'missing', driver: 'docker', unsafe: false };
    const s = info.State;
    return {
      state: s.Restarting ? 'restarting' : s.Running ? 'running' : 'stopped',
      driver: 'docker',
      unsafe: false,
      containerId: info.Id,
      image: info.Config.Image,
      exitCode: s.Running ? undefined : s.ExitCode,
      oomKilled: s.OOMKilled,
    };
  }

  connect(record: SandboxRecord): Promise<SandboxClient> {
    return this.clients.connect(record.name, async () => {
      const running = await this.inspect(record.name);
      if (!running?.State.Running || running.State.Restarting || this.storage.needsAttach(record)) await this.start(record);
    });
  }

  /** A process in the sandbox over a `docker exec` attach (docker-process.ts). */
  async spawn(record: SandboxRecord, options: SpawnOptions): Promise<SandboxProcess> {
    await this.connect(record); // running, daemon up
    return spawnDockerProcess(this.docker, record.name, this.user, options);
  }

  /** How this process's client to the sandbox is connected: its daemon's socket, or the exec relay. */
  transport(record: SandboxRecord): 'socket' | 'exec' | undefined {
    return this.connections.transport(record.name);
  }

  isConnected(record: SandboxRecord): boolean {
    const client = this.connections.get(record.name);
    return Boolean(client && !client.closed);
  }

  async claimWarm(spec: SandboxSpec): Promise<SandboxRecord | null> {
    // Warm containers run with the driver's defaults; a workspace asking for another network or
    // other limits gets a cold container (neither can be changed on a running container).
    if ((spec.network ?? 'none') !== 'none' || (spec.limits && Object.keys(spec.limits).length) || this.budgetFor(spec) !== this.diskMb) return null;
    const name = this.containerName(spec.workspaceId);
    const entry = await this.pool.claim(name);
    // Only with a pool configured: with none, every start would count as a miss.
    if (this.opts.poolSize) metrics.warmPoolClaims.inc({ result: entry ? 'hit' : 'miss' });
    if (!entry) {
      void this.pool.fill();
      return null;
    }
    this.connections.adopt(name, entry.client);
    // The container keeps the socket dir of its pool name (its bind mount): the workspace name's
    // dir points there, so a reconnect finds the socket under the new name too.
    this.connections.linkSocketDir(entry.record.name, name);
    this.touch(name);
    void this.pool.fill();
    return {
      ...entry.record,
      workspaceId: spec.workspaceId,
      teamId: spec.teamId,
      name,
      createdAt: new Date().toISOString(),
    };
  }

  /** Tops the warm pool up to poolSize; resolves when it is full. */
  fillPool(): Promise<void> {
    return this.pool.fill();
  }

  get warmCount(): number {
    return this.pool.count;
  }

  async reconcile(known: SandboxRecord[]): Promise<ReconcileReport> {
    const report = await reconcileContainers(known, {
      docker: this.docker,
      storage: this.storage,
      prefix: this.prefix,
      image: this.opts.image,
      labelFilters: this.labelFilters(),
      hasClient: (name) => this.connections.has(name),
      poolWantsMore: () => this.pool.wantsMore,
      adoptWarm: async (name, volume) => {
        const client = await this.connections.open(name, false);
        this.pool.adopt({ record: poolRecord(name, volume, this.opts.image, this.diskMb), client });
      },
      removeVolume: (name) => this.removeVolume(name),
      removeOrphanVolumes: this.opts.removeOrphanVolumes,
    });
    // Reconcile is the startup call: once leftovers are sorted out, warm the pool up.
    void this.pool.fill();
    return report;
  }

  async close(): Promise<void> {
    this.reaper.close();
    await this.pool.close();
    for (const name of this.connections.names()) this.connections.drop(name);
  }

  /** Marks a sandbox as used now (requests through connect() do this themselves). */
  touch(name: string): void {
    this.reaper.touch(name);
  }

  // --- internals -------------------------------------------------------------------------------

  private async startLocked(record: SandboxRecord): Promise<SandboxRecord> {
    let info = await this.inspect(record.name);
    if (info && this.storage.needsAttach(record)) {
      // The host restarted: the disk image is not mounted, and a container Docker brought back
      // without it sees an empty, unwritable /workspace. Stop it, mount, start it again.
      this.connections.drop(record.name);
      await this.docker.getContainer(info.Id).stop({ t: 2 }).catch(ignoreStatus(304, 404));
      await this.storage.prepare(record, {});
      info = await this.inspect(record.name);
    }
    const stale = info && (info.Config.Image !== this.opts.image || (info.HostConfig.Runtime ?? 'runc') !== (this.opts.runtime ?? 'runc'));
    if (info && stale && !info.State.Running && !info.State.Restarting) {
      // A stopped container of an older image or another runtime: re-create it on the same volume.
      await this.docker.getContainer(info.Id).remove({ force: true }).catch(ignoreStatus(404));
      info = null;
    }
    if (!info) {
      await this.create(record, {});
      info = await this.inspect(record.name);
      if (!info) throw new Error(`container ${record.name} vanished after create`);
    }
    if (info.State.Restarting) await this.waitNotRestarting(record.name);
    const now = await this.inspect(record.name);
    if (!now?.State.Running) {
      this.connections.drop(record.name);
      await this.docker.getContainer(record.name).start().catch(ignoreStatus(304));
    }
    // Ready = the daemon answers health over a fresh or existing connection.
    const client = this.connections.get(record.name);
    if (!client || client.closed) await this.connections.open(record.name);
    this.touch(record.name);
    return { ...record, containerId: info.Id, image: info.Config.Image };
  }

  private async create(record: SandboxRecord, extra: Record<string, string>): Promise<void> {
    const labels: Record<string, string> = {
      [LABEL_MANAGED]: '1',
      [LABEL_NAMESPACE]: this.prefix,
      ...(record.workspaceId ? { [LABEL_WORKSPACE]: record.workspaceId, [LABEL_TEAM]: record.teamId } : {}),
      ...this.opts.extraLabels,
      ...extra,
    };
    const workspace = await this.storage.prepare(record, labels);
    const stateVolume = await this.storage.prepareState(record, labels);
    const socketDir = this.connections.prepareSocketDir(record.name);
    // Docker would create a missing bind source as root-only; the gateway's sockets need it readable.
    if (this.opts.modelGatewaySocketDir) mkdirSync(this.opts.modelGatewaySocketDir, { recursive: true, mode: 0o755 });
    const createOptions = containerCreateOptions({
      record,
      image: this.opts.image,
      user: this.user,
      limits: { ...this.limits, ...record.limits },
      labels,
      workspace,
      stateVolume,
      hostSocketDir: socketDir,
      egressHostDir: record.network === 'egress' ? this.egressDir(record) : undefined,
      modelGatewayHostDir: this.opts.modelGatewaySocketDir,
      runtime: this.opts.runtime,
    });
    await this.docker.createContainer(createOptions).catch(ignoreStatus(409));
  }

  private egressDir(record: SandboxRecord): string {
    if (!this.opts.egressSocketDir) throw new Error('network access needs the egress proxy (egressSocketDir is not set)');
    return path.join(this.opts.egressSocketDir, record.workspaceId);
  }

  /** The disk budget a new volume for this spec gets (undefined: none). */
  private budgetFor(spec: SandboxSpec): number | undefined {
    if (!this.storage.disks) return undefined;
    return (spec.diskMb ?? this.diskMb) || undefined;
  }

  private async waitNotRestarting(name: string, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const info = await this.inspect(name);
      if (!info?.State.Restarting) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  }


  private async inspect(name: string): Promise<ContainerInfo | null> {
    try {
      return await this.docker.getContainer(name).inspect();
    } catch (e) {
      if ((e as { statusCode?: number }).statusCode === 404) return null;
      throw e;
    }
  }

  private labelFilters(): string[] {
    return namespaceFilters(this.prefix, this.opts.extraLabels);
  }

  private removeVolume(name: string): Promise<void> {
    return this.storage.remove(name);
  }

  /**
   * Discards a warm (never claimed by us) container. Its volume goes only if the container was still
   * there under its pool name: if another process renamed (claimed) it meanwhile, the volume is
   * that workspace's now.
   */
  private async removeQuietly(record: SandboxRecord, client?: SandboxClient): Promise<void> {
    client?.close();
    this.connections.drop(record.name);
    const gone = await this.docker
      .getContainer(record.name)
      .remove({ force: true })
      .then(() => true)
      .catch((e: { statusCode?: number }) => e.statusCode !== 404);
    if (gone) this.connections.removeSocketDir(record.name);
    if (gone) await this.removeVolume(record.volume).catch(() => undefined);
  }
}

