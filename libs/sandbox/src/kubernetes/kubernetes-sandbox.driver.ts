import { CoalescedConnect } from '../coalesced-connect';
import { randomBytes } from 'node:crypto';
import type { V1Pod } from '@kubernetes/client-node';
import { IdleReaper } from '../docker-idle-reaper';
import { KeyedLock } from '../keyed-lock';
import { LABEL_MANAGED, LABEL_NAMESPACE, LABEL_POOL, LABEL_WORKSPACE } from '../docker-labels';
import type { SandboxClient } from '../sandbox-client';
import {
  DEFAULT_SANDBOX_LIMITS,
  type ReconcileReport,
  type SandboxDriver,
  type SandboxLimits,
  type SandboxRecord,
  type SandboxSpec,
  type SandboxProcess,
  type SandboxStatus,
  type SpawnOptions,
} from '../sandbox-driver';
import { KubernetesApi, statusOf, type KubernetesCalls } from './kubernetes-api';
import { KubernetesConnections } from './kubernetes-connections';
import { deletePodAndWait, waitPodRunning } from './kubernetes-pod-waits';
import { spawnKubernetesProcess } from './kubernetes-process';
import {
  buildDenyAllPolicy,
  buildEgressPolicy,
  buildPvc,
  buildSandboxPod,
  claimLabels,
  dnsName,
  EGRESS_PROXY_PORT,
  labelValue,
  LABEL_NETWORK,
  sandboxLabels,
  statePvcName,
  SANDBOX_CONTAINER,
} from './kubernetes-manifests';
import type { KubernetesSandboxOptions } from './kubernetes-sandbox.options';

const DEFAULT_PROXY_POD_LABELS = { 'h.egress-proxy': '1' };

/**
 * One pod + one PVC (and a small state PVC) per workspace, in one namespace: the Kubernetes form
 * of the Docker driver (same labels, limits and lockdown; manifests in kubernetes-manifests.ts).
 * Pods cannot be stopped, so stop deletes the pod and keeps the PVCs; start creates it again.
 * sandboxd is reached through the API server's exec (kubernetes-exec-stream.ts); pods have no
 * network but, with network access, the egress proxy (a NetworkPolicy). The warm pool is pods
 * labelled h.pool=1 in the cluster, claimed by a label patch guarded by resourceVersion, so several
 * workers share one pool and a claim is never given twice.
 */
export class KubernetesSandboxDriver implements SandboxDriver {
  readonly kind = 'kubernetes' as const;
  readonly unsafe = false;
  readonly api: KubernetesCalls;
  readonly namespace: string;
  private readonly prefix: string;
  private readonly limits: SandboxLimits;
  private readonly uid: number;
  private readonly gid: number;
  private readonly diskMb: number;
  private readonly connections: KubernetesConnections;
  private readonly clients: CoalescedConnect;
  private readonly locks = new KeyedLock();
  /** Pod name → workspace id, for the idle-stop report (a claimed warm pod keeps its pool name). */
  private readonly workspaceOf = new Map<string, string>();
  private readonly reaper: IdleReaper;
  private filling: Promise<void> | null = null;
  private denyAllApplied: Promise<void> | null = null;
  private closed = false;

  constructor(private readonly opts: KubernetesSandboxOptions) {
    this.api = opts.api ?? KubernetesApi.load(opts.kubeconfig);
    this.namespace = opts.namespace;
    this.prefix = opts.namePrefix ?? 'h-';
    this.limits = { ...DEFAULT_SANDBOX_LIMITS, ...opts.limits };
    [this.uid, this.gid] = (opts.user ?? '1000:1000').split(':').map(Number);
    this.diskMb = opts.diskMb ?? 2048;
    this.connections = new KubernetesConnections({
      api: this.api,
      namespace: this.namespace,
      rpcMaxLineBytes: opts.rpcMaxLineBytes,
      readyTimeoutMs: Math.min(opts.readyTimeoutMs ?? 180_000, 30_000),
      onActivity: (name) => this.reaper.touch(name),
    });
    this.clients = new CoalescedConnect((name) => this.connections.get(name), (name) => this.connections.open(name));
    this.reaper = new IdleReaper(opts.idleTimeoutMs ?? 15 * 60_000, {
      isRunning: async (name) => (await this.api.readPod(this.namespace, name))?.status?.phase === 'Running',
      client: (name) => this.connect({ name } as SandboxRecord),
      stop: async (name) => {
        this.connections.drop(name);
        await this.api.deletePod(this.namespace, name);
        this.opts.onIdleStop?.(name, this.workspaceOf.get(name));
      },
    });
  }

  podName(workspaceId: string): string {
    return dnsName(`${this.prefix}ws-${workspaceId}`);
  }

