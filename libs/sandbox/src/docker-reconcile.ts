import type Docker from 'dockerode';
import type { ReconcileReport, SandboxRecord } from './sandbox-driver';
import { ignoreStatus } from './docker-utils';
import { STATE_VOLUME_SUFFIX, type WorkspaceStorage } from './workspace-storage';

export interface ReconcileDeps {
  docker: Docker;
  storage: WorkspaceStorage;
  prefix: string;
  image: string;
  /** Label filters of the driver's namespace (docker-labels.ts namespaceFilters). */
  labelFilters: string[];
  /** Whether this process already holds a client under that name (a live sandbox of its own). */
  hasClient(name: string): boolean;
  /** Whether the warm pool has room for a leftover warm container. */
  poolWantsMore(): boolean;
  /** Connects to a leftover warm container and puts it in the pool; throws when unusable. */
  adoptWarm(name: string, volume: string): Promise<void>;
  removeVolume(name: string): Promise<void>;
  /** Remove volumes no record references (default false: data is precious). */
  removeOrphanVolumes?: boolean;
}

/**
 * The startup pass: removes containers of the namespace that no record knows, adopts leftover warm
 * containers of the current image, and reports (or removes, when asked) volumes nothing references.
 */
export async function reconcileContainers(known: SandboxRecord[], deps: ReconcileDeps): Promise<ReconcileReport> {
  const report: ReconcileReport = { removedContainers: [], adoptedPool: [], orphanVolumes: [], removedVolumes: [] };
  const knownNames = new Set(known.map((r) => r.name));
  const knownVolumes = new Set(known.map((r) => r.volume));
  const containers = await deps.docker.listContainers({ all: true, filters: { label: deps.labelFilters } });
  const usedVolumes = new Set<string>();
  for (const c of containers) {
    const name = (c.Names[0] ?? '').replace(/^\//, '');
    const vol = deps.storage.volumeOf(c.Mounts);
    if (knownNames.has(name) || deps.hasClient(name)) {
      if (vol) usedVolumes.add(vol);
      continue;
    }
    const isPool = name.startsWith(`${deps.prefix}pool-`);
    // Only warm containers of the current image are worth keeping.
    if (isPool && c.State === 'running' && c.Image === deps.image && deps.poolWantsMore() && vol) {
      try {
        await deps.adoptWarm(name, vol);
        usedVolumes.add(vol);
        report.adoptedPool.push(name);
        continue;
      } catch {
        // unusable: removed below
      }
    }
    await deps.docker.getContainer(c.Id).remove({ force: true }).catch(ignoreStatus(404));
    report.removedContainers.push(name);
    // A never-claimed pool container's volume holds nothing of anyone's.
    if (isPool && vol) {
      await deps.removeVolume(vol);
      report.removedVolumes.push(vol);
    }
  }
  const kept = (name: string) => knownVolumes.has(name) || usedVolumes.has(name) || report.removedVolumes.includes(name);
  const volumes = await deps.storage.list(deps.labelFilters);
  for (const name of volumes) {
    if (kept(name)) continue;
    // A state volume follows its workspace volume (removed with it), reported only without one.
    if (name.endsWith(STATE_VOLUME_SUFFIX)) {
      const owner = name.slice(0, -STATE_VOLUME_SUFFIX.length);
      if (kept(owner) || volumes.includes(owner)) continue;
    }
    report.orphanVolumes.push(name);
    if (deps.removeOrphanVolumes) {
      await deps.removeVolume(name);
      report.removedVolumes.push(name);
    }
  }
  return report;
}
