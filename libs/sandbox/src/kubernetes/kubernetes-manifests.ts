import { createHash } from 'node:crypto';
import type { V1NetworkPolicy, V1PersistentVolumeClaim, V1Pod } from '@kubernetes/client-node';
import { STATE_SANDBOX_DIR } from '../container-spec';
import type { SandboxLimits, SandboxRecord } from '../sandbox-driver';
import { LABEL_MANAGED, LABEL_NAMESPACE, LABEL_POOL, LABEL_TEAM, LABEL_WORKSPACE } from '../docker-labels';

// Pure builders of what the Kubernetes driver creates, kept apart from the API calls so the
// policy (limits, securityContext, NetworkPolicy) is checked against the Kubernetes OpenAPI schemas
// offline (kubernetes-manifests.spec.ts). Labels are the Docker driver's (docker-labels.ts).

/** The sandbox pod's one container; exec and the sandboxd relay name it. */
export const SANDBOX_CONTAINER = 'sandbox';
/** Label with the pod's own name: the per-sandbox NetworkPolicy selects it (a claimed warm pod keeps its name). */
export const LABEL_SANDBOX = 'h.sandbox';
/** Label on pods that may use the egress proxy (a NetworkPolicy admits them, nothing else does). */
export const LABEL_NETWORK = 'h.network';
/** Where the egress proxy listens in the cluster (its Service), and the proxy URL sandboxd offers commands. */
export const EGRESS_PROXY_PORT = 3128;

export interface KubernetesManifestInput {
  record: SandboxRecord;
  namespace: string;
  image: string;
  uid: number;
  gid: number;
  limits: SandboxLimits;
  labels: Record<string, string>;
  /** The workspace PVC's size in MiB (the disk budget); the state PVC has its own size. */
  diskMb: number;
  stateDiskMb: number;
  storageClass?: string;
  /** RuntimeClass of the sandbox pods (e.g. gVisor's `gvisor`); default: the node's. */
  runtimeClass?: string;
  /** `http://<egress proxy service>:3128`; given to sandboxd only for records with network 'egress'. */
  egressProxyUrl?: string;
}

/** A DNS-1123 name (pods, PVCs): lowercase, at most 63 characters; a changed or cut name gets a hash. */
export function dnsName(raw: string): string {
  const clean = raw.toLowerCase().replace(/[^a-z0-9-]/g, '-').replace(/^-+|-+$/g, '');
  if (clean === raw && clean.length <= 63) return clean;
  const hash = createHash('sha256').update(raw).digest('hex').slice(0, 8);
  return `${clean.slice(0, 54).replace(/-+$/, '')}-${hash}`;
}

/** A label value (ends alphanumeric, ≤ 63): the name prefix `h-` becomes `h`. */
export function labelValue(raw: string): string {
  return raw.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 63).replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '') || 'x';
}

/** Labels of every object of one driver namespace, plus the workspace's when it has one. */
export function sandboxLabels(prefix: string, record: SandboxRecord, extra: Record<string, string> = {}): Record<string, string> {
  return {
    [LABEL_MANAGED]: '1',
    [LABEL_NAMESPACE]: labelValue(prefix),
    ...(record.workspaceId ? { [LABEL_WORKSPACE]: labelValue(record.workspaceId), [LABEL_TEAM]: labelValue(record.teamId) } : {}),
    ...extra,
  };
}

export function statePvcName(volume: string): string {
  return dnsName(`${volume}-state`);
}

function quantityMi(mb: number): string {
  return `${Math.max(1, Math.round(mb))}Mi`;
}

export function buildPvc(name: string, sizeMb: number, labels: Record<string, string>, storageClass?: string): V1PersistentVolumeClaim {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, labels },
    spec: {
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: quantityMi(sizeMb) } },
      ...(storageClass ? { storageClassName: storageClass } : {}),
    },
  };
}

/**
 * The locked-down pod of one workspace, the Kubernetes form of containerCreateOptions: its PVC at
 * /workspace and a state PVC at /var/lib/h-state, read-only root, memory-backed /tmp, $HOME and
 * socket dir, non-root, no capabilities, no privilege escalation, RuntimeDefault seccomp, requests =
 * limits (Guaranteed QoS), no service account token, no service links. Processes: Kubernetes has no
 * per-pod pids field (the kubelet's podPidsLimit is node-wide), so `limits.pids` is not enforced here.
 */