  ensure(spec: SandboxSpec, record?: SandboxRecord | null): Promise<SandboxRecord> {
    return this.locks.run(spec.workspaceId, async () => {
      if (record) {
        const network = spec.network ?? (record.network === 'egress' ? 'egress' : 'none');
        const limits = spec.limits ?? record.limits;
        if (network !== record.network || JSON.stringify(limits ?? {}) !== JSON.stringify(record.limits ?? {})) {
          // Network access and limits are fixed in a pod's spec: a new pod on the same PVCs.
          await this.deletePodAndWait(record.name);
          return this.startLocked({ ...record, network, limits });
        }
        return this.startLocked(record);
      }
      const name = this.podName(spec.workspaceId);
      // A pod from an earlier attempt whose record was never saved: adopt it.
      const existing = await this.api.readPod(this.namespace, name);
      const warm = existing ? null : await this.claimWarm(spec);
      if (warm) return warm;
      const diskMb = spec.diskMb || this.diskMb;
      return this.startLocked({
        driver: 'kubernetes',
        workspaceId: spec.workspaceId,
        teamId: spec.teamId,
        name,
        volume: dnsName(`${this.prefix}vol-${spec.workspaceId}`),
        image: this.opts.image,
        network: spec.network ?? 'none',
        limits: spec.limits,
        diskMb,
        createdAt: new Date().toISOString(),
      });
    });
  }

  start(record: SandboxRecord): Promise<SandboxRecord> {
    return this.locks.run(record.workspaceId, () => this.startLocked(record));
  }

  async stop(record: SandboxRecord): Promise<void> {
    this.connections.drop(record.name);
    await this.deletePodAndWait(record.name);
  }

  async remove(record: SandboxRecord, options: { keepVolume?: boolean } = {}): Promise<void> {
    this.connections.drop(record.name);
    this.reaper.forget(record.name);
    await this.api.deletePod(this.namespace, record.name, 0);
    await this.api.deleteNetworkPolicy(this.namespace, this.egressPolicyName(record.name));
    if (!options.keepVolume) {
      await this.api.deletePvc(this.namespace, record.volume);
      await this.api.deletePvc(this.namespace, statePvcName(record.volume));
    }
  }

  async status(record: SandboxRecord): Promise<SandboxStatus> {
    const pod = await this.api.readPod(this.namespace, record.name);
    if (!pod || pod.metadata?.deletionTimestamp) {
      // Stopped = the pod is gone but the workspace's files are kept.
      const pvc = await this.api.readPvc(this.namespace, record.volume);
      return { state: pvc ? 'stopped' : 'missing', driver: 'kubernetes', unsafe: false };
    }
    const cs = pod.status?.containerStatuses?.find((c) => c.name === SANDBOX_CONTAINER);
    const terminated = cs?.state?.terminated ?? cs?.lastState?.terminated;
    const running = pod.status?.phase === 'Running' && Boolean(cs?.state?.running);
    return {
      state: running ? 'running' : pod.status?.phase === 'Running' || pod.status?.phase === 'Pending' ? 'restarting' : 'stopped',
      driver: 'kubernetes',
      unsafe: false,
      containerId: pod.metadata?.uid,
      image: pod.spec?.containers[0]?.image,
      exitCode: running ? undefined : terminated?.exitCode,
      oomKilled: terminated?.reason === 'OOMKilled',
    };
  }

  connect(record: SandboxRecord): Promise<SandboxClient> {
    return this.clients.connect(record.name, async () => {
      const pod = await this.api.readPod(this.namespace, record.name);
      if ((pod?.status?.phase !== 'Running' || pod.metadata?.deletionTimestamp) && record.workspaceId) await this.start(record);
    });
  }

  /** A process in the sandbox over an exec with its stdio attached (kubernetes-process.ts). */
  async spawn(record: SandboxRecord, options: SpawnOptions): Promise<SandboxProcess> {
    await this.connect(record); // running, daemon up
    return spawnKubernetesProcess(this.api.exec, this.namespace, record.name, options);
  }

  isConnected(record: SandboxRecord): boolean {
    const client = this.connections.get(record.name);
    return Boolean(client && !client.closed);
  }

