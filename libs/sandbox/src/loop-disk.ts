import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import * as path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Disk budgets for workspace volumes on hosts whose Docker storage cannot limit a volume (overlay2
 * on ext4: the `local` volume driver has no size option, `--storage-opt size` needs xfs project
 * quotas). Each workspace's files live in their own ext4 filesystem inside a sparse image file of
 * exactly the budget, loop-mounted on the host and bind-mounted at /workspace: a write past it is
 * ENOSPC inside that one sandbox and touches nothing else. The image outlives containers; after a
 * host restart `ensureMounted` re-attaches it before the container starts. Needs root (mount).
 *
 *   <dir>/<volume>.img   the filesystem image (sparse: only written blocks use host disk)
 *   <dir>/mnt/<volume>   its mount point (root-owned and immutable while unmounted, so a container
 *                        started without the mount cannot write to the host's disk instead)
 */
export class LoopDiskStore {
  constructor(
    readonly dir: string,
    /** uid:gid owning the filesystem's root (the sandbox user). */
    private readonly owner: string,
  ) {}

  imagePath(volume: string): string {
    return path.join(this.dir, `${safeName(volume)}.img`);
  }

  mountPath(volume: string): string {
    return path.join(this.dir, 'mnt', safeName(volume));
  }

  exists(volume: string): boolean {
    return existsSync(this.imagePath(volume));
  }

  /** The budget an existing image was made with (its apparent size), or undefined. */
  sizeMb(volume: string): number | undefined {
    return this.exists(volume) ? Math.round(statSync(this.imagePath(volume)).size / (1024 * 1024)) : undefined;
  }

  isMounted(volume: string): boolean {
    const target = this.mountPath(volume);
    // Field 5 of mountinfo is the mount point (octal escapes for spaces; our names have none).
    return readFileSync('/proc/self/mountinfo', 'utf8')
      .split('\n')
      .some((line) => line.split(' ')[4] === target);
  }

  /** Creates the image on first use and mounts it; returns the host path to bind at /workspace. */
  async ensureMounted(volume: string, sizeMb: number): Promise<string> {
    const img = this.imagePath(volume);
    const mnt = this.mountPath(volume);
    const fresh = !existsSync(img);
    if (fresh) await this.create(img, sizeMb);
    if (!existsSync(mnt)) {
      mkdirSync(mnt, { recursive: true, mode: 0o755 });
      await run('chattr', ['+i', mnt]).catch(() => undefined); // best effort: not every fs supports it
    }
    if (!this.isMounted(volume)) {
      // mount sets up the loop device itself, with autoclear: unmounting releases it.
      await run('mount', ['-o', 'loop,nosuid,nodev', img, mnt]);
      // mkfs's lost+found is root's: it would be an unreadable entry in every file tree.
      if (fresh) rmSync(path.join(mnt, 'lost+found'), { recursive: true, force: true });
    }
    return mnt;
  }

  /** Unmounts (container already removed) and deletes the image: the workspace's files are gone. */
  async remove(volume: string): Promise<void> {
    const mnt = this.mountPath(volume);
    for (let i = 0; i < 20 && this.isMounted(volume); i++) {
      // A container that was just removed may hold the mount for a moment.
      await run('umount', [mnt]).catch(() => new Promise((r) => setTimeout(r, 100)));
    }
    if (this.isMounted(volume)) await run('umount', ['-l', mnt]);
    await run('chattr', ['-i', mnt]).catch(() => undefined);
    rmSync(mnt, { recursive: true, force: true });
    rmSync(this.imagePath(volume), { force: true });
  }

  /** Volumes that have an image here (for reconcile's orphan report). */
  list(): string[] {
    if (!existsSync(this.dir)) return [];
    return readdirSync(this.dir).filter((f) => f.endsWith('.img')).map((f) => f.slice(0, -4));
  }

  private async create(img: string, sizeMb: number): Promise<void> {
    mkdirSync(path.dirname(img), { recursive: true, mode: 0o700 });
    const tmp = `${img}.tmp`;
    const fh = await open(tmp, 'w', 0o600);
    try {
      await fh.truncate(sizeMb * 1024 * 1024);
    } finally {
      await fh.close();
    }
    // No reserved blocks (-m 0): the whole budget is the workspace's. The root belongs to the sandbox user.
    await run('mkfs.ext4', ['-q', '-F', '-m', '0', '-E', `root_owner=${this.owner}`, tmp]);
    await run('mv', [tmp, img]);
  }
}

/**
 * Whether this process can enforce disk budgets (root, mount and mkfs.ext4 present, loop devices):
 * a reason when not, so the caller can log it and fall back to unbounded Docker volumes.
 */
export async function loopDiskUnavailableReason(): Promise<string | null> {
  if (process.getuid?.() !== 0) return 'the process does not run as root (mounting disk images needs it)';
  for (const bin of ['mount', 'umount', 'mkfs.ext4']) {
    const found = await run('sh', ['-c', `command -v ${bin}`]).then(() => true, () => false);
    if (!found) return `${bin} is not installed`;
  }
  if (!existsSync('/dev/loop-control')) return 'no loop devices (/dev/loop-control missing)';
  return null;
}

function safeName(volume: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(volume)) throw new Error(`bad volume name "${volume}"`);
  return volume;
}
