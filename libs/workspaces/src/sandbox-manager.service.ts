import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown, Optional } from '@nestjs/common';
import type { Workspace } from '@h/contracts';
import type Docker from 'dockerode';
import { AppConfig, type DockerHostConfig } from '@h/config';
import { QuotaExceededError, SandboxRepository } from '@h/db';
import { EgressService } from '@h/egress';
import {
  dockerClient,
  EGRESS_PROXY_PORT,
  DockerSandboxDriver,
  LABEL_HOST,
  MultiHostDockerDriver,
  namespaceFilters,
  type DockerHost,
  type DockerSandboxOptions,
  engineSharesHost,
  ensureSandboxImage,
  KubernetesSandboxDriver,
  LocalSandboxDriver,
  loopDiskUnavailableReason,
  probeRuntime,
  SandboxDriver,
  SandboxRecord,
  sandboxRecordSchema,
  SandboxWorkspace,
} from '@h/sandbox';

/**
 * Which process holds this manager. `worker` (the default) owns the lifecycle: reconcile at boot,
 * the warm pool. `api` (the file API and live files, libs/files) reaches the same sandboxes through
 * the same records and `open`, but never reconciles (a boot-time sweep could remove a container a
 * worker is creating) and keeps no warm pool.
 */
export const SANDBOX_MANAGER_ROLE = 'h:sandbox-manager-role';
export type SandboxManagerRole = 'worker' | 'api';