  async claimWarm(spec: SandboxSpec): Promise<SandboxRecord | null> {
    // Warm pods have the driver's defaults: another network, other limits or disk get a cold pod.
    if (!this.opts.poolSize || (spec.network ?? 'none') !== 'none' || (spec.limits && Object.keys(spec.limits).length) || (spec.diskMb && spec.diskMb !== this.diskMb)) return null;
    const warm = await this.api.listPods(this.namespace, this.selector({ [LABEL_POOL]: '1' }));
    for (const pod of warm) {
      if (pod.status?.phase !== 'Running' || pod.metadata?.deletionTimestamp) continue;
      try {
        await this.api.patchPodLabels(this.namespace, pod.metadata?.name as string, claimLabels(spec.workspaceId, spec.teamId), pod.metadata?.resourceVersion);
      } catch (e) {
        if (statusOf(e) === 409 || statusOf(e) === 404) continue; // another worker claimed it first
        throw e;
      }
      await Promise.all(
        [pod.spec?.volumes?.find((v) => v.name === 'workspace')?.persistentVolumeClaim?.claimName, pod.spec?.volumes?.find((v) => v.name === 'state')?.persistentVolumeClaim?.claimName]
          .filter((n): n is string => Boolean(n))
          .map((pvc) => this.api.patchPvcLabels(this.namespace, pvc, claimLabels(spec.workspaceId, spec.teamId))),
      );
      void this.fillPool();
      const record = this.recordOfPod(pod, spec);
      this.workspaceOf.set(record.name, spec.workspaceId);
      await this.connections.open(record.name);
      this.reaper.touch(record.name);
      return record;
    }
    void this.fillPool();
    return null;
  }

  /** Creates pool pods until poolSize of them exist in the namespace; resolves when they run. */
  fillPool(): Promise<void> {
    if (this.filling || !this.opts.poolSize) return this.filling ?? Promise.resolve();
    this.filling = (async () => {
      while (!this.closed) {
        const pool = await this.api.listPods(this.namespace, this.selector({ [LABEL_POOL]: '1' }));
        if (pool.filter((p) => !p.metadata?.deletionTimestamp).length >= (this.opts.poolSize ?? 0)) break;
        const id = randomBytes(6).toString('hex');
        const record: SandboxRecord = {
          driver: 'kubernetes', workspaceId: '', teamId: '', name: dnsName(`${this.prefix}pool-${id}`), volume: dnsName(`${this.prefix}vol-pool-${id}`),
          image: this.opts.image, network: 'none', diskMb: this.diskMb, createdAt: new Date().toISOString(),
        };
        try {
          await this.create(record, { [LABEL_POOL]: '1' });
          await this.waitRunning(record.name);
        } catch {
          break; // cluster trouble: retry on the next claim rather than spin
        }
      }
    })().finally(() => (this.filling = null));
    return this.filling;
  }

  async reconcile(known: SandboxRecord[]): Promise<ReconcileReport> {
    await this.ensureDenyAll();
    const names = new Set(known.map((r) => r.name));
    const volumes = new Set(known.flatMap((r) => [r.volume, statePvcName(r.volume)]));
    const report: ReconcileReport = { removedContainers: [], adoptedPool: [], orphanVolumes: [], removedVolumes: [] };
    for (const pod of await this.api.listPods(this.namespace, this.selector())) {
      const name = pod.metadata?.name as string;
      if (pod.metadata?.labels?.[LABEL_POOL] === '1') report.adoptedPool.push(name);
      else if (!names.has(name) && !this.isRecent(pod)) {
        await this.api.deletePod(this.namespace, name, 0);
        report.removedContainers.push(name);
        continue;
      }
      // The PVCs of every pod that stays (warm, known, or another worker's new one) are in use.
      for (const v of pod.spec?.volumes ?? []) if (v.persistentVolumeClaim) volumes.add(v.persistentVolumeClaim.claimName);
    }
    for (const pvc of await this.api.listPvcs(this.namespace, this.selector())) {
      const name = pvc.metadata?.name as string;
      if (volumes.has(name)) continue;
      report.orphanVolumes.push(name);
      if (this.opts.removeOrphanVolumes) {
        await this.api.deletePvc(this.namespace, name);
        report.removedVolumes.push(name);
      }
    }
    void this.fillPool();
    return report;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.reaper.close();
    await this.filling;
    // Warm pods are the cluster's pool, shared by every worker: they stay for the next one.
    this.connections.closeAll();
  }

  /**
   * The workspace of the network-enabled sandbox pod at this IP, or null: how the egress proxy's
   * TCP listener knows whose connection it serves (EgressProxy.serveTcp). Asked per connection,
   * so a pod deleted and its IP reused is never taken for the old workspace.
   */
  async workspaceOfAddress(ip: string): Promise<string | null> {
    const pods = await this.api.listPods(this.namespace, this.selector({ [LABEL_NETWORK]: 'egress' }), `status.podIP=${ip}`);
    const live = pods.filter((p) => !p.metadata?.deletionTimestamp && p.status?.podIP === ip && p.metadata?.labels?.[LABEL_WORKSPACE]);
    return live.length === 1 ? (live[0].metadata?.labels?.[LABEL_WORKSPACE] as string) : null;
  }

  touch(name: string): void {
    this.reaper.touch(name);
  }

  // --- internals -------------------------------------------------------------------------------

