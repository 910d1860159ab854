import type { Readable, Writable } from 'node:stream';
import type { V1NetworkPolicy, V1PersistentVolumeClaim, V1Pod } from '@kubernetes/client-node';
import { Pod } from 'kubernetes-models/v1';
import type { KubernetesCalls } from './kubernetes-api';
import type { KubernetesExecFn } from './kubernetes-exec-stream';
import { KubernetesSandboxDriver } from './kubernetes-sandbox.driver';

const apiError = (code: number) => Object.assign(new Error(`HTTP ${code}`), { code });
const matches = (labels: Record<string, string> | undefined, selector: string) =>
  selector.split(',').every((kv) => {
    const [k, v] = kv.split('=');
    return labels?.[k] === v;
  });

/**
 * An in-memory API server for the driver's decisions (names, labels, PVCs, policies, claim races,
 * reconcile): pods run as soon as they are created, and exec answers sandboxd's health like the
 * daemon. What the real cluster does is kubernetes-sandbox.int-spec.ts's job (KUBECONFIG).
 */
class MemoryCluster implements KubernetesCalls {
  pods = new Map<string, V1Pod>();
  pvcs = new Map<string, V1PersistentVolumeClaim>();
  policies = new Map<string, V1NetworkPolicy>();
  /** Makes the next claim patch lose a race (another worker relabelled the pod first). */
  stealNextClaim = false;
  private version = 0;
  private ips = 0;

  exec: KubernetesExecFn = async (_ns, pod, _c, _cmd, stdout: Writable, _e, stdin: Readable, _t, onStatus) => {
    if (!this.pods.has(pod)) throw apiError(404);
    stdin.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) stdout.write(`${JSON.stringify({ id: JSON.parse(line).id, result: { ok: true, idleMs: 0, inFlight: 0 } })}\n`);
    });
    return { close: () => onStatus({ status: 'Success' }) };
  };

  async readPod(_ns: string, name: string) {
    return this.pods.get(name) ?? null;
  }
  async listPods(_ns: string, labelSelector: string, fieldSelector?: string) {
    const ip = fieldSelector?.replace('status.podIP=', '');
    return [...this.pods.values()].filter((p) => matches(p.metadata?.labels, labelSelector) && (!ip || p.status?.podIP === ip));
  }
  async createPod(_ns: string, body: V1Pod) {
    const name = body.metadata?.name as string;
    if (this.pods.has(name)) throw apiError(409);
    new Pod(body as never).validate();
    const pod: V1Pod = {
      ...body,
      metadata: { ...body.metadata, uid: `uid-${name}`, resourceVersion: String(++this.version), creationTimestamp: new Date() },
      status: { phase: 'Running', podIP: `10.1.0.${++this.ips}`, containerStatuses: [{ name: 'sandbox', ready: true, restartCount: 0, image: '', imageID: '', state: { running: {} } }] },
    };
    this.pods.set(name, pod);
    return pod;
  }
  async patchPodLabels(_ns: string, name: string, labels: Record<string, string | null>, resourceVersion?: string) {
    const pod = this.pods.get(name);
    if (!pod) throw apiError(404);
    if (this.stealNextClaim) {
      this.stealNextClaim = false;
      const { 'h.pool': _pool, ...rest } = pod.metadata?.labels ?? {};
      pod.metadata = { ...pod.metadata, labels: { ...rest, 'h.workspace': 'someone-else' }, resourceVersion: String(++this.version) };
    }
    if (resourceVersion && resourceVersion !== pod.metadata?.resourceVersion) throw apiError(409);
    const next = { ...pod.metadata?.labels } as Record<string, string>;
    for (const [k, v] of Object.entries(labels)) {
      if (v === null) delete next[k];
      else next[k] = v;
    }
    pod.metadata = { ...pod.metadata, labels: next, resourceVersion: String(++this.version) };
    return pod;
  }
  async deletePod(_ns: string, name: string) {
    this.pods.delete(name);
  }
  async readPvc(_ns: string, name: string) {
    return this.pvcs.get(name) ?? null;
  }
  async listPvcs(_ns: string, labelSelector: string) {
    return [...this.pvcs.values()].filter((p) => matches(p.metadata?.labels, labelSelector));
  }
  async createPvc(_ns: string, body: V1PersistentVolumeClaim) {
    if (!this.pvcs.has(body.metadata?.name as string)) this.pvcs.set(body.metadata?.name as string, body);
  }
  async patchPvcLabels(_ns: string, name: string, labels: Record<string, string | null>) {
    const pvc = this.pvcs.get(name);
    if (pvc) pvc.metadata = { ...pvc.metadata, labels: Object.fromEntries(Object.entries({ ...pvc.metadata?.labels, ...labels }).filter(([, v]) => v !== null)) as Record<string, string> };
  }
  async deletePvc(_ns: string, name: string) {
    this.pvcs.delete(name);
  }
  async applyNetworkPolicy(_ns: string, body: V1NetworkPolicy) {
    this.policies.set(body.metadata?.name as string, body);
  }
  async deleteNetworkPolicy(_ns: string, name: string) {
    this.policies.delete(name);
  }
}