// The worker's side of sandboxes: one driver per process, records persisted in Postgres so any
// worker can reach any workspace's container, and a reconcile pass at boot for orphans.
@Injectable()
export class SandboxManager implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SandboxManager.name);
  private driverPromise: Promise<SandboxDriver> | null = null;
  private defaultDocker: Docker | null = null;
  /** What open() returned per workspace, reused while the driver's client to it stays open. */
  private readonly opened = new Map<string, { networkEnabled: boolean; workspace: Workspace; record: SandboxRecord }>();

  constructor(
    private readonly config: AppConfig,
    private readonly sandboxes: SandboxRepository,
    private readonly egress: EgressService,
    @Optional() @Inject(SANDBOX_MANAGER_ROLE) private readonly role: SandboxManagerRole = 'worker',
  ) {}

  onApplicationBootstrap(): void {
    if (this.role === 'api') return; // the driver is made on first use
    // Building the image can take minutes on a new machine: never hold up the worker's boot.
    void this.driver()
      .then(async (driver) => {
        const known = (await this.sandboxes.listRecords()).flatMap((r) => {
          const parsed = sandboxRecordSchema.safeParse(r);
          return parsed.success ? [parsed.data as SandboxRecord] : [];
        });
        // Sandbox pods reach the egress proxy over the cluster network (the chart's egress Service).
        if (driver instanceof KubernetesSandboxDriver) await this.egress.serveTcp(EGRESS_PROXY_PORT, (ip) => driver.workspaceOfAddress(ip));
        const report = await driver.reconcile(known);
        if (report.removedContainers.length) this.logger.warn({ removed: report.removedContainers }, 'removed orphan sandboxes');
        // Sandboxes with network access that run on their own (the worker restarted) keep their way out.
        for (const r of known) if (r.network === 'egress' && r.workspaceId) await this.egress.serve(r.workspaceId);
      })
      .catch((err) => this.logger.error({ err }, 'sandbox driver failed to start; runs will fail until it is fixed'));
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.driverPromise) await (await this.driverPromise.catch(() => null))?.close();
  }

  /**
   * The Docker engine a sandbox lives on (its placed host under SANDBOX_DOCKER_HOSTS), for exec
   * streams made outside the driver (git import and export); null for other drivers.
   */
  async dockerFor(record: SandboxRecord): Promise<Docker | null> {
    if (record.driver !== 'docker') return null;
    const driver = await this.driver();
    if (driver instanceof MultiHostDockerDriver) return driver.dockerFor(record);
    this.defaultDocker ??= dockerClient(this.config.env.DOCKER_HOST);
    return this.defaultDocker;
  }

  driver(): Promise<SandboxDriver> {
    this.driverPromise ??= this.createDriver();
    this.driverPromise.catch(() => (this.driverPromise = null));
    return this.driverPromise;
  }

  private async createDriver(): Promise<SandboxDriver> {
    const env = this.config.env;
    if (env.SANDBOX_DRIVER === 'local') {
      this.logger.warn('UNSAFE: the local sandbox driver runs agent commands on this host without isolation');
      return new LocalSandboxDriver({
        baseDir: this.config.sandboxLocalDir,
        multiUser: true,
        allowUnsafe: env.H_ALLOW_LOCAL_SANDBOX,
        rpcMaxLineBytes: env.SANDBOX_RPC_MAX_LINE_BYTES,
      });
    }
    if (env.SANDBOX_DRIVER === 'kubernetes') return this.kubernetesDriver();
    if (env.SANDBOX_DOCKER_HOSTS) return this.multiHostDriver(env.SANDBOX_DOCKER_HOSTS);
    const image = env.SANDBOX_IMAGE ?? (await ensureSandboxImage());
    const docker = dockerClient(env.DOCKER_HOST);
    let socketDir = this.config.sandboxSocketDir;
    if (socketDir && this.config.sandboxSocketDirIsDefault && !(await engineSharesHost(docker))) socketDir = undefined;
    this.logger.log(socketDir ? `sandbox calls go to each daemon's socket under ${socketDir} (the exec relay where there is none)` : 'sandbox calls go through docker exec relays');
    return new DockerSandboxDriver(await this.dockerOptions(image, docker, { socketDir, local: true }));
  }

  /**
   * One driver per SANDBOX_DOCKER_HOSTS entry behind MultiHostDockerDriver. A host whose engine runs
   * on this machine gets what needs bind mounts from here (the daemons' sockets, the egress proxy,
   * the model gateway, disk budgets); a remote one is reached through exec relays and takes
   * workspaces that need none of that. Every host must hold SANDBOX_IMAGE (no build is pushed).
   */
  private async multiHostDriver(configs: DockerHostConfig[]): Promise<SandboxDriver> {
    const env = this.config.env;
    const image = env.SANDBOX_IMAGE ?? (await ensureSandboxImage());
    const disks = await this.diskBudget();
    const hosts: DockerHost[] = [];
    for (const c of configs) {
      const docker = dockerClient(c.endpoint);
      const shares = await engineSharesHost(docker);
      const extraLabels = { [LABEL_HOST]: c.name };
      const options = await this.dockerOptions(image, docker, { socketDir: shares ? this.config.sandboxSocketDir : undefined, local: shares, disks });
      const driver = new DockerSandboxDriver({ ...options, extraLabels });
      hosts.push({ name: c.name, docker, driver, maxSandboxes: c.maxSandboxes, sharesFilesystem: shares, labelFilters: namespaceFilters(env.SANDBOX_NAME_PREFIX, extraLabels) });
      this.logger.log(`sandbox host ${c.name} (${c.endpoint}): ${shares ? "this machine's engine" : 'a remote engine (exec relays; no network access or disk budgets there)'}${c.maxSandboxes ? `, at most ${c.maxSandboxes} sandboxes` : ''}`);
    }
    return new MultiHostDockerDriver(hosts, { diskBudgets: Boolean(disks.diskDir) });
  }

  private async dockerOptions(
    image: string,
    docker: Docker,
    host: { socketDir?: string; local: boolean; disks?: { diskDir?: string; diskMb?: number } },
  ): Promise<DockerSandboxOptions> {
    const env = this.config.env;
    const runtime = env.SANDBOX_RUNTIME ? await this.usableRuntime(image, env.SANDBOX_RUNTIME) : undefined;
    return {
      image,
      docker,
      namePrefix: env.SANDBOX_NAME_PREFIX,
      poolSize: this.role === 'api' ? 0 : env.SANDBOX_POOL_SIZE,
      idleTimeoutMs: env.SANDBOX_IDLE_MINUTES * 60_000,
      // The running-sandbox quota counts what the database says runs: keep it true.
      onIdleStop: (name) => {
        const workspaceId = name.slice(`${env.SANDBOX_NAME_PREFIX}ws-`.length);
        void this.sandboxes.setStatus(workspaceId, 'stopped').catch((err) => this.logger.warn({ err, name }, 'could not record an idle stop'));
      },
      limits: { cpus: env.SANDBOX_CPUS, memoryBytes: env.SANDBOX_MEMORY_MB * 1024 * 1024, pids: env.SANDBOX_PIDS },
      // Bind mounts from this machine only where the engine runs on it.
      egressSocketDir: host.local ? this.egress.socketDir : undefined,
      // Every sandbox can reach the model gateway's run sockets (libs/claude-code); both roles mount it alike.
      modelGatewaySocketDir: host.local ? (this.config.modelGatewaySocketDir ?? undefined) : undefined,
      ...(host.local ? (host.disks ?? (await this.diskBudget())) : {}),
      runtime,
      rpcMaxLineBytes: env.SANDBOX_RPC_MAX_LINE_BYTES,
      // Tool calls straight to the daemon's socket where the engine is local (exec relay otherwise).
      hostSocketDir: host.socketDir,
    };
  }

  /** Pods in K8S_NAMESPACE; the image must be pullable by the cluster's nodes (no local build). */
  private kubernetesDriver(): SandboxDriver {
    const env = this.config.env;
    if (!env.SANDBOX_IMAGE) throw new Error('SANDBOX_DRIVER=kubernetes needs SANDBOX_IMAGE: a sandbox image the cluster can pull (infra/sandbox)');
    this.logger.log(`sandboxes are pods in the Kubernetes namespace ${env.K8S_NAMESPACE}`);
    return new KubernetesSandboxDriver({
      image: env.SANDBOX_IMAGE,
      namespace: env.K8S_NAMESPACE,
      kubeconfig: env.KUBECONFIG,
      namePrefix: env.SANDBOX_NAME_PREFIX,
      storageClass: env.K8S_STORAGE_CLASS,
      // The PVC's size is the budget: no loop devices, the storage class enforces it.
      diskMb: env.SANDBOX_DISK_MB || undefined,
      runtimeClass: env.SANDBOX_RUNTIME,
      egressProxyService: env.K8S_EGRESS_PROXY_SERVICE,
      poolSize: this.role === 'api' ? 0 : env.SANDBOX_POOL_SIZE,
      idleTimeoutMs: env.SANDBOX_IDLE_MINUTES * 60_000,
      onIdleStop: (name, workspaceId) => {
        if (workspaceId) void this.sandboxes.setStatus(workspaceId, 'stopped').catch((err) => this.logger.warn({ err, name }, 'could not record an idle stop'));
      },
      limits: { cpus: env.SANDBOX_CPUS, memoryBytes: env.SANDBOX_MEMORY_MB * 1024 * 1024, pids: env.SANDBOX_PIDS },
      rpcMaxLineBytes: env.SANDBOX_RPC_MAX_LINE_BYTES,
    });
  }

  private async diskBudget(): Promise<{ diskDir?: string; diskMb?: number }> {
    const mb = this.config.env.SANDBOX_DISK_MB;
    if (!mb) return {};
    const why = await loopDiskUnavailableReason();
    if (why) {
      this.logger.warn(`Workspace disk budgets are OFF: ${why}. Workspace volumes can grow until the host disk is full; run the worker as root or set SANDBOX_DISK_MB=0 to silence this.`);
      return {};
    }
    return { diskDir: this.config.sandboxDiskDir, diskMb: mb };
  }

  private async usableRuntime(image: string, runtime: string): Promise<string | undefined> {
    const why = await probeRuntime(image, runtime).catch((e: Error) => e.message);
    if (why) {
      this.logger.warn(`SANDBOX_RUNTIME=${runtime} does not work here (${why}); sandboxes run under Docker's default runtime instead.`);
      return undefined;
    }
    this.logger.log(`sandboxes run under the ${runtime} runtime`);
    return runtime;
  }

  /** A running sandbox for the workspace (started, re-created or claimed from the pool), as a Workspace. */
  async open(workspace: { id: string; teamId: string; networkEnabled: boolean }): Promise<{ workspace: Workspace; record: SandboxRecord }> {
    const driver = await this.driver();
    // The sandbox this process set up and is still connected to needs no Docker inspects and no
    // record read and write per run (bench/runs): a stopped, removed or restarted container closes
    // the client, and a changed network setting goes the long way (it re-creates the container).
    // It is running, so the quota on starting sandboxes does not apply.
    const known = this.opened.get(workspace.id);
    if (known && known.networkEnabled === workspace.networkEnabled && driver.isConnected(known.record)) return known;
    const stored = await this.sandboxes.find(workspace.id);
    if (stored?.status !== 'running') {
      // Starting one more: the team's running sandboxes stay within TEAM_MAX_RUNNING_SANDBOXES.
      const used = await this.sandboxes.countRunning(workspace.teamId, workspace.id);
      const limit = this.config.env.TEAM_MAX_RUNNING_SANDBOXES;
      if (used >= limit) throw new QuotaExceededError('runningSandboxes', used, limit);
    }
    // Network access = the egress proxy's socket in the sandbox; the container's network stays none.
    // (Kubernetes pods reach the cluster's egress proxy Service instead, K8S_EGRESS_PROXY_SERVICE.)
    if (workspace.networkEnabled && driver.kind === 'docker') await this.egress.serve(workspace.id);
    else await this.egress.stop(workspace.id);
    const record = await driver.ensure(
      { workspaceId: workspace.id, teamId: workspace.teamId, network: workspace.networkEnabled ? 'egress' : 'none' },
      stored && stored.driver === driver.kind ? this.parseRecord(stored.record) : null,
    );
    await this.sandboxes.save({
      workspaceId: workspace.id,
      driver: driver.kind,
      status: 'running',
      record: record as unknown as Record<string, unknown>,
      containerId: record.containerId ?? null,
      volumeName: record.volume,
      image: record.image ?? 'local',
      host: record.host,
    });
    const opened = {
      networkEnabled: workspace.networkEnabled,
      workspace: new SandboxWorkspace(() => driver.connect(record), { readMaxBytes: this.config.env.SANDBOX_READ_MAX_BYTES }),
      record,
    };
    this.opened.set(workspace.id, opened);
    return { workspace: opened.workspace, record };
  }

  /** A stored record, or null when it no longer matches the driver's schema (then it is re-created). */
  parseRecord(value: unknown): SandboxRecord | null {
    const parsed = sandboxRecordSchema.safeParse(value);
    return parsed.success ? (parsed.data as SandboxRecord) : null;
  }

  async teardown(record: SandboxRecord): Promise<void> {
    const driver = await this.driver();
    if (record.workspaceId) this.opened.delete(record.workspaceId);
    await driver.remove(record);
    if (record.workspaceId) await this.egress.remove(record.workspaceId);
  }
}