  private async startLocked(record: SandboxRecord): Promise<SandboxRecord> {
    let pod = await this.api.readPod(this.namespace, record.name);
    const stale = pod && (pod.spec?.containers[0]?.image !== this.opts.image || ['Succeeded', 'Failed'].includes(pod.status?.phase ?? ''));
    if (pod && (stale || pod.metadata?.deletionTimestamp)) {
      this.connections.drop(record.name);
      await this.deletePodAndWait(record.name);
      pod = null;
    }
    if (!pod) await this.create(record, {});
    await this.waitRunning(record.name);
    const client = this.connections.get(record.name);
    if (!client || client.closed) await this.connections.open(record.name);
    this.reaper.touch(record.name);
    if (record.workspaceId) this.workspaceOf.set(record.name, record.workspaceId);
    const now = await this.api.readPod(this.namespace, record.name);
    return { ...record, driver: 'kubernetes', containerId: now?.metadata?.uid, image: this.opts.image };
  }

  private async create(record: SandboxRecord, extra: Record<string, string>): Promise<void> {
    await this.ensureDenyAll();
    const labels = sandboxLabels(this.prefix, record, { ...this.opts.extraLabels, ...extra });
    const diskMb = record.diskMb ?? this.diskMb;
    await this.api.createPvc(this.namespace, buildPvc(record.volume, diskMb, labels, this.opts.storageClass));
    await this.api.createPvc(this.namespace, buildPvc(statePvcName(record.volume), this.opts.stateDiskMb ?? 1024, labels, this.opts.storageClass));
    if (record.network === 'egress') {
      // `name.namespace`: the proxy runs in another namespace than the sandboxes.
      const proxyNamespace = (this.opts.egressProxyService ?? '').split('.')[1];
      await this.api.applyNetworkPolicy(
        this.namespace,
        buildEgressPolicy({
          name: this.egressPolicyName(record.name),
          podName: record.name,
          labels,
          proxyPodLabels: this.opts.egressProxyPodLabels ?? DEFAULT_PROXY_POD_LABELS,
          proxyNamespace,
        }),
      );
    } else {
      await this.api.deleteNetworkPolicy(this.namespace, this.egressPolicyName(record.name));
    }
    const pod = buildSandboxPod({
      record,
      namespace: this.namespace,
      image: this.opts.image,
      uid: this.uid,
      gid: this.gid,
      limits: { ...this.limits, ...record.limits },
      labels,
      diskMb,
      stateDiskMb: this.opts.stateDiskMb ?? 1024,
      runtimeClass: this.opts.runtimeClass,
      egressProxyUrl: this.opts.egressProxyService ? `http://${this.opts.egressProxyService}:${EGRESS_PROXY_PORT}` : undefined,
    });
    try {
      await this.api.createPod(this.namespace, pod);
    } catch (e) {
      if (statusOf(e) !== 409) throw e;
    }
  }

  /**
   * A pod younger than the grace period may be another worker's that is still being set up (its
   * record not saved yet): with several worker replicas, a booting one must not delete it.
   */
  private isRecent(pod: V1Pod): boolean {
    const created = pod.metadata?.creationTimestamp ? new Date(pod.metadata.creationTimestamp).getTime() : 0;
    return Date.now() - created < (this.opts.reconcileGraceMs ?? 10 * 60_000);
  }

  private egressPolicyName(podName: string): string {
    return dnsName(`${podName}-egress`);
  }

  private ensureDenyAll(): Promise<void> {
    this.denyAllApplied ??= this.api.applyNetworkPolicy(this.namespace, buildDenyAllPolicy(dnsName(`${this.prefix}sandbox-deny-all`), this.prefix)).catch((e) => {
      this.denyAllApplied = null;
      throw e;
    });
    return this.denyAllApplied;
  }

  private waitRunning(name: string): Promise<V1Pod> {
    return waitPodRunning(this.api, this.namespace, name, this.opts.readyTimeoutMs ?? 180_000);
  }

  private deletePodAndWait(name: string): Promise<void> {
    return deletePodAndWait(this.api, this.namespace, name);
  }

  private recordOfPod(pod: V1Pod, spec: SandboxSpec): SandboxRecord {
    const volume = pod.spec?.volumes?.find((v) => v.name === 'workspace')?.persistentVolumeClaim?.claimName as string;
    return {
      driver: 'kubernetes', workspaceId: spec.workspaceId, teamId: spec.teamId, name: pod.metadata?.name as string, volume,
      containerId: pod.metadata?.uid, image: this.opts.image, network: 'none', diskMb: this.diskMb, createdAt: new Date().toISOString(),
    };
  }

  /** Label selector of this driver namespace's objects (plus the extra labels, e.g. tests'). */
  private selector(more: Record<string, string> = {}): string {
    const labels = { [LABEL_MANAGED]: '1', [LABEL_NAMESPACE]: labelValue(this.prefix), ...this.opts.extraLabels, ...more };
    return Object.entries(labels).map(([k, v]) => `${k}=${v}`).join(',');
  }

}