export function buildSandboxPod(input: KubernetesManifestInput): V1Pod {
  const { record, limits } = input;
  const env = [
    { name: 'HOME', value: '/home/h' },
    { name: 'USER', value: 'h' },
    { name: 'SHELL', value: '/bin/bash' },
    { name: 'SANDBOXD_ROOT', value: '/workspace' },
    { name: 'SANDBOXD_STATE_DIR', value: STATE_SANDBOX_DIR },
    { name: 'SANDBOXD_DISK_MB', value: String(input.diskMb) },
  ];
  if (record.network === 'egress') {
    if (!input.egressProxyUrl) throw new Error('network "egress" needs the egress proxy service (K8S_EGRESS_PROXY_SERVICE)');
    env.push({ name: 'SANDBOXD_EGRESS_URL', value: input.egressProxyUrl });
  }
  const resources = { cpu: String(limits.cpus), memory: String(limits.memoryBytes) };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: record.name,
      labels: { ...input.labels, [LABEL_SANDBOX]: labelValue(record.name), ...(record.network === 'egress' ? { [LABEL_NETWORK]: 'egress' } : {}) },
    },
    spec: {
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      // If sandboxd dies, tini exits and the kubelet restarts the container (Docker's on-failure).
      restartPolicy: 'OnFailure',
      terminationGracePeriodSeconds: 2,
      ...(input.runtimeClass ? { runtimeClassName: input.runtimeClass } : {}),
      securityContext: {
        runAsNonRoot: true,
        runAsUser: input.uid,
        runAsGroup: input.gid,
        // Makes the PVCs writable for the sandbox user on first mount.
        fsGroup: input.gid,
        fsGroupChangePolicy: 'OnRootMismatch',
        seccompProfile: { type: 'RuntimeDefault' },
      },
      containers: [
        {
          name: SANDBOX_CONTAINER,
          image: input.image,
          imagePullPolicy: 'IfNotPresent',
          workingDir: '/workspace',
          env,
          resources: { requests: resources, limits: resources },
          securityContext: {
            allowPrivilegeEscalation: false,
            readOnlyRootFilesystem: true,
            privileged: false,
            capabilities: { drop: ['ALL'] },
          },
          volumeMounts: [
            { name: 'workspace', mountPath: '/workspace' },
            { name: 'state', mountPath: STATE_SANDBOX_DIR },
            { name: 'tmp', mountPath: '/tmp' },
            { name: 'home', mountPath: '/home/h' },
            { name: 'sandboxd', mountPath: '/run/sandboxd' },
          ],
        },
      ],
      volumes: [
        { name: 'workspace', persistentVolumeClaim: { claimName: record.volume } },
        { name: 'state', persistentVolumeClaim: { claimName: statePvcName(record.volume) } },
        // Memory-backed like Docker's tmpfs: the pages count against the memory limit.
        { name: 'tmp', emptyDir: { medium: 'Memory', sizeLimit: String(limits.tmpBytes) } },
        { name: 'home', emptyDir: { medium: 'Memory', sizeLimit: String(limits.homeBytes) } },
        { name: 'sandboxd', emptyDir: { medium: 'Memory', sizeLimit: '1Mi' } },
      ],
    },
  };
}

/**
 * Deny by default: every sandbox pod of this driver namespace gets no ingress and no egress at all
 * (the driver reaches sandboxd through the API server's exec, not the pod network).
 */
export function buildDenyAllPolicy(name: string, prefix: string): V1NetworkPolicy {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name, labels: { [LABEL_MANAGED]: '1', [LABEL_NAMESPACE]: labelValue(prefix) } },
    spec: {
      podSelector: { matchLabels: { [LABEL_MANAGED]: '1', [LABEL_NAMESPACE]: labelValue(prefix) } },
      policyTypes: ['Ingress', 'Egress'],
      ingress: [],
      egress: [],
    },
  };
}

export interface EgressPolicyInput {
  name: string;
  /** The sandbox pod's name (LABEL_SANDBOX selects it). */
  podName: string;
  labels: Record<string, string>;
  /** Labels of the egress proxy's pods (the Helm chart's worker pods, label h.egress-proxy=1). */
  proxyPodLabels: Record<string, string>;
  /** Namespace of the proxy when it is not the sandboxes' (matched by kubernetes.io/metadata.name). */
  proxyNamespace?: string;
}

/**
 * The one way out of a network-enabled sandbox: TCP to the egress proxy's pods on its port, plus
 * DNS to the cluster resolver so the proxy's Service name resolves. Every destination decision is
 * the proxy's (libs/egress). A sandbox without network access gets no such policy.
 */
export function buildEgressPolicy(input: EgressPolicyInput): V1NetworkPolicy {
  const proxyPeer = {
    podSelector: { matchLabels: input.proxyPodLabels },
    ...(input.proxyNamespace ? { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': input.proxyNamespace } } } : {}),
  };
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: input.name, labels: input.labels },
    spec: {
      podSelector: { matchLabels: { [LABEL_SANDBOX]: labelValue(input.podName), [LABEL_NETWORK]: 'egress' } },
      policyTypes: ['Egress'],
      egress: [
        { to: [proxyPeer], ports: [{ protocol: 'TCP', port: EGRESS_PROXY_PORT }] },
        {
          to: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } }, podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } } }],
          ports: [
            { protocol: 'UDP', port: 53 },
            { protocol: 'TCP', port: 53 },
          ],
        },
      ],
    },
  };
}

/** Labels that turn a warm pod into a workspace's (a merge patch; null removes the pool label). */
export function claimLabels(workspaceId: string, teamId: string): Record<string, string | null> {
  return { [LABEL_POOL]: null, [LABEL_WORKSPACE]: labelValue(workspaceId), [LABEL_TEAM]: labelValue(teamId) };
}
