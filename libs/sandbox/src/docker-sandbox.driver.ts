import { randomBytes } from 'node:crypto';
import { mkdirSync, chownSync } from 'node:fs';
import * as path from 'node:path';
import Docker from 'dockerode';
import { SandboxClient } from './sandbox-client';
import {
  DEFAULT_SANDBOX_LIMITS,
  type ReconcileReport,
  type SandboxDriver,
  type SandboxLimits,
  type SandboxRecord,
  type SandboxSpec,
  type SandboxStatus,
} from './sandbox-driver';
import { containerCreateOptions, poolRecord, recordFromContainer } from './container-spec';
import { ignoreStatus, withTimeout } from './docker-utils';
import { LoopDiskStore } from './loop-disk';
import { openDockerExecStream, openUnixSocketStream, type SandboxStream } from './transports';
import { WorkspaceStorage } from './workspace-storage';

export interface DockerSandboxOptions {
  /** Image tag, e.g. the output of ensureSandboxImage(). */
  image: string;
  docker?: Docker;
  /** Prefix of container and volume names (default 'h-'). Containers are `<prefix>ws-<workspaceId>`. */
  namePrefix?: string;
  /**
   * Host dir with one sub-dir per workspace holding the egress proxy's socket (libs/egress);
   * needed for specs with network 'egress'. Containers always run with Docker's network `none`.
   */
  egressSocketDir?: string;
  /**
   * Disk budgets: host dir of the workspaces' ext4 images (see LoopDiskStore; needs root). Unset:
   * named Docker volumes without a size limit.
   */
  diskDir?: string;
  /** Default budget in MiB for new workspace volumes when diskDir is set (default 2048). */
  diskMb?: number;
  /** OCI runtime for sandboxes, e.g. 'runsc' (check it with probeRuntime first); default: the engine's. */
  runtime?: string;
  limits?: Partial<SandboxLimits>;
  /** Pre-started containers kept ready for new workspaces (default 0 = no pool). */
  poolSize?: number;
  /** Stop a sandbox after this long without requests (default 15 min; 0 = never). */
  idleTimeoutMs?: number;
  /** Called with the container name after the idle sweeper stopped a sandbox. */
  onIdleStop?: (name: string) => void;
  /** Added to every container and volume (e.g. { 'h.test': '1' }); reconcile only looks at these. */
  extraLabels?: Record<string, string>;
  /**
   * Host directory under which each sandbox's socket dir is bind-mounted; when set, clients connect
   * to the unix socket directly instead of through a `docker exec` bridge. Needs a local engine.
   */
  hostSocketDir?: string;
  /** uid:gid the daemon and all commands run as (the image's `h` user). */
  user?: string;
  /** Remove volumes no record references during reconcile (default false: data is precious). */
  removeOrphanVolumes?: boolean;
  /** Longest JSON-RPC line accepted from a sandbox (default HOST_RPC_MAX_LINE_BYTES). */
  rpcMaxLineBytes?: number;
  /** How long start waits for the daemon to answer. */
  readyTimeoutMs?: number;
}

export const LABEL_MANAGED = 'h.managed';
export const LABEL_TEAM = 'h.team';
export const LABEL_WORKSPACE = 'h.workspace';
export const LABEL_POOL = 'h.pool';
/** The driver's name prefix: reconcile only ever touches its own namespace. */
export const LABEL_NAMESPACE = 'h.ns';

interface WarmEntry {
  record: SandboxRecord;
  client: SandboxClient;
}

type ContainerInfo = Docker.ContainerInspectInfo;

