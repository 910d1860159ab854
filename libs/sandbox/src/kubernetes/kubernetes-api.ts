import type { CoreV1Api, NetworkingV1Api, V1NetworkPolicy, V1PersistentVolumeClaim, V1Pod } from '@kubernetes/client-node';
import type { KubernetesExecFn } from './kubernetes-exec-stream';

/**
 * The Kubernetes calls the sandbox driver makes, over @kubernetes/client-node. The package is an
 * ES module: it is required only here and only when a driver is built (node 20.19+ loads it with
 * require(esm)), so importing @h/sandbox never loads it, and neither do the unit specs.
 */
export class KubernetesApi {
  private constructor(
    private readonly core: CoreV1Api,
    private readonly networking: NetworkingV1Api,
    readonly exec: KubernetesExecFn,
    private readonly mergePatch: unknown,
  ) {}

  /** From a kubeconfig file, else KUBECONFIG / ~/.kube/config / the pod's service account (in-cluster). */
  static load(kubeconfigPath?: string): KubernetesApi {
    const k8s = require('@kubernetes/client-node') as typeof import('@kubernetes/client-node');
    const kc = new k8s.KubeConfig();
    if (kubeconfigPath) kc.loadFromFile(kubeconfigPath);
    else kc.loadFromDefault();
    const exec = new k8s.Exec(kc);
    return new KubernetesApi(
      kc.makeApiClient(k8s.CoreV1Api),
      kc.makeApiClient(k8s.NetworkingV1Api),
      (namespace, pod, container, command, stdout, stderr, stdin, tty, onStatus) => exec.exec(namespace, pod, container, command, stdout, stderr, stdin, tty, onStatus),
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
  }

  readPod(namespace: string, name: string): Promise<V1Pod | null> {
    return orNull(this.core.readNamespacedPod({ namespace, name }));
  }

  async listPods(namespace: string, labelSelector: string, fieldSelector?: string): Promise<V1Pod[]> {
    return (await this.core.listNamespacedPod({ namespace, labelSelector, ...(fieldSelector ? { fieldSelector } : {}) })).items;
  }

  createPod(namespace: string, body: V1Pod): Promise<V1Pod> {
    return this.core.createNamespacedPod({ namespace, body });
  }

  /** Merge-patches labels; with resourceVersion the patch fails with 409 if the pod changed since (a claim race). */
  patchPodLabels(namespace: string, name: string, labels: Record<string, string | null>, resourceVersion?: string): Promise<V1Pod> {
    const body = { metadata: { labels, ...(resourceVersion ? { resourceVersion } : {}) } };
    return this.core.patchNamespacedPod({ namespace, name, body }, this.mergePatch as never);
  }

  async deletePod(namespace: string, name: string, gracePeriodSeconds = 2): Promise<void> {
    await ignore404(this.core.deleteNamespacedPod({ namespace, name, gracePeriodSeconds }));
  }

  readPvc(namespace: string, name: string): Promise<V1PersistentVolumeClaim | null> {
    return orNull(this.core.readNamespacedPersistentVolumeClaim({ namespace, name }));
  }

  async listPvcs(namespace: string, labelSelector: string): Promise<V1PersistentVolumeClaim[]> {
    return (await this.core.listNamespacedPersistentVolumeClaim({ namespace, labelSelector })).items;
  }

  async createPvc(namespace: string, body: V1PersistentVolumeClaim): Promise<void> {
    await ignoreStatus(this.core.createNamespacedPersistentVolumeClaim({ namespace, body }), 409);
  }

  async patchPvcLabels(namespace: string, name: string, labels: Record<string, string | null>): Promise<void> {
    await this.core.patchNamespacedPersistentVolumeClaim({ namespace, name, body: { metadata: { labels } } }, this.mergePatch as never);
  }

  async deletePvc(namespace: string, name: string): Promise<void> {
    await ignore404(this.core.deleteNamespacedPersistentVolumeClaim({ namespace, name }));
  }

  /** Creates the policy or replaces the one of the same name. */
  async applyNetworkPolicy(namespace: string, body: V1NetworkPolicy): Promise<void> {
    const name = body.metadata?.name as string;
    const existing = await orNull(this.networking.readNamespacedNetworkPolicy({ namespace, name }));
    if (!existing) await ignoreStatus(this.networking.createNamespacedNetworkPolicy({ namespace, body }), 409);
    else await this.networking.replaceNamespacedNetworkPolicy({ namespace, name, body: { ...body, metadata: { ...body.metadata, resourceVersion: existing.metadata?.resourceVersion } } });
  }

  async deleteNetworkPolicy(namespace: string, name: string): Promise<void> {
    await ignore404(this.networking.deleteNamespacedNetworkPolicy({ namespace, name }));
  }
}

/** What the driver calls (KubernetesApi's public surface), so its unit spec can hand it an in-memory cluster. */
export type KubernetesCalls = Pick<KubernetesApi, keyof KubernetesApi>;

/** The HTTP status of a failed call (client-node's ApiException has `code`). */
export function statusOf(e: unknown): number | undefined {
  return (e as { code?: number }).code;
}

async function orNull<T>(p: Promise<T>): Promise<T | null> {
  try {
    return await p;
  } catch (e) {
    if (statusOf(e) === 404) return null;
    throw e;
  }
}

function ignore404<T>(p: Promise<T>): Promise<T | undefined> {
  return ignoreStatus(p, 404);
}

async function ignoreStatus<T>(p: Promise<T>, status: number): Promise<T | undefined> {
  try {
    return await p;
  } catch (e) {
    if (statusOf(e) === status) return undefined;
    throw e;
  }
}
