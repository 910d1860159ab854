import type { V1Pod } from '@kubernetes/client-node';
import type { KubernetesCalls } from './kubernetes-api';
import { SANDBOX_CONTAINER } from './kubernetes-manifests';

/** Polls the pod until its sandbox container runs (an image pull or a volume attach can take a while). */
export async function waitPodRunning(api: KubernetesCalls, namespace: string, name: string, timeoutMs: number): Promise<V1Pod> {
  const deadline = Date.now() + timeoutMs;
  let last: V1Pod | null = null;
  while (Date.now() < deadline) {
    last = await api.readPod(namespace, name);
    if (last?.status?.phase === 'Running' && last.status.containerStatuses?.some((c) => c.name === SANDBOX_CONTAINER && c.state?.running)) return last;
    if (last?.status?.phase === 'Failed' || last?.status?.phase === 'Succeeded') break;
    await new Promise((r) => setTimeout(r, 250));
  }
  // The reason a user can act on: ImagePullBackOff, CrashLoopBackOff, Pending (no node fits), …
  const why = last?.status?.containerStatuses?.[0]?.state?.waiting?.reason ?? last?.status?.phase ?? 'missing';
  throw new Error(`sandbox pod ${name} did not start (${why})`);
}

/** Deletes the pod and waits until it is gone, so a pod of the same name can be created again. */
export async function deletePodAndWait(api: KubernetesCalls, namespace: string, name: string, timeoutMs = 60_000): Promise<void> {
  await api.deletePod(namespace, name);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && (await api.readPod(namespace, name))) await new Promise((r) => setTimeout(r, 250));
}