/**
 * One container + one named volume (at /workspace) per workspace, locked down: no network by
 * default, read-only root, tmpfs /tmp and $HOME, non-root, all capabilities dropped,
 * no-new-privileges, CPU/memory/pids limits, no Docker socket. See libs/sandbox/README.md.
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
  private readonly clients = new Map<string, SandboxClient>();
  private readonly connecting = new Map<string, Promise<SandboxClient>>();
  private readonly locks = new Map<string, Promise<unknown>>();
  private readonly lastActivity = new Map<string, number>();
  private readonly pool: WarmEntry[] = [];
  private poolFilling: Promise<void> | null = null;
  private sweeper: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly opts: DockerSandboxOptions) {
    this.docker = opts.docker ?? new Docker();
    this.prefix = opts.namePrefix ?? 'h-';
    this.user = opts.user ?? '1000:1000';
    // One disk dir per namespace, so reconcile only ever sees its own images.
    const disks = opts.diskDir ? new LoopDiskStore(path.join(opts.diskDir, this.prefix.replace(/[^A-Za-z0-9_.-]/g, '_')), this.user) : null;
    this.storage = new WorkspaceStorage(this.docker, disks);
    this.diskMb = disks ? (opts.diskMb ?? 2048) || undefined : undefined;
    this.limits = { ...DEFAULT_SANDBOX_LIMITS, ...opts.limits };
    const idle = opts.idleTimeoutMs ?? 15 * 60_000;
    if (idle > 0) {
      this.sweeper = setInterval(() => void this.stopIdle(idle), Math.min(60_000, Math.max(1000, idle / 4)));
      this.sweeper.unref();
    }
  }

  containerName(workspaceId: string): string {
    return `${this.prefix}ws-${workspaceId}`;
  }

  ensure(spec: SandboxSpec, record?: SandboxRecord | null): Promise<SandboxRecord> {
    return this.serialized(spec.workspaceId, async () => {
      if (record) {
        const network = spec.network ?? (record.network === 'egress' ? 'egress' : 'none');
        const limits = spec.limits ?? record.limits;
        if (network !== record.network || JSON.stringify(limits ?? {}) !== JSON.stringify(record.limits ?? {})) {
          // Network access (the egress mount) and limits are fixed at create: re-create the
          // container on the same volume. A record from before the egress proxy ('bridge') too.
          this.dropClient(record.name);
          await this.docker.getContainer(record.name).remove({ force: true }).catch(ignoreStatus(404));
          return this.startLocked({ ...record, network, limits });
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
        ...(this.budgetFor(spec) ? { diskMb: this.budgetFor(spec) } : {}),
        createdAt: new Date().toISOString(),
      };
      return this.startLocked(fresh);
    });
  }

  start(record: SandboxRecord): Promise<SandboxRecord> {
    return this.serialized(record.workspaceId, () => this.startLocked(record));
  }

  async stop(record: SandboxRecord): Promise<void> {
    this.dropClient(record.name);
    const info = await this.inspect(record.name);
    if (info?.State.Running) {
      await this.docker.getContainer(info.Id).stop({ t: 2 }).catch(ignoreStatus(304, 404));
    }
  }

  async remove(record: SandboxRecord, options: { keepVolume?: boolean } = {}): Promise<void> {
    this.dropClient(record.name);
    await this.docker.getContainer(record.name).remove({ force: true, v: false }).catch(ignoreStatus(404));
    if (!options.keepVolume) await this.removeVolume(record.volume);
    this.lastActivity.delete(record.name);
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

  async connect(record: SandboxRecord): Promise<SandboxClient> {
    const open = this.clients.get(record.name);
    if (open && !open.closed) return open;
    const inflight = this.connecting.get(record.name);
    if (inflight) return inflight;
    const p = (async () => {
      const running = await this.inspect(record.name);
      if (!running?.State.Running || running.State.Restarting || this.storage.needsAttach(record)) await this.start(record);
      const again = this.clients.get(record.name);
      return again && !again.closed ? again : this.openClient(record.name);
    })().finally(() => this.connecting.delete(record.name));
    this.connecting.set(record.name, p);
    return p;
  }

  isConnected(record: SandboxRecord): boolean {
    const client = this.clients.get(record.name);
    return Boolean(client && !client.closed);
  }

  async claimWarm(spec: SandboxSpec): Promise<SandboxRecord | null> {
    // Warm containers run with the driver's defaults; a workspace asking for another network or
    // other limits gets a cold container (neither can be changed on a running container).
    if ((spec.network ?? 'none') !== 'none' || (spec.limits && Object.keys(spec.limits).length) || this.budgetFor(spec) !== this.diskMb) return null;
    let entry: WarmEntry | undefined;
    while ((entry = this.pool.shift())) {
      if (entry.client.closed) {
        void this.removeQuietly(entry.record, entry.client);
        continue;
      }
      const name = this.containerName(spec.workspaceId);
      try {
        // Labels are immutable, so the claim is the rename: the container's name now says whose it
        // is, and the caller records the pool volume as the workspace's volume.
        await this.docker.getContainer(entry.record.name).rename({ name });
      } catch {
        void this.removeQuietly(entry.record, entry.client);
        continue;
      }
      this.clients.set(name, entry.client);
      this.trackClient(name, entry.client);
      this.touch(name);
      void this.fillPool();
      return {
        ...entry.record,
        workspaceId: spec.workspaceId,
        teamId: spec.teamId,
        name,
        createdAt: new Date().toISOString(),
      };
    }
    void this.fillPool();
    return null;
  }

  /** Tops the warm pool up to poolSize; resolves when it is full. */
  fillPool(): Promise<void> {
    if (this.poolFilling) return this.poolFilling;
    const target = this.opts.poolSize ?? 0;
    this.poolFilling = (async () => {
      while (!this.closed && this.pool.length < target) {
        const id = randomBytes(6).toString('hex');
        const record = poolRecord(`${this.prefix}pool-${id}`, `${this.prefix}vol-pool-${id}`, this.opts.image, this.diskMb);
        try {
          await this.create(record, { [LABEL_POOL]: '1' });
          await this.docker.getContainer(record.name).start();
          const client = await this.openClient(record.name, false);
          if (this.closed) {
            client.close();
            await this.removeQuietly(record);
            break;
          }
          this.pool.push({ record, client });
        } catch {
          await this.removeQuietly(record);
          await this.removeVolume(record.volume).catch(() => undefined);
          break; // engine trouble: retry on the next claim rather than spin
        }
      }
    })().finally(() => (this.poolFilling = null));
    return this.poolFilling;
  }

  get warmCount(): number {
    return this.pool.length;
  }

  async reconcile(known: SandboxRecord[]): Promise<ReconcileReport> {
    const report: ReconcileReport = { removedContainers: [], adoptedPool: [], orphanVolumes: [], removedVolumes: [] };
    const knownNames = new Set(known.map((r) => r.name));
    const knownVolumes = new Set(known.map((r) => r.volume));
    const containers = await this.docker.listContainers({ all: true, filters: { label: this.labelFilters() } });
    const usedVolumes = new Set<string>();
    for (const c of containers) {
      const name = (c.Names[0] ?? '').replace(/^\//, '');
      const vol = this.storage.volumeOf(c.Mounts);
      if (knownNames.has(name) || this.clients.has(name)) {
        if (vol) usedVolumes.add(vol);
        continue;
      }
      const isPool = name.startsWith(`${this.prefix}pool-`);
      // Only warm containers of the current image are worth keeping.
      if (isPool && c.State === 'running' && c.Image === this.opts.image && this.pool.length < (this.opts.poolSize ?? 0) && vol) {
        try {
          const client = await this.openClient(name, false);
          this.pool.push({ record: poolRecord(name, vol, this.opts.image, this.diskMb), client });
          usedVolumes.add(vol);
          report.adoptedPool.push(name);
          continue;
        } catch {
          // unusable: removed below
        }
      }
      await this.docker.getContainer(c.Id).remove({ force: true }).catch(ignoreStatus(404));
      report.removedContainers.push(name);
      // A never-claimed pool container's volume holds nothing of anyone's.
      if (isPool && vol) {
        await this.removeVolume(vol);
        report.removedVolumes.push(vol);
      }
    }
    for (const name of await this.storage.list(this.labelFilters())) {
      if (knownVolumes.has(name) || usedVolumes.has(name) || report.removedVolumes.includes(name)) continue;
      report.orphanVolumes.push(name);
      if (this.opts.removeOrphanVolumes) {
        await this.removeVolume(name);
        report.removedVolumes.push(name);
      }
    }
    // Reconcile is the startup call: once leftovers are sorted out, warm the pool up.
    void this.fillPool();
    return report;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.sweeper) clearInterval(this.sweeper);
    await this.poolFilling;
    const warm = this.pool.splice(0);
    await Promise.all(warm.map((w) => this.removeQuietly(w.record, w.client)));
    for (const name of [...this.clients.keys()]) this.dropClient(name);
  }

  /** Marks a sandbox as used now (requests through connect() do this themselves). */
  touch(name: string): void {
    this.lastActivity.set(name, Date.now());
  }

  // --- internals -------------------------------------------------------------------------------

  private async startLocked(record: SandboxRecord): Promise<SandboxRecord> {
    let info = await this.inspect(record.name);
    if (info && this.storage.needsAttach(record)) {
      // The host restarted: the disk image is not mounted, and a container Docker brought back
      // without it sees an empty, unwritable /workspace. Stop it, mount, start it again.
      this.dropClient(record.name);
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
      this.dropClient(record.name);
      await this.docker.getContainer(record.name).start().catch(ignoreStatus(304));
    }
    // Ready = the daemon answers health over a fresh or existing connection.
    const client = this.clients.get(record.name);
    if (!client || client.closed) await this.openClient(record.name);
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
    let socketDir: string | undefined;
    if (this.opts.hostSocketDir) {
      const [uid, gid] = this.user.split(':').map(Number);
      socketDir = this.socketDir(record.name);
      mkdirSync(socketDir, { recursive: true, mode: 0o700 });
      chownSync(socketDir, uid, gid);
    }
    const createOptions = containerCreateOptions({
      record,
      image: this.opts.image,
      user: this.user,
      limits: { ...this.limits, ...record.limits },
      labels,
      workspace,
      hostSocketDir: socketDir,
      egressHostDir: record.network === 'egress' ? this.egressDir(record) : undefined,
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

  private socketDir(name: string): string {
    return path.join(this.opts.hostSocketDir as string, name);
  }

  /** Connects and waits for health. Pool clients are not registered under their (temporary) name. */
  private async openClient(name: string, register = true): Promise<SandboxClient> {
    const deadline = Date.now() + (this.opts.readyTimeoutMs ?? 20_000);
    let lastErr: unknown;
    while (Date.now() < deadline) {
      let stream: SandboxStream | null = null;
      try {
        stream = this.opts.hostSocketDir
          ? await openUnixSocketStream(path.join(this.socketDir(name), 'sandboxd.sock'), 5000)
          : await openDockerExecStream(this.docker, name, this.user);
        const s = stream;
        const client = new SandboxClient(s.input, s.output, () => s.dispose?.(), { maxLineBytes: this.opts.rpcMaxLineBytes });
        await withTimeout(client.call('health', {}), 10_000);
        if (register) {
          this.clients.set(name, client);
          this.trackClient(name, client);
        }
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

  private trackClient(name: string, client: SandboxClient): void {
    client.on('activity', () => this.touch(name));
    client.on('close', () => {
      if (this.clients.get(name) === client) this.clients.delete(name);
    });
  }

  private dropClient(name: string): void {
    const c = this.clients.get(name);
    this.clients.delete(name);
    c?.close();
  }

  private async stopIdle(idleMs: number): Promise<void> {
    const now = Date.now();
    for (const [name, last] of this.lastActivity) {
      if (now - last < idleMs) continue;
      // Other processes (the api's terminals, another worker) use the same sandbox through their
      // own connections: the daemon, which sees them all, has the last word.
      const info = await this.inspect(name).catch(() => null);
      if (!info?.State.Running) {
        this.lastActivity.delete(name); // stopped or removed elsewhere
        continue;
      }
      try {
        const client = this.clients.get(name) ?? (await this.openClient(name));
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
      this.dropClient(name);
      await this.docker.getContainer(name).stop({ t: 2 }).catch(() => undefined);
      this.opts.onIdleStop?.(name);
    }
  }

  private async waitNotRestarting(name: string, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const info = await this.inspect(name);
      if (!info?.State.Restarting) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  private serialized<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.locks.get(key) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    const tail = next.catch(() => undefined);
    this.locks.set(key, tail);
    void tail.then(() => {
      if (this.locks.get(key) === tail) this.locks.delete(key);
    });
    return next;
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
    return [`${LABEL_MANAGED}=1`, `${LABEL_NAMESPACE}=${this.prefix}`, ...Object.entries(this.opts.extraLabels ?? {}).map(([k, v]) => `${k}=${v}`)];
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
    this.dropClient(record.name);
    const gone = await this.docker
      .getContainer(record.name)
      .remove({ force: true })
      .then(() => true)
      .catch((e: { statusCode?: number }) => e.statusCode !== 404);
    if (gone) await this.removeVolume(record.volume).catch(() => undefined);
  }

}
