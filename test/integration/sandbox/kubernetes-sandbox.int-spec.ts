import { existsSync } from 'node:fs';
import { KubernetesSandboxDriver, SandboxWorkspace, type KubernetesSandboxOptions, type SandboxRecord } from '@h/sandbox';
import { spec, testPrefix, TEST_LABELS, waitFor } from './sandbox-test-kit';
import { describeWorkspaceBehaviour } from './workspace-behaviour';

// The Kubernetes driver against a real cluster: the Workspace contract every driver keeps, and the
// driver contract the Docker driver's suites check (lockdown, stop/start on the same files,
// isolation, warm pool, reconcile, remove). KUBECONFIG points at the cluster; the sandbox image
// (H_K8S_SANDBOX_IMAGE, else H_SANDBOX_IMAGE, else h-sandbox:latest) must be pullable by its nodes
// (e.g. `kind load docker-image h-sandbox:latest`); H_TEST_K8S_NAMESPACE (default `default`) must exist.
// Without a cluster every test is reported as skipped, the reason in its name.
function unavailableReason(): string | null {
  const kubeconfig = process.env.KUBECONFIG;
  if (!kubeconfig) return 'KUBECONFIG not set';
  if (!kubeconfig.split(':').some((f) => existsSync(f))) return `KUBECONFIG file ${kubeconfig} not found`;
  return null;
}

const why = unavailableReason();
if (why) process.stderr.write(`kubernetes driver contract tests skipped: ${why}\n`);
const describeCluster = why ? describe.skip : describe;
const TIMEOUT_MS = 10 * 60_000;

const prefix = testPrefix();
let driver: KubernetesSandboxDriver;
const makeDriver = (opts: Partial<KubernetesSandboxOptions> = {}) =>
  new KubernetesSandboxDriver({
    image: process.env.H_K8S_SANDBOX_IMAGE ?? process.env.H_SANDBOX_IMAGE ?? 'h-sandbox:latest',
    namespace: process.env.H_TEST_K8S_NAMESPACE ?? 'default',
    namePrefix: prefix,
    extraLabels: TEST_LABELS,
    idleTimeoutMs: 0,
    reconcileGraceMs: 0,
    diskMb: 512,
    stateDiskMb: 64,
    ...opts,
  });
const workspace = (record: SandboxRecord) => new SandboxWorkspace(() => driver.connect(record));

