import type { SandboxSpec } from './sandbox-driver';

/** What placement knows of a host when a workspace's sandbox is first created. */
export interface HostCandidate {
  name: string;
  /** It answered a ping just now. */
  healthy: boolean;
  /** Sandboxes of this namespace on it now. */
  sandboxes: number;
  maxSandboxes?: number;
  /**
   * The engine runs on this worker's machine (its name is this host's): bind mounts from here work
   * there. The egress proxy's socket and loop-mounted disk budgets need that.
   */
  sharesFilesystem: boolean;
}

export type Placement = { host: string } | { error: 'none-healthy' | 'full' | 'no-capability'; detail: string };

/**
 * The host a new sandbox goes to: healthy, with room, able to give what the workspace asks for
 * (network access and a disk budget are bind mounts from this machine), and holding the fewest
 * sandboxes; ties go to the first host listed. Why none fits, otherwise.
 */
export function placeSandbox(hosts: readonly HostCandidate[], needs: { sharedFilesystem: boolean }): Placement {
  const healthy = hosts.filter((h) => h.healthy);
  if (!healthy.length) return { error: 'none-healthy', detail: `no Docker host answered (${hosts.map((h) => h.name).join(', ')})` };
  const capable = needs.sharedFilesystem ? healthy.filter((h) => h.sharesFilesystem) : healthy;
  if (!capable.length) {
    return { error: 'no-capability', detail: `the workspace needs a Docker host on the worker's own machine (network access or a disk budget); the healthy ones (${healthy.map((h) => h.name).join(', ')}) are remote` };
  }
  const roomy = capable.filter((h) => h.maxSandboxes === undefined || h.sandboxes < h.maxSandboxes);
  if (!roomy.length) return { error: 'full', detail: `every Docker host that fits is full (${capable.map((h) => `${h.name} ${h.sandboxes}/${h.maxSandboxes}`).join(', ')})` };
  let best = roomy[0];
  for (const h of roomy) if (h.sandboxes < best.sandboxes) best = h;
  return { host: best.name };
}

/** Whether a spec needs bind mounts from this machine (see HostCandidate.sharesFilesystem). */
export function needsSharedFilesystem(spec: SandboxSpec, diskBudgets: boolean): boolean {
  return (spec.network ?? 'none') === 'egress' || (diskBudgets && spec.diskMb !== 0);
}
