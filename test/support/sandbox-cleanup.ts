import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_DISK_DIR } from './test-env';

// No @h/* imports: jest's global setup and teardown load this without the module mapping.
/** Removes the containers, volumes and disk images a test stack's sandboxes left behind. */
export async function removeSandboxes(prefix: string, diskDir = TEST_DISK_DIR): Promise<void> {
  const Docker = (await import('dockerode')).default;
  const docker = new Docker();
  const containers = await docker.listContainers({ all: true }).catch(() => []);
  for (const c of containers) {
    if (c.Names.some((n) => n.replace(/^\//, '').startsWith(prefix))) await docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined);
  }
  const { Volumes } = await docker.listVolumes().catch(() => ({ Volumes: [] as { Name: string }[] }));
  for (const v of Volumes ?? []) if (v.Name.startsWith(prefix)) await docker.getVolume(v.Name).remove({ force: true }).catch(() => undefined);
  removeDiskImages(prefix, diskDir);
}

/** Unmounts and deletes the loop-mounted workspace images of every namespace starting with prefix. */
function removeDiskImages(prefix: string, diskDir: string): void {
  if (!existsSync(diskDir)) return;
  for (const ns of readdirSync(diskDir).filter((d) => d.startsWith(prefix))) {
    const mnt = join(diskDir, ns, 'mnt');
    for (const vol of existsSync(mnt) ? readdirSync(mnt) : []) {
      const dir = join(mnt, vol);
      for (const args of [['umount', dir], ['umount', '-l', dir], ['chattr', '-i', dir]]) {
        try {
          execFileSync(args[0], args.slice(1), { stdio: 'ignore' });
        } catch {
          // not mounted / not immutable
        }
      }
    }
    rmSync(join(diskDir, ns), { recursive: true, force: true });
  }
}
