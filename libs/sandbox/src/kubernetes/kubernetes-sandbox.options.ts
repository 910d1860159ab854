import type { SandboxLimits } from '../sandbox-driver';
import type { KubernetesCalls } from './kubernetes-api';

/** What the Kubernetes driver is built with (the worker's SandboxManager fills it from the config). */
export interface KubernetesSandboxOptions {
  /** Image of the sandbox (infra/sandbox), pullable by the cluster's nodes. */
  image: string;
  /** Namespace of the sandbox pods, PVCs and NetworkPolicies (K8S_NAMESPACE). */
  namespace: string;
  /** A kubeconfig file; unset: KUBECONFIG, ~/.kube/config, else in-cluster (the worker's service account). */
  kubeconfig?: string;
  /** Ready-made API (tests); default: KubernetesApi.load(kubeconfig). */
  api?: KubernetesCalls;
  /** Prefix of pod and PVC names (default 'h-'); pods are `<prefix>ws-<workspaceId>`. */
  namePrefix?: string;
  /** StorageClass of the workspace PVCs; unset: the cluster's default. */
  storageClass?: string;
  /** Size of a workspace PVC in MiB, the disk budget (default 2048; a spec's diskMb wins). */
  diskMb?: number;
  /** Size of the state PVC (run checkpoints) in MiB (default 1024). */
  stateDiskMb?: number;
  /** RuntimeClass for sandbox pods (e.g. gVisor); default: the node's runtime. */
  runtimeClass?: string;
  /**
   * The egress proxy's Service (`name` or `name.namespace`), needed for specs with network
   * 'egress': the pod gets HTTP(S)_PROXY=http://<service>:3128 and a NetworkPolicy to its pods.
   */
  egressProxyService?: string;
  /** Labels of the egress proxy's pods (default the Helm chart's worker pods: h.egress-proxy=1, the worker runs the proxy). */
  egressProxyPodLabels?: Record<string, string>;
  limits?: Partial<SandboxLimits>;
  /** Pre-created pods kept ready for new workspaces (default 0). */
  poolSize?: number;
  /** Stop (delete the pod, keep the PVCs) after this long without requests (default 15 min; 0 = never). */
  idleTimeoutMs?: number;
  /** After the idle sweeper deleted a pod: its name and, when this process knew it, its workspace. */
  onIdleStop?: (name: string, workspaceId?: string) => void;
  /** Added to every object (e.g. { 'h.test': '1' }); reconcile only looks at these. */
  extraLabels?: Record<string, string>;
  /** uid:gid of the sandbox user (the image's `h`). */
  user?: string;
  /** Reconcile leaves unknown pods younger than this alone (another worker may be creating them; default 10 min). */
  reconcileGraceMs?: number;
  /** Remove PVCs no record references during reconcile (default false). */
  removeOrphanVolumes?: boolean;
  rpcMaxLineBytes?: number;
  /** How long start waits for the pod to run and its daemon to answer (default 180 s: image pulls). */
  readyTimeoutMs?: number;
}
