import * as path from 'node:path';
import type Docker from 'dockerode';
import { removeVolume } from './docker-utils';
import type { LoopDiskStore } from './loop-disk';
import type { SandboxRecord } from './sandbox-driver';

/** The suffix of a workspace's H-internal state volume (checkpoints): `<workspace volume>-state`. */
export const STATE_VOLUME_SUFFIX = '-state';

/** The state volume that belongs to a workspace volume. */
export function stateVolumeOf(volume: string): string {
  return `${volume}${STATE_VOLUME_SUFFIX}`;
}

/** What is mounted at /workspace: a Docker named volume, or (with a disk budget) a loop-mounted image. */
export interface WorkspaceMount {
  type: 'volume' | 'bind';
  source: string;
}

/**
 * The files of a workspace, wherever they live: a record with `diskMb` has its own budgeted ext4
 * image (LoopDiskStore); one without (no budget configured, or created before budgets) a named
 * Docker volume. Either way the record's `volume` names it and it outlives the container. Beside
 * it, always a named Docker volume, the workspace's state (stateVolumeOf): created with it, removed
 * with it, outside the disk budget (it holds checkpoints, whose files are capped per file).
 */
export class WorkspaceStorage {
  constructor(
    private readonly docker: Docker,
    readonly disks: LoopDiskStore | null,
  ) {}

  /** Creates (first use) the workspace's state volume; returns its name. */
  async prepareState(record: SandboxRecord, labels: Record<string, string>): Promise<string> {
    const name = stateVolumeOf(record.volume);
    await this.createVolume(name, labels);
    return name;
  }

  /** Creates (first use) and attaches the workspace's storage; returns what to mount. */
  async prepare(record: SandboxRecord, labels: Record<string, string>): Promise<WorkspaceMount> {
    if (record.diskMb) {
      // Never fall back to an empty Docker volume: the workspace's files are in its image.
      if (!this.disks) throw new Error(`workspace volume ${record.volume} is a disk image, but disk budgets are unavailable in this process (needs root and SANDBOX_DISK_MB > 0)`);
      return { type: 'bind', source: await this.disks.ensureMounted(record.volume, record.diskMb) };
    }
    await this.createVolume(record.volume, labels);
    return { type: 'volume', source: record.volume };
  }

  private async createVolume(name: string, labels: Record<string, string>): Promise<void> {
    await this.docker.createVolume({ Name: name, Labels: labels }).catch((e: { statusCode?: number }) => {
      if (e.statusCode !== 409) throw e;
    });
  }

  /** True when the record's disk image is not mounted (a host restart): the container must not run without it. */
  needsAttach(record: SandboxRecord): boolean {
    return !!(record.diskMb && this.disks && !this.disks.isMounted(record.volume));
  }

  /** Removes a workspace volume and its state volume (a state volume alone: just that one). */
  async remove(volume: string): Promise<void> {
    if (this.disks?.exists(volume)) await this.disks.remove(volume);
    else await removeVolume(this.docker, volume);
    if (!volume.endsWith(STATE_VOLUME_SUFFIX)) await removeVolume(this.docker, stateVolumeOf(volume));
  }

  /** The volume name of a container's /workspace mount, for either kind of storage. */
  volumeOf(mounts: { Destination: string; Name?: string; Type?: string; Source?: string }[]): string | undefined {
    const m = mounts.find((x) => x.Destination === '/workspace');
    if (!m) return undefined;
    if (m.Name) return m.Name;
    return m.Source && this.disks && path.dirname(m.Source) === path.dirname(this.disks.mountPath('x')) ? path.basename(m.Source) : undefined;
  }

  /** Every stored workspace volume with the given labels (Docker volumes) plus every disk image. */
  async list(labelFilters: string[]): Promise<string[]> {
    const { Volumes } = await this.docker.listVolumes({ filters: { label: labelFilters } });
    return [...(Volumes ?? []).map((v) => v.Name), ...(this.disks?.list() ?? [])];
  }
}
