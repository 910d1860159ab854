import { PersistentVolumeClaim, Pod } from 'kubernetes-models/v1';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { DEFAULT_SANDBOX_LIMITS, type SandboxRecord } from '../sandbox-driver';
import {
  buildDenyAllPolicy,
  buildEgressPolicy,
  buildPvc,
  buildSandboxPod,
  claimLabels,
  dnsName,
  labelValue,
  sandboxLabels,
  statePvcName,
  type KubernetesManifestInput,
} from './kubernetes-manifests';

const record: SandboxRecord = {
  driver: 'kubernetes',
  workspaceId: '3f1c2a9e-58d4-4b7e-9a51-0c6f1d2e3b4a',
  teamId: 'a0b1c2d3-e4f5-4678-9abc-def012345678',
  name: 'h-ws-3f1c2a9e-58d4-4b7e-9a51-0c6f1d2e3b4a',
  volume: 'h-vol-3f1c2a9e-58d4-4b7e-9a51-0c6f1d2e3b4a',
  network: 'none',
  createdAt: '2026-12-03T07:00:00.000Z',
};

function input(over: Partial<KubernetesManifestInput> = {}): KubernetesManifestInput {
  return {
    record,
    namespace: 'h-sandboxes',
    image: 'registry.example/h-sandbox:1',
    uid: 1000,
    gid: 1000,
    limits: DEFAULT_SANDBOX_LIMITS,
    labels: sandboxLabels('h-', record, { 'h.test': '1' }),
    diskMb: 2048,
    stateDiskMb: 1024,
    ...over,
  };
}

describe('Kubernetes sandbox manifests', () => {
  it('should build a pod that the Kubernetes OpenAPI schema accepts, locked down like the Docker container', () => {
    const pod = buildSandboxPod(input());
    expect(() => new Pod(pod as never).validate()).not.toThrow();
    const spec = pod.spec ?? { containers: [] };
    expect(spec.automountServiceAccountToken).toBe(false);
    expect(spec.enableServiceLinks).toBe(false);
    expect(spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000, fsGroup: 1000, seccompProfile: { type: 'RuntimeDefault' } });
    const c = spec.containers[0];
    expect(c.securityContext).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, privileged: false, capabilities: { drop: ['ALL'] } });
    // Requests = limits: Guaranteed QoS, the same CPU and memory the Docker driver gives.
    expect(c.resources).toEqual({ requests: { cpu: '1', memory: String(1024 ** 3) }, limits: { cpu: '1', memory: String(1024 ** 3) } });
    expect(c.volumeMounts?.map((m) => m.mountPath).sort()).toEqual(['/home/h', '/run/sandboxd', '/tmp', '/var/lib/h-state', '/workspace']);
    expect(spec.volumes).toEqual(
      expect.arrayContaining([
        { name: 'workspace', persistentVolumeClaim: { claimName: record.volume } },
        { name: 'state', persistentVolumeClaim: { claimName: statePvcName(record.volume) } },
        { name: 'tmp', emptyDir: { medium: 'Memory', sizeLimit: String(DEFAULT_SANDBOX_LIMITS.tmpBytes) } },
      ]),
    );
    // No host paths, no host network or PID namespace.
    expect(spec.volumes?.some((v) => 'hostPath' in v)).toBe(false);
    expect(spec.hostNetwork ?? false).toBe(false);
    expect(spec.hostPID ?? false).toBe(false);
    expect(pod.metadata?.labels).toMatchObject({ 'h.managed': '1', 'h.ns': 'h', 'h.workspace': record.workspaceId, 'h.team': record.teamId, 'h.test': '1', 'h.sandbox': record.name });
    expect(pod.metadata?.labels?.['h.network']).toBeUndefined();
    expect(c.env?.find((e) => e.name === 'SANDBOXD_EGRESS_URL')).toBeUndefined();
  });

  it('should carry custom limits and the runtime class when given', () => {
    const pod = buildSandboxPod(input({ limits: { ...DEFAULT_SANDBOX_LIMITS, cpus: 0.5, memoryBytes: 512 * 1024 * 1024 }, runtimeClass: 'gvisor' }));
    expect(() => new Pod(pod as never).validate()).not.toThrow();
    expect(pod.spec?.runtimeClassName).toBe('gvisor');
    expect(pod.spec?.containers[0].resources?.limits).toEqual({ cpu: '0.5', memory: String(512 * 1024 * 1024) });
  });

  it('should give a network-enabled pod the egress label and proxy URL, and refuse one without a proxy', () => {
    const egress = { ...record, network: 'egress' };
    const pod = buildSandboxPod(input({ record: egress, egressProxyUrl: 'http://h-egress-proxy.h:3128' }));
    expect(pod.metadata?.labels?.['h.network']).toBe('egress');
    expect(pod.spec?.containers[0].env).toContainEqual({ name: 'SANDBOXD_EGRESS_URL', value: 'http://h-egress-proxy.h:3128' });
    expect(() => buildSandboxPod(input({ record: egress }))).toThrow(/egress proxy/);
  });

  it('should size the workspace PVC from the disk budget', () => {
    const pvc = buildPvc(record.volume, 2048, input().labels, 'fast-ssd');
    expect(() => new PersistentVolumeClaim(pvc as never).validate()).not.toThrow();
    expect(pvc.spec).toEqual({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '2048Mi' } }, storageClassName: 'fast-ssd' });
    expect(buildPvc('x', 100, {}).spec?.storageClassName).toBeUndefined();
  });

  it('should deny all ingress and egress of the namespace sandboxes by default', () => {
    const policy = buildDenyAllPolicy('h-sandbox-deny-all', 'h-');
    expect(() => new NetworkPolicy(policy as never).validate()).not.toThrow();
    expect(policy.spec).toEqual({ podSelector: { matchLabels: { 'h.managed': '1', 'h.ns': 'h' } }, policyTypes: ['Ingress', 'Egress'], ingress: [], egress: [] });
  });

  it('should let a network-enabled sandbox reach only the egress proxy and the cluster DNS', () => {
    const policy = buildEgressPolicy({ name: 'p', podName: record.name, labels: {}, proxyPodLabels: { 'h.egress-proxy': '1' }, proxyNamespace: 'h' });
    expect(() => new NetworkPolicy(policy as never).validate()).not.toThrow();
    expect(policy.spec?.podSelector).toEqual({ matchLabels: { 'h.sandbox': record.name, 'h.network': 'egress' } });
    expect(policy.spec?.policyTypes).toEqual(['Egress']);
    expect(policy.spec?.ingress).toBeUndefined();
    const [proxy, dns] = policy.spec?.egress ?? [];
    expect(proxy).toEqual({
      to: [{ podSelector: { matchLabels: { 'h.egress-proxy': '1' } }, namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'h' } } }],
      ports: [{ protocol: 'TCP', port: 3128 }],
    });
    expect(dns.ports?.map((p) => `${p.protocol}/${p.port}`)).toEqual(['UDP/53', 'TCP/53']);
    expect(policy.spec?.egress).toHaveLength(2);
  });

  it('should make valid names and label values', () => {
    expect(dnsName('h-ws-abc')).toBe('h-ws-abc');
    expect(dnsName('H_ws.Ab')).toMatch(/^h-ws-ab-[0-9a-f]{8}$/);
    expect(dnsName(`h-ws-${'a'.repeat(80)}`).length).toBeLessThanOrEqual(63);
    expect(labelValue('h-')).toBe('h');
    expect(claimLabels('w1', 't1')).toEqual({ 'h.pool': null, 'h.workspace': 'w1', 'h.team': 't1' });
  });
});