describe(KubernetesSandboxDriver.name, () => {
  let cluster: MemoryCluster;
  let driver: KubernetesSandboxDriver;
  const make = (poolSize = 0) =>
    new KubernetesSandboxDriver({ image: 'h-sandbox:1', namespace: 'h-sandboxes', api: cluster, idleTimeoutMs: 0, poolSize, egressProxyService: 'h-egress-proxy.h' });

  beforeEach(() => {
    cluster = new MemoryCluster();
    driver = make();
  });
  afterEach(() => driver.close());

  it('should create a workspace PVC, a state PVC and a pod behind the namespace deny-all policy', async () => {
    const record = await driver.ensure({ workspaceId: 'w1', teamId: 't1' });
    expect(record).toMatchObject({ driver: 'kubernetes', name: 'h-ws-w1', volume: 'h-vol-w1', network: 'none', diskMb: 2048, containerId: 'uid-h-ws-w1' });
    expect([...cluster.pvcs.keys()].sort()).toEqual(['h-vol-w1', 'h-vol-w1-state']);
    expect(cluster.pvcs.get('h-vol-w1')?.spec?.resources?.requests).toEqual({ storage: '2048Mi' });
    expect(cluster.pods.get('h-ws-w1')?.metadata?.labels).toMatchObject({ 'h.managed': '1', 'h.ns': 'h', 'h.workspace': 'w1', 'h.team': 't1' });
    expect([...cluster.policies.keys()]).toEqual(['h-sandbox-deny-all']);
    expect(driver.isConnected(record)).toBe(true);
    expect(await driver.status(record)).toMatchObject({ state: 'running', driver: 'kubernetes', unsafe: false });
  });

  it('should stop by deleting the pod, keep the PVCs, start it again on them, and remove everything', async () => {
    const record = await driver.ensure({ workspaceId: 'w1', teamId: 't1' });
    await driver.stop(record);
    expect(cluster.pods.size).toBe(0);
    expect(await driver.status(record)).toMatchObject({ state: 'stopped' });
    await driver.connect(record);
    expect(cluster.pods.get('h-ws-w1')?.spec?.volumes?.[0]).toEqual({ name: 'workspace', persistentVolumeClaim: { claimName: 'h-vol-w1' } });
    await driver.remove(record);
    expect([cluster.pods.size, cluster.pvcs.size]).toEqual([0, 0]);
    expect((await driver.status(record)).state).toBe('missing');
  });

  it('should let only a network-enabled pod out, to the egress proxy, and re-create it without when network is turned off', async () => {
    const withNet = await driver.ensure({ workspaceId: 'w2', teamId: 't1', network: 'egress' });
    const policy = cluster.policies.get('h-ws-w2-egress');
    expect(policy?.spec?.egress?.[0].to?.[0]).toEqual({ podSelector: { matchLabels: { 'h.egress-proxy': '1' } }, namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'h' } } });
    expect(cluster.pods.get('h-ws-w2')?.spec?.containers[0].env).toContainEqual({ name: 'SANDBOXD_EGRESS_URL', value: 'http://h-egress-proxy.h:3128' });
    const ip = cluster.pods.get('h-ws-w2')?.status?.podIP as string;
    expect(await driver.workspaceOfAddress(ip)).toBe('w2');
    const off = await driver.ensure({ workspaceId: 'w2', teamId: 't1', network: 'none' }, withNet);
    expect(off.network).toBe('none');
    expect(cluster.policies.has('h-ws-w2-egress')).toBe(false);
    expect(cluster.pods.get('h-ws-w2')?.metadata?.labels?.['h.network']).toBeUndefined();
    expect(await driver.workspaceOfAddress(cluster.pods.get('h-ws-w2')?.status?.podIP as string)).toBeNull();
  });

  it('should claim a warm pod by relabelling it, skip one another worker claimed first, and refill the pool', async () => {
    await driver.close();
    driver = make(2);
    await driver.fillPool();
    const warm = [...cluster.pods.keys()];
    expect(warm).toHaveLength(2);
    cluster.stealNextClaim = true;
    const record = await driver.ensure({ workspaceId: 'w3', teamId: 't3' });
    expect(warm.indexOf(record.name)).toBe(1);
    const pod = cluster.pods.get(record.name);
    expect(pod?.metadata?.labels).toMatchObject({ 'h.workspace': 'w3', 'h.team': 't3' });
    expect(pod?.metadata?.labels?.['h.pool']).toBeUndefined();
    expect(cluster.pvcs.get(record.volume)?.metadata?.labels).toMatchObject({ 'h.workspace': 'w3' });
    // A spec that differs from the pool's defaults never gets a warm pod.
    expect(await driver.claimWarm({ workspaceId: 'w4', teamId: 't', network: 'egress' })).toBeNull();
    await driver.fillPool();
    expect((await cluster.listPods('', 'h.pool=1')).length).toBe(2);
  });

  it('should remove pods no record knows at reconcile and only report unreferenced PVCs', async () => {
    const kept = await driver.ensure({ workspaceId: 'kept', teamId: 't' });
    const orphan = await driver.ensure({ workspaceId: 'orphan', teamId: 't' });
    const fresh = await driver.ensure({ workspaceId: 'fresh', teamId: 't' });
    const orphanPod = cluster.pods.get(orphan.name);
    if (orphanPod?.metadata) orphanPod.metadata.creationTimestamp = new Date(Date.now() - 11 * 60_000);
    const report = await driver.reconcile([kept]);
    // The fresh one may be another worker's, its record not saved yet: left alone.
    expect(report.removedContainers).toEqual([orphan.name]);
    expect(cluster.pods.has(fresh.name)).toBe(true);
    expect(report.orphanVolumes.sort()).toEqual([orphan.volume, `${orphan.volume}-state`]);
    expect(report.removedVolumes).toEqual([]);
    expect(cluster.pvcs.has(orphan.volume)).toBe(true);
    expect(cluster.pods.has(kept.name)).toBe(true);
  });
});