describeCluster(`KubernetesSandboxDriver${why ? ` (skipped: ${why})` : ''}`, () => {
  let record: SandboxRecord;

  beforeAll(async () => {
    driver = makeDriver();
    record = await driver.ensure(spec('main'));
  }, TIMEOUT_MS);

  afterAll(async () => {
    // Everything this file made: the driver's namespace is this file's prefix.
    await driver?.reconcile([]);
    const leftovers = await driver?.api.listPvcs(driver.namespace, `h.test=1`);
    for (const pvc of leftovers ?? []) if (pvc.metadata?.name?.startsWith(prefix)) await driver.api.deletePvc(driver.namespace, pvc.metadata.name);
    for (const pod of (await driver?.api.listPods(driver.namespace, `h.test=1`)) ?? []) if (pod.metadata?.name?.startsWith(prefix)) await driver.api.deletePod(driver.namespace, pod.metadata.name, 0);
    await driver?.close();
  }, TIMEOUT_MS);

  describeWorkspaceBehaviour('SandboxWorkspace (Kubernetes)', () => workspace(record));

  it('should run sandboxd as an unprivileged user with a read-only root, no capabilities and no service account token', async () => {
    const r = await workspace(record).exec(
      'id -u; touch /usr/x 2>/dev/null && echo root-writable || echo root-readonly; touch /tmp/x && echo tmp-ok; touch "$HOME/x" && echo home-ok; ' +
        'grep CapEff /proc/self/status; test -e /var/run/secrets/kubernetes.io/serviceaccount/token && echo token || echo no-token',
    );
    expect(r.stdout.split('\n')).toEqual(['1000', 'root-readonly', 'tmp-ok', 'home-ok', 'CapEff:\t0000000000000000', 'no-token', '']);
    expect(await driver.status(record)).toMatchObject({ state: 'running', driver: 'kubernetes', unsafe: false });
  });

  it('should spawn a process with its stdio attached over the exec API, and kill its group', async () => {
    const echo = await driver.spawn(record, { argv: ['/bin/sh', '-c', 'echo "$X"; cat'], env: { X: 'from-env' } });
    let out = '';
    echo.stdout.on('data', (c: Buffer) => (out += c.toString()));
    echo.stdin.end('line\n');
    expect(await echo.exited).toBe(0);
    expect(out).toBe('from-env\nline\n');
    const sleeper = await driver.spawn(record, { argv: ['sleep', '600'] });
    await sleeper.kill();
    expect(await sleeper.exited).not.toBe(0);
    expect((await workspace(record).exec('pgrep -x sleep || echo none')).stdout).toBe('none\n');
  }, TIMEOUT_MS);

  it('should stop by deleting the pod and start again on the same files', async () => {
    await workspace(record).writeFile('kept.txt', 'still here');
    await driver.stop(record);
    expect((await driver.status(record)).state).toBe('stopped');
    expect(driver.isConnected(record)).toBe(false);
    expect(await workspace(record).readTextFile('kept.txt')).toBe('still here');
    expect((await driver.status(record)).state).toBe('running');
  }, TIMEOUT_MS);

  it("should keep two workspaces from seeing each other's files", async () => {
    const other = await driver.ensure(spec('other'));
    await workspace(record).writeFile('mine.txt', 'a');
    expect(await workspace(other).stat('mine.txt')).toBeNull();
    await driver.remove(other);
    expect((await driver.status(other)).state).toBe('missing');
  }, TIMEOUT_MS);

  it('should serve a new workspace from the warm pool, claimed by relabelling', async () => {
    const pooled = makeDriver({ poolSize: 1 });
    try {
      await pooled.fillPool();
      const claimed = await pooled.ensure(spec('warm'));
      expect(claimed.name).toMatch(new RegExp(`^${prefix}pool-`));
      const pod = await pooled.api.readPod(pooled.namespace, claimed.name);
      expect(pod?.metadata?.labels).toMatchObject({ 'h.workspace': 'warm', 'h.team': 'team-test' });
      expect(pod?.metadata?.labels?.['h.pool']).toBeUndefined();
      await waitFor(async () => (await pooled.api.listPods(pooled.namespace, 'h.pool=1,h.test=1')).some((p) => p.metadata?.name?.startsWith(prefix)), 120_000, 'the pool to refill');
      await pooled.remove(claimed);
    } finally {
      await pooled.close();
    }
  }, TIMEOUT_MS);

  it('should remove pods no record knows at reconcile and report unreferenced PVCs without deleting them', async () => {
    const orphan = await driver.ensure(spec('orphan'));
    const report = await driver.reconcile([record]);
    expect(report.removedContainers).toContain(orphan.name);
    expect(report.orphanVolumes).toContain(orphan.volume);
    expect(await driver.api.readPvc(driver.namespace, orphan.volume)).not.toBeNull();
    await driver.remove(orphan);
  }, TIMEOUT_MS);

  it('should give a network-enabled pod an egress-only policy and take it away when network access is off', async () => {
    const proxied = makeDriver({ egressProxyService: 'h-egress-proxy' });
    try {
      const withNet = await proxied.ensure(spec('net', { network: 'egress' }));
      const pod = await proxied.api.readPod(proxied.namespace, withNet.name);
      expect(pod?.metadata?.labels?.['h.network']).toBe('egress');
      const off = await proxied.ensure(spec('net', { network: 'none' }), withNet);
      expect((await proxied.api.readPod(proxied.namespace, off.name))?.metadata?.labels?.['h.network']).toBeUndefined();
      await proxied.remove(off);
    } finally {
      await proxied.close();
    }
  }, TIMEOUT_MS);
});
